import type { ConversationFilter, ConversationRecord, ConversationStore, MessageFeedback, MessageRecord, NewConversation, NewMessage } from '../../answers/ports/conversations.js';
import type { ResolutionRecord } from '../../billing/ports/resolutions.js';
import type { Scope } from '../../ports/scope.js';
import { billableWhere } from '../billable-index.js';
import { page } from '../codec.js';
import type { SqlDriver } from '../driver.js';
import { sql, type Sql } from '../sql.js';
import { SqlTable } from '../table.js';
import { CONVERSATIONS, MESSAGES, RESOLUTIONS } from '../tables.js';

type PageOptions = { after?: string; limit: number };

/** Sorted and distinct, as the record promises. */
function mergeTags(tags: readonly string[], change: { add: readonly string[]; remove: readonly string[] }): string[] {
  const removed = new Set(change.remove);
  return [...new Set([...tags, ...change.add])].filter((t) => !removed.has(t)).sort();
}

export class SqlConversations implements ConversationStore {
  private readonly conversations: SqlTable<ConversationRecord>;
  private readonly messageRows: SqlTable<MessageRecord>;
  private readonly resolutions: SqlTable<ResolutionRecord>;

  constructor(private readonly driver: SqlDriver) {
    this.conversations = new SqlTable(driver, CONVERSATIONS);
    this.messageRows = new SqlTable(driver, MESSAGES);
    this.resolutions = new SqlTable(driver, RESOLUTIONS);
  }

  private scoped(scope: Scope, id: string, alias = ''): Sql {
    const a = sql.raw(alias ? `${alias}.` : '');
    return sql`${a}tenant_id = ${scope.tenantId} AND ${a}workspace_id = ${scope.workspaceId} AND ${a}id = ${id}`;
  }

  async insert(c: NewConversation) {
    await this.conversations.insert(c);
  }

  get(scope: Scope, id: string) {
    return this.conversations.get(scope, id);
  }

  appendMessage(scope: Scope, m: NewMessage) {
    return this.driver.atomic(async (driver) => {
      const conversations = new SqlTable(driver, CONVERSATIONS);
      // A flag once set stays set: only a grounded (or ungrounded) answer writes its flag.
      const sets = [sql`last_message_at = ${conversations.value('lastMessageAt', m.createdAt)}`];
      if (m.grounded === true) sets.push(sql`has_grounded_answer = ${conversations.value('hasGroundedAnswer', true)}`);
      if (m.grounded === false) sets.push(sql`has_ungrounded_answer = ${conversations.value('hasUngroundedAnswer', true)}`);
      const updated = await conversations.run(sql`UPDATE ${conversations.ref} SET ${sql.join(sets, ', ')} WHERE ${this.scoped(scope, m.conversationId)}`);
      if (updated === 0) throw new Error(`Conversation ${m.conversationId} not found in this workspace.`);
      await new SqlTable(driver, MESSAGES).insert({ ...m, tenantId: scope.tenantId, workspaceId: scope.workspaceId });
    });
  }

  messages(scope: Scope, conversationId: string, limit: number) {
    const m = this.messageRows;
    return m.all(
      sql`SELECT * FROM (SELECT * FROM ${m.ref} WHERE tenant_id = ${scope.tenantId} AND workspace_id = ${scope.workspaceId} AND conversation_id = ${conversationId} ORDER BY id DESC LIMIT ${limit}) m ORDER BY id`,
    );
  }

  async list(scope: Scope, filter: ConversationFilter, { after, limit }: PageOptions) {
    const c = this.conversations;
    const where = [sql`tenant_id = ${scope.tenantId}`, sql`workspace_id = ${scope.workspaceId}`];
    if (after !== undefined) where.push(sql`id < ${after}`);
    if (filter.handedOff !== undefined) where.push(sql`handed_off = ${c.value('handedOff', filter.handedOff)}`);
    if (filter.since !== undefined) where.push(sql`last_message_at >= ${c.value('lastMessageAt', filter.since)}`);
    if (filter.visitorId !== undefined) where.push(sql`visitor_id = ${filter.visitorId}`);
    if (filter.tag !== undefined) where.push(sql.jsonArrayHas('tags', filter.tag));
    const rows = await c.all(sql`SELECT * FROM ${c.ref} WHERE ${sql.join(where, ' AND ')} ORDER BY id DESC LIMIT ${limit + 1}`);
    return page(rows, limit);
  }

  async messagesAfter(scope: Scope, conversationId: string, { after, limit }: PageOptions) {
    const m = this.messageRows;
    const cursor = after === undefined ? sql.empty : sql` AND id > ${after}`;
    const rows = await m.all(
      sql`SELECT * FROM ${m.ref} WHERE tenant_id = ${scope.tenantId} AND workspace_id = ${scope.workspaceId} AND conversation_id = ${conversationId}${cursor} ORDER BY id LIMIT ${limit + 1}`,
    );
    return page(rows, limit);
  }

  getMessage(scope: Scope, id: string) {
    return this.messageRows.get(scope, id);
  }

  setFeedback(scope: Scope, messageId: string, feedback: MessageFeedback) {
    return this.messageRows.patch(scope, messageId, { feedback });
  }

  setCsat(scope: Scope, id: string, csat: NonNullable<ConversationRecord['csat']>) {
    return this.conversations.patch(scope, id, { csat });
  }

  setVisitor(scope: Scope, id: string, visitorId: string) {
    return this.conversations.patch(scope, id, { visitorId });
  }

  updateTags(scope: Scope, id: string, change: { add: readonly string[]; remove: readonly string[] }, max: number) {
    // Read, merge and write under the row's lock (the store's write lock on SQLite): concurrent
    // changes apply one after the other and the cap holds for their sum.
    return this.driver.atomic(async (driver) => {
      const conversations = new SqlTable(driver, CONVERSATIONS);
      const current = await conversations.one(sql`SELECT * FROM ${conversations.ref} WHERE ${this.scoped(scope, id)}${sql.forUpdate}`);
      if (!current) return null;
      const tags = mergeTags(current.tags, change);
      if (tags.length > max) return 'too_many' as const;
      return conversations.patch(scope, id, { tags });
    });
  }

  countBillable(tenantId: string, period: { start: string; end: string }, idleBefore?: string) {
    const c = this.conversations;
    const idle = idleBefore === undefined ? sql.empty : sql` AND c.last_message_at <= ${c.value('lastMessageAt', idleBefore)}`;
    // Core's billable predicate in the dialect's literals, as the billable index states it (so it serves this count).
    return c.count(
      sql`SELECT COUNT(*) AS n FROM ${c.ref} c
          WHERE c.tenant_id = ${tenantId} AND ${sql.raw(billableWhere(this.driver, 'c'))}
            AND c.last_message_at >= ${period.start} AND c.last_message_at < ${period.end}${idle}
            AND NOT EXISTS (SELECT 1 FROM ${this.resolutions.ref} r WHERE r.conversation_id = c.id)`,
    );
  }
}
