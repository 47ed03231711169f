import type { ConversationRecord, MessageRecord } from '../../answers/ports/conversations.js';
import type { RetentionStore } from '../../ports/store.js';
import type { Scope } from '../../ports/scope.js';
import type { ResolutionRecord } from '../../billing/ports/resolutions.js';
import { billableWhere } from '../billable-index.js';
import type { SqlDriver } from '../driver.js';
import { sql } from '../sql.js';
import { SqlTable } from '../table.js';
import { CONVERSATIONS, MESSAGES, RESOLUTIONS } from '../tables.js';

/** The conversation retention purge on any SQL store: messages first, then their conversations. */
export class SqlRetention implements RetentionStore {
  private readonly conversations: SqlTable<ConversationRecord>;
  private readonly messages: SqlTable<MessageRecord>;
  private readonly resolutions: SqlTable<ResolutionRecord>;

  constructor(driver: SqlDriver) {
    this.conversations = new SqlTable(driver, CONVERSATIONS);
    this.messages = new SqlTable(driver, MESSAGES);
    this.resolutions = new SqlTable(driver, RESOLUTIONS);
  }

  async purgeIdleConversations(scope: Scope, before: string, limit: number) {
    const c = this.conversations;
    // Idle since `before`, and not a resolution the detector has still to count: billing keeps
    // its record (the resolution row: ids and period, no text) and nothing else.
    const billable = sql.raw(billableWhere(c.driver));
    const expired = sql`SELECT id FROM ${c.ref} WHERE tenant_id = ${scope.tenantId} AND workspace_id = ${scope.workspaceId} AND last_message_at < ${c.value('lastMessageAt', before)} AND NOT (${billable} AND NOT EXISTS (SELECT 1 FROM ${this.resolutions.ref} r WHERE r.conversation_id = ${c.ref}.id))`;
    const messages = await this.messages.run(sql`DELETE FROM ${this.messages.ref} WHERE id IN (SELECT id FROM ${this.messages.ref} WHERE conversation_id IN (${expired}) LIMIT ${limit})`);
    if (messages >= limit) return { messages, conversations: 0 };
    const conversations = await c.run(sql`DELETE FROM ${c.ref} WHERE id IN (${expired} LIMIT ${limit - messages})`);
    return { messages, conversations };
  }
}
