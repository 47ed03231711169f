import type { ConversationRecord, ConversationStore, MessageRecord, Scope } from '@panya/core';
import { iso, json, type Conn, type Names, type Row } from './database.js';

const toConversation = (r: Row): ConversationRecord => ({
  id: r.id as string,
  tenantId: r.tenant_id as string,
  workspaceId: r.workspace_id as string,
  locale: r.locale as 'th' | 'en',
  hasGroundedAnswer: r.has_grounded_answer === true,
  hasThumbsDown: r.has_thumbs_down === true,
  handedOff: r.handed_off === true,
  createdAt: iso(r.created_at),
  lastMessageAt: iso(r.last_message_at),
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
});

export class PgConversations implements ConversationStore {
  constructor(private readonly db: Conn, private readonly n: Names) {}

  async insert(c: ConversationRecord) {
    await this.db.query(
      `INSERT INTO ${this.n.t('conversations')} (id, tenant_id, workspace_id, locale, has_grounded_answer, has_thumbs_down, handed_off, created_at, last_message_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [c.id, c.tenantId, c.workspaceId, c.locale, c.hasGroundedAnswer, c.hasThumbsDown, c.handedOff, c.createdAt, c.lastMessageAt],
    );
  }

  async get(scope: Scope, id: string) {
    const { rows } = await this.db.query(`SELECT * FROM ${this.n.t('conversations')} WHERE tenant_id = $1 AND workspace_id = $2 AND id = $3`, [scope.tenantId, scope.workspaceId, id]);
    return rows[0] ? toConversation(rows[0]) : null;
  }

  appendMessage(scope: Scope, m: MessageRecord) {
    return this.db.atomic(async (tx) => {
      const updated = await tx.query(
        `UPDATE ${this.n.t('conversations')} SET last_message_at = $1, has_grounded_answer = has_grounded_answer OR $2
         WHERE tenant_id = $3 AND workspace_id = $4 AND id = $5`,
        [m.createdAt, m.grounded === true, scope.tenantId, scope.workspaceId, m.conversationId],
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
