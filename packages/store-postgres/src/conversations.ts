import type { ConversationFilter, ConversationRecord, ConversationStore, MessageFeedback, MessageRecord, NewConversation, NewMessage, Scope } from '@panya/core';
import { iso, isoOrNull, json, type Conn, type Names, type Row } from './database.js';

export const toConversation = (r: Row): ConversationRecord => ({
  id: r.id as string,
  tenantId: r.tenant_id as string,
  workspaceId: r.workspace_id as string,
  locale: r.locale as 'th' | 'en',
  hasGroundedAnswer: r.has_grounded_answer === true,
  hasThumbsDown: r.has_thumbs_down === true,
  handedOff: r.handed_off === true,
  createdAt: iso(r.created_at),
  lastMessageAt: iso(r.last_message_at),
  hasUngroundedAnswer: r.has_ungrounded_answer === true,
  visitorId: (r.visitor_id as string | null) ?? null,
  csat: r.csat_score === null ? null : { score: r.csat_score as number, comment: (r.csat_comment as string | null) ?? null, at: iso(r.csat_at) },
  tags: json(r.tags),
});

const toMessage = (r: Row): MessageRecord => ({
  id: r.id as string,
  conversationId: r.conversation_id as string,
  tenantId: r.tenant_id as string,
  workspaceId: r.workspace_id as string,
  role: r.role as 'user' | 'assistant',
  content: r.content as string,
  citations: json(r.citations),
  grounded: (r.grounded as boolean | null) ?? null,
  createdAt: iso(r.created_at),
  feedback: r.feedback_rating === null ? null : { rating: r.feedback_rating as MessageFeedback['rating'], comment: (r.feedback_comment as string | null) ?? null, at: isoOrNull(r.feedback_at)! },
});


/** The tag set after a change ($1 added, $2 removed), sorted: one expression, so the update is atomic. */
const MERGED_TAGS = `(SELECT coalesce(jsonb_agg(v ORDER BY v), '[]'::jsonb) FROM (
  SELECT jsonb_array_elements_text(tags) AS v UNION SELECT jsonb_array_elements_text($1::jsonb)) s
  WHERE v NOT IN (SELECT jsonb_array_elements_text($2::jsonb)))`;

export class PgConversations implements ConversationStore {
  constructor(private readonly db: Conn, private readonly n: Names) {}

  async insert(c: NewConversation) {
    await this.db.query(
      `INSERT INTO ${this.n.t('conversations')} (id, tenant_id, workspace_id, locale, has_grounded_answer, has_thumbs_down, handed_off, created_at, last_message_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [c.id, c.tenantId, c.workspaceId, c.locale, c.hasGroundedAnswer, c.hasThumbsDown, c.handedOff, c.createdAt, c.lastMessageAt],
    );
  }

  async get(scope: Scope, id: string) {
    const { rows } = await this.db.query(`SELECT * FROM ${this.n.t('conversations')} WHERE tenant_id = $1 AND workspace_id = $2 AND id = $3`, [scope.tenantId, scope.workspaceId, id]);
    return rows[0] ? toConversation(rows[0]) : null;
  }

  appendMessage(scope: Scope, m: NewMessage) {
    return this.db.atomic(async (tx) => {
      const updated = await tx.query(
        `UPDATE ${this.n.t('conversations')} SET last_message_at = $1, has_grounded_answer = has_grounded_answer OR $2, has_ungrounded_answer = has_ungrounded_answer OR $6
         WHERE tenant_id = $3 AND workspace_id = $4 AND id = $5`,
        [m.createdAt, m.grounded === true, scope.tenantId, scope.workspaceId, m.conversationId, m.grounded === false],
      );
      if (updated.rowCount === 0) throw new Error(`Conversation ${m.conversationId} not found in this workspace.`);
      await tx.query(
        `INSERT INTO ${this.n.t('messages')} (id, conversation_id, tenant_id, workspace_id, role, content, citations, grounded, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [m.id, m.conversationId, scope.tenantId, scope.workspaceId, m.role, m.content, JSON.stringify(m.citations), m.grounded, m.createdAt],
      );
    });
  }

  async messages(scope: Scope, conversationId: string, limit: number) {
    const { rows } = await this.db.query(
      `SELECT * FROM (SELECT * FROM ${this.n.t('messages')} WHERE tenant_id = $1 AND workspace_id = $2 AND conversation_id = $3 ORDER BY id DESC LIMIT $4) m ORDER BY id`,
      [scope.tenantId, scope.workspaceId, conversationId, limit],
    );
    return rows.map(toMessage);
  }

  async list(scope: Scope, filter: ConversationFilter, { after, limit }: { after?: string; limit: number }) {
    const { rows } = await this.db.query(
      `SELECT * FROM ${this.n.t('conversations')} WHERE tenant_id = $1 AND workspace_id = $2
         AND ($3::text IS NULL OR id < $3) AND ($4::boolean IS NULL OR handed_off = $4)
         AND ($5::timestamptz IS NULL OR last_message_at >= $5) AND ($6::text IS NULL OR tags ? $6)
         AND ($8::text IS NULL OR visitor_id = $8)
       ORDER BY id DESC LIMIT $7`,
      [scope.tenantId, scope.workspaceId, after ?? null, filter.handedOff ?? null, filter.since ?? null, filter.tag ?? null, limit + 1, filter.visitorId ?? null],
    );
    const items = rows.slice(0, limit).map(toConversation);
    return { items, nextCursor: rows.length > limit ? (items.at(-1)?.id ?? null) : null };
  }

  async messagesAfter(scope: Scope, conversationId: string, { after, limit }: { after?: string; limit: number }) {
    const { rows } = await this.db.query(
      `SELECT * FROM ${this.n.t('messages')} WHERE tenant_id = $1 AND workspace_id = $2 AND conversation_id = $3 AND ($4::text IS NULL OR id > $4) ORDER BY id LIMIT $5`,
      [scope.tenantId, scope.workspaceId, conversationId, after ?? null, limit + 1],
    );
    const items = rows.slice(0, limit).map(toMessage);
    return { items, nextCursor: rows.length > limit ? (items.at(-1)?.id ?? null) : null };
  }

  async getMessage(scope: Scope, id: string) {
    const { rows } = await this.db.query(`SELECT * FROM ${this.n.t('messages')} WHERE tenant_id = $1 AND workspace_id = $2 AND id = $3`, [scope.tenantId, scope.workspaceId, id]);
    return rows[0] ? toMessage(rows[0]) : null;
  }

  async setFeedback(scope: Scope, messageId: string, feedback: MessageFeedback) {
    const { rows } = await this.db.query(
      `UPDATE ${this.n.t('messages')} SET feedback_rating = $1, feedback_comment = $2, feedback_at = $3 WHERE tenant_id = $4 AND workspace_id = $5 AND id = $6 RETURNING *`,
      [feedback.rating, feedback.comment, feedback.at, scope.tenantId, scope.workspaceId, messageId],
    );
    return rows[0] ? toMessage(rows[0]) : null;
  }


  setCsat(scope: Scope, id: string, csat: NonNullable<ConversationRecord['csat']>) {
    return this.updateOne(scope, id, 'csat_score = $4, csat_comment = $5, csat_at = $6', [csat.score, csat.comment, csat.at]);
  }

  setVisitor(scope: Scope, id: string, visitorId: string) {
    return this.updateOne(scope, id, 'visitor_id = $4', [visitorId]);
  }

  async updateTags(scope: Scope, id: string, change: { add: readonly string[]; remove: readonly string[] }, max: number) {
    const { rows } = await this.db.query(
      `UPDATE ${this.n.t('conversations')} SET tags = ${MERGED_TAGS}
       WHERE tenant_id = $3 AND workspace_id = $4 AND id = $5 AND jsonb_array_length(${MERGED_TAGS}) <= $6 RETURNING *`,
      [JSON.stringify(change.add), JSON.stringify(change.remove), scope.tenantId, scope.workspaceId, id, max],
    );
    if (rows[0]) return toConversation(rows[0]);
    return (await this.get(scope, id)) ? ('too_many' as const) : null;
  }

  private async updateOne(scope: Scope, id: string, sets: string, values: unknown[]) {
    const { rows } = await this.db.query(`UPDATE ${this.n.t('conversations')} SET ${sets} WHERE tenant_id = $1 AND workspace_id = $2 AND id = $3 RETURNING *`, [scope.tenantId, scope.workspaceId, id, ...values]);
    return rows[0] ? toConversation(rows[0]) : null;
  }

  async countBillable(tenantId: string, period: { start: string; end: string }, idleBefore?: string) {
    const { rows } = await this.db.query(
      `SELECT count(*)::int AS n FROM ${this.n.t('conversations')}
       WHERE tenant_id = $1 AND has_grounded_answer AND NOT has_thumbs_down AND NOT handed_off
         AND last_message_at >= $2 AND last_message_at < $3 AND ($4::timestamptz IS NULL OR last_message_at <= $4)
         AND NOT EXISTS (SELECT 1 FROM ${this.n.t('resolutions')} r WHERE r.conversation_id = ${this.n.t('conversations')}.id)`,
      [tenantId, period.start, period.end, idleBefore ?? null],
    );
    return rows[0]!.n as number;
  }
}
