import type { ConversationFilter, ConversationRecord, ConversationStore, MessageFeedback, MessageRecord, NewConversation, NewMessage, Scope } from '@panya/core';
import { translateError, type Db, type Runner, type Statements } from './database.js';

type Row = Record<string, unknown>;

export const toConversation = (r: Row): ConversationRecord => ({
  id: r.id as string,
  tenantId: r.tenant_id as string,
  workspaceId: r.workspace_id as string,
  locale: r.locale as 'th' | 'en',
  hasGroundedAnswer: r.has_grounded_answer === 1,
  hasThumbsDown: r.has_thumbs_down === 1,
  handedOff: r.handed_off === 1,
  createdAt: r.created_at as string,
  lastMessageAt: r.last_message_at as string,
  hasUngroundedAnswer: r.has_ungrounded_answer === 1,
  visitorId: (r.visitor_id as string | null) ?? null,
  csat: r.csat_score === null ? null : { score: r.csat_score as number, comment: (r.csat_comment as string | null) ?? null, at: r.csat_at as string },
  tags: JSON.parse(r.tags as string),
});

const toMessage = (r: Row): MessageRecord => ({
  id: r.id as string,
  conversationId: r.conversation_id as string,
  tenantId: r.tenant_id as string,
  workspaceId: r.workspace_id as string,
  role: r.role as 'user' | 'assistant',
  content: r.content as string,
  citations: JSON.parse(r.citations as string),
  grounded: r.grounded === null ? null : r.grounded === 1,
  createdAt: r.created_at as string,
  feedback: r.feedback_rating === null ? null : { rating: r.feedback_rating as MessageFeedback['rating'], comment: (r.feedback_comment as string | null) ?? null, at: r.feedback_at as string },
});


/** The tag set after a change, as a sorted JSON array (one expression, so the update is atomic). */
const MERGED_TAGS = `(SELECT json_group_array(value) FROM (
  SELECT value FROM json_each(conversations.tags) WHERE value NOT IN (SELECT value FROM json_each(@remove))
  UNION SELECT value FROM json_each(@add) WHERE value NOT IN (SELECT value FROM json_each(@remove))
  ORDER BY value))`;

export class SqliteConversations implements ConversationStore {
  constructor(private readonly db: Db, private readonly sql: Statements, private readonly run: Runner) {}

  insert(c: NewConversation) {
    return this.run(() => {
      try {
        this.sql
          .get('INSERT INTO conversations (id, tenant_id, workspace_id, locale, has_grounded_answer, has_thumbs_down, handed_off, created_at, last_message_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
          .run(c.id, c.tenantId, c.workspaceId, c.locale, c.hasGroundedAnswer ? 1 : 0, c.hasThumbsDown ? 1 : 0, c.handedOff ? 1 : 0, c.createdAt, c.lastMessageAt);
      } catch (error) {
        translateError(error);
      }
    });
  }

  get(scope: Scope, id: string) {
    return this.run(() => {
      const row = this.sql.get('SELECT * FROM conversations WHERE tenant_id = ? AND workspace_id = ? AND id = ?').get(scope.tenantId, scope.workspaceId, id) as Row | undefined;
      return row ? toConversation(row) : null;
    });
  }

  appendMessage(scope: Scope, m: NewMessage) {
    return this.run(() =>
      this.db.transaction(() => {
        const updated = this.sql
          .get(`UPDATE conversations SET last_message_at = @at, has_grounded_answer = MAX(has_grounded_answer, @grounded), has_ungrounded_answer = MAX(has_ungrounded_answer, @ungrounded)
             WHERE tenant_id = @tenantId AND workspace_id = @workspaceId AND id = @id`,
          )
          .run({ ...scope, id: m.conversationId, at: m.createdAt, grounded: m.grounded ? 1 : 0, ungrounded: m.grounded === false ? 1 : 0 });
        if (updated.changes === 0) throw new Error(`Conversation ${m.conversationId} not found in this workspace.`);
        this.sql
          .get('INSERT INTO messages (id, conversation_id, tenant_id, workspace_id, role, content, citations, grounded, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
          .run(m.id, m.conversationId, scope.tenantId, scope.workspaceId, m.role, m.content, JSON.stringify(m.citations), m.grounded === null ? null : m.grounded ? 1 : 0, m.createdAt);
      })(),
    );
  }

  messages(scope: Scope, conversationId: string, limit: number) {
    return this.run(() =>
      (
        this.sql
          .get('SELECT * FROM (SELECT * FROM messages WHERE tenant_id = ? AND workspace_id = ? AND conversation_id = ? ORDER BY id DESC LIMIT ?) ORDER BY id')
          .all(scope.tenantId, scope.workspaceId, conversationId, limit) as Row[]
      ).map(toMessage),
    );
  }

  list(scope: Scope, filter: ConversationFilter, { after, limit }: { after?: string; limit: number }) {
    return this.run(() => {
      const rows = this.sql
        .get(
          `SELECT * FROM conversations WHERE tenant_id = @tenantId AND workspace_id = @workspaceId
             AND (@after IS NULL OR id < @after) AND (@handedOff IS NULL OR handed_off = @handedOff)
             AND (@since IS NULL OR last_message_at >= @since) AND (@visitorId IS NULL OR visitor_id = @visitorId)
             AND (@tag IS NULL OR EXISTS (SELECT 1 FROM json_each(conversations.tags) WHERE value = @tag))
           ORDER BY id DESC LIMIT @limit`,
        )
        .all({ ...scope, after: after ?? null, handedOff: filter.handedOff === undefined ? null : filter.handedOff ? 1 : 0, since: filter.since ?? null, tag: filter.tag ?? null, visitorId: filter.visitorId ?? null, limit: limit + 1 }) as Row[];
      const items = rows.slice(0, limit).map(toConversation);
      return { items, nextCursor: rows.length > limit ? (items.at(-1)?.id ?? null) : null };
    });
  }

  messagesAfter(scope: Scope, conversationId: string, { after, limit }: { after?: string; limit: number }) {
    return this.run(() => {
      const rows = this.sql
        .get('SELECT * FROM messages WHERE tenant_id = @tenantId AND workspace_id = @workspaceId AND conversation_id = @conversationId AND (@after IS NULL OR id > @after) ORDER BY id LIMIT @limit')
        .all({ ...scope, conversationId, after: after ?? null, limit: limit + 1 }) as Row[];
      const items = rows.slice(0, limit).map(toMessage);
      return { items, nextCursor: rows.length > limit ? (items.at(-1)?.id ?? null) : null };
    });
  }

  getMessage(scope: Scope, id: string) {
    return this.run(() => {
      const row = this.sql.get('SELECT * FROM messages WHERE tenant_id = ? AND workspace_id = ? AND id = ?').get(scope.tenantId, scope.workspaceId, id) as Row | undefined;
      return row ? toMessage(row) : null;
    });
  }

  setFeedback(scope: Scope, messageId: string, feedback: MessageFeedback) {
    return this.run(() => {
      const row = this.sql
        .get('UPDATE messages SET feedback_rating = ?, feedback_comment = ?, feedback_at = ? WHERE tenant_id = ? AND workspace_id = ? AND id = ? RETURNING *')
        .get(feedback.rating, feedback.comment, feedback.at, scope.tenantId, scope.workspaceId, messageId) as Row | undefined;
      return row ? toMessage(row) : null;
    });
  }


  setCsat(scope: Scope, id: string, csat: NonNullable<ConversationRecord['csat']>) {
    return this.updateOne(scope, id, 'csat_score = @score, csat_comment = @comment, csat_at = @at', csat);
  }

  setVisitor(scope: Scope, id: string, visitorId: string) {
    return this.updateOne(scope, id, 'visitor_id = @visitorId', { visitorId });
  }

  updateTags(scope: Scope, id: string, change: { add: readonly string[]; remove: readonly string[] }, max: number) {
    return this.run(() => {
      const params = { ...scope, id, add: JSON.stringify(change.add), remove: JSON.stringify(change.remove), max };
      const row = this.sql
        .get(`UPDATE conversations SET tags = ${MERGED_TAGS} WHERE tenant_id = @tenantId AND workspace_id = @workspaceId AND id = @id AND json_array_length(${MERGED_TAGS}) <= @max RETURNING *`)
        .get(params) as Row | undefined;
      if (row) return toConversation(row);
      const exists = this.sql.get('SELECT 1 FROM conversations WHERE tenant_id = ? AND workspace_id = ? AND id = ?').get(scope.tenantId, scope.workspaceId, id);
      return exists ? ('too_many' as const) : null;
    });
  }

  private updateOne(scope: Scope, id: string, sets: string, values: Record<string, unknown>) {
    return this.run(() => {
      const row = this.sql
        .get(`UPDATE conversations SET ${sets} WHERE tenant_id = @tenantId AND workspace_id = @workspaceId AND id = @id RETURNING *`)
        .get({ ...values, ...scope, id }) as Row | undefined;
      return row ? toConversation(row) : null;
    });
  }

  countBillable(tenantId: string, period: { start: string; end: string }, idleBefore?: string) {
    return this.run(
      () =>
        (
          this.sql
            .get(
              `SELECT COUNT(*) AS n FROM conversations
               WHERE tenant_id = @tenantId AND has_grounded_answer = 1 AND has_thumbs_down = 0 AND handed_off = 0
                 AND last_message_at >= @start AND last_message_at < @end AND (@idleBefore IS NULL OR last_message_at <= @idleBefore)
                 AND NOT EXISTS (SELECT 1 FROM resolutions r WHERE r.conversation_id = conversations.id)`,
            )
            .get({ tenantId, start: period.start, end: period.end, idleBefore: idleBefore ?? null }) as Row
        ).n as number,
    );
  }
}
