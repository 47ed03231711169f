import type { ConversationFilter, ConversationRecord, ConversationStore, MessageFeedback, MessageRecord, NewConversation, NewMessage, Scope } from '@panya/core';
import { BILLABLE_CONVERSATION, tables } from '@panya/core/rows';
import type { Conn, Names } from './database.js';
import { page, Table } from './rows.js';

/** The tag set after a change ($1 added, $2 removed), sorted: one expression, so the update is atomic. */
const MERGED_TAGS = `(SELECT coalesce(jsonb_agg(v ORDER BY v), '[]'::jsonb) FROM (
  SELECT jsonb_array_elements_text(tags) AS v UNION SELECT jsonb_array_elements_text($1::jsonb)) s
  WHERE v NOT IN (SELECT jsonb_array_elements_text($2::jsonb)))`;

export class PgConversations implements ConversationStore {
  private readonly conversations: Table<ConversationRecord>;
  private readonly messageRows: Table<MessageRecord>;

  constructor(private readonly db: Conn, private readonly n: Names) {
    this.conversations = new Table(db, n, tables.CONVERSATIONS);
    this.messageRows = new Table(db, n, tables.MESSAGES);
  }

  async insert(c: NewConversation) {
    await this.conversations.insert(c);
  }

  get(scope: Scope, id: string) {
    return this.conversations.get(scope, id);
  }

  appendMessage(scope: Scope, m: NewMessage) {
    return this.db.atomic(async (tx) => {
      const updated = await tx.query(
        `UPDATE ${this.n.t('conversations')} SET last_message_at = $1, has_grounded_answer = has_grounded_answer OR $2, has_ungrounded_answer = has_ungrounded_answer OR $6
         WHERE tenant_id = $3 AND workspace_id = $4 AND id = $5`,
        [m.createdAt, m.grounded === true, scope.tenantId, scope.workspaceId, m.conversationId, m.grounded === false],
      );
      if (updated.rowCount === 0) throw new Error(`Conversation ${m.conversationId} not found in this workspace.`);
      await new Table(tx, this.n, tables.MESSAGES).insert({ ...m, tenantId: scope.tenantId, workspaceId: scope.workspaceId });
    });
  }

  messages(scope: Scope, conversationId: string, limit: number) {
    return this.messageRows.all(
      `SELECT * FROM (SELECT * FROM ${this.messageRows.name} WHERE tenant_id = $1 AND workspace_id = $2 AND conversation_id = $3 ORDER BY id DESC LIMIT $4) m ORDER BY id`,
      [scope.tenantId, scope.workspaceId, conversationId, limit],
    );
  }

  async list(scope: Scope, filter: ConversationFilter, { after, limit }: { after?: string; limit: number }) {
    const rows = await this.conversations.all(
      `SELECT * FROM ${this.n.t('conversations')} WHERE tenant_id = $1 AND workspace_id = $2
         AND ($3::text IS NULL OR id < $3) AND ($4::boolean IS NULL OR handed_off = $4)
         AND ($5::timestamptz IS NULL OR last_message_at >= $5) AND ($6::text IS NULL OR tags ? $6)
         AND ($8::text IS NULL OR visitor_id = $8)
       ORDER BY id DESC LIMIT $7`,
      [scope.tenantId, scope.workspaceId, after ?? null, filter.handedOff ?? null, filter.since ?? null, filter.tag ?? null, limit + 1, filter.visitorId ?? null],
    );
    return page(rows, limit);
  }

  async messagesAfter(scope: Scope, conversationId: string, { after, limit }: { after?: string; limit: number }) {
    const rows = await this.messageRows.all(
      `SELECT * FROM ${this.messageRows.name} WHERE tenant_id = $1 AND workspace_id = $2 AND conversation_id = $3 AND ($4::text IS NULL OR id > $4) ORDER BY id LIMIT $5`,
      [scope.tenantId, scope.workspaceId, conversationId, after ?? null, limit + 1],
    );
    return page(rows, limit);
  }

  getMessage(scope: Scope, id: string) {
    return this.messageRows.get(scope, id);
  }

  setFeedback(scope: Scope, messageId: string, feedback: MessageFeedback) {
    return this.messageRows.update({ feedback }, 'tenant_id = $1 AND workspace_id = $2 AND id = $3', [scope.tenantId, scope.workspaceId, messageId]);
  }

  setCsat(scope: Scope, id: string, csat: NonNullable<ConversationRecord['csat']>) {
    return this.updateOne(scope, id, { csat });
  }

  setVisitor(scope: Scope, id: string, visitorId: string) {
    return this.updateOne(scope, id, { visitorId });
  }

  async updateTags(scope: Scope, id: string, change: { add: readonly string[]; remove: readonly string[] }, max: number) {
    const row = await this.conversations.one(
      `UPDATE ${this.conversations.name} SET tags = ${MERGED_TAGS}
       WHERE tenant_id = $3 AND workspace_id = $4 AND id = $5 AND jsonb_array_length(${MERGED_TAGS}) <= $6 RETURNING *`,
      [JSON.stringify(change.add), JSON.stringify(change.remove), scope.tenantId, scope.workspaceId, id, max],
    );
    if (row) return row;
    return (await this.get(scope, id)) ? ('too_many' as const) : null;
  }

  private updateOne(scope: Scope, id: string, patch: Partial<ConversationRecord>) {
    return this.conversations.update(patch, 'tenant_id = $1 AND workspace_id = $2 AND id = $3', [scope.tenantId, scope.workspaceId, id]);
  }

  async countBillable(tenantId: string, period: { start: string; end: string }, idleBefore?: string) {
    const { rows } = await this.db.query(
      `SELECT count(*)::int AS n FROM ${this.n.t('conversations')}
       WHERE tenant_id = $1 AND ${this.conversations.codec.where(BILLABLE_CONVERSATION)}
         AND last_message_at >= $2 AND last_message_at < $3 AND ($4::timestamptz IS NULL OR last_message_at <= $4)
         AND NOT EXISTS (SELECT 1 FROM ${this.n.t('resolutions')} r WHERE r.conversation_id = ${this.n.t('conversations')}.id)`,
      [tenantId, period.start, period.end, idleBefore ?? null],
    );
    return rows[0]!.n as number;
  }
}
