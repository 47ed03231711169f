import type { ConversationFilter, ConversationRecord, ConversationStore, MessageFeedback, MessageRecord, NewConversation, NewMessage, Scope } from '@panya/core';
import { BILLABLE_CONVERSATION, tables } from '@panya/core/rows';
import type { Db, Runner, Statements } from './database.js';
import { page, Table } from './rows.js';

type Row = Record<string, unknown>;

/** The tag set after a change, as a sorted JSON array (one expression, so the update is atomic). */
const MERGED_TAGS = `(SELECT json_group_array(value) FROM (
  SELECT value FROM json_each(conversations.tags) WHERE value NOT IN (SELECT value FROM json_each(@remove))
  UNION SELECT value FROM json_each(@add) WHERE value NOT IN (SELECT value FROM json_each(@remove))
  ORDER BY value))`;

export class SqliteConversations implements ConversationStore {
  private readonly conversations: Table<ConversationRecord>;
  private readonly messageRows: Table<MessageRecord>;

  constructor(private readonly db: Db, private readonly sql: Statements, private readonly run: Runner) {
    this.conversations = new Table(sql, tables.CONVERSATIONS);
    this.messageRows = new Table(sql, tables.MESSAGES);
  }

  insert(c: NewConversation) {
    return this.run(() => void this.conversations.insert(c));
  }

  get(scope: Scope, id: string) {
    return this.run(() => this.conversations.get(scope, id));
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
        this.messageRows.insert({ ...m, tenantId: scope.tenantId, workspaceId: scope.workspaceId });
      })(),
    );
  }

  messages(scope: Scope, conversationId: string, limit: number) {
    return this.run(() =>
      this.messageRows.all('SELECT * FROM (SELECT * FROM messages WHERE tenant_id = ? AND workspace_id = ? AND conversation_id = ? ORDER BY id DESC LIMIT ?) ORDER BY id', scope.tenantId, scope.workspaceId, conversationId, limit),
    );
  }

  list(scope: Scope, filter: ConversationFilter, { after, limit }: { after?: string; limit: number }) {
    return this.run(() => {
      const rows = this.conversations.all(
          `SELECT * FROM conversations WHERE tenant_id = @tenantId AND workspace_id = @workspaceId
             AND (@after IS NULL OR id < @after) AND (@handedOff IS NULL OR handed_off = @handedOff)
             AND (@since IS NULL OR last_message_at >= @since) AND (@visitorId IS NULL OR visitor_id = @visitorId)
             AND (@tag IS NULL OR EXISTS (SELECT 1 FROM json_each(conversations.tags) WHERE value = @tag))
           ORDER BY id DESC LIMIT @limit`,
        { ...scope, after: after ?? null, handedOff: filter.handedOff === undefined ? null : filter.handedOff ? 1 : 0, since: filter.since ?? null, tag: filter.tag ?? null, visitorId: filter.visitorId ?? null, limit: limit + 1 },
      );
      return page(rows, limit);
    });
  }

  messagesAfter(scope: Scope, conversationId: string, { after, limit }: { after?: string; limit: number }) {
    return this.run(() =>
      page(
        this.messageRows.all(
          'SELECT * FROM messages WHERE tenant_id = @tenantId AND workspace_id = @workspaceId AND conversation_id = @conversationId AND (@after IS NULL OR id > @after) ORDER BY id LIMIT @limit',
          { ...scope, conversationId, after: after ?? null, limit: limit + 1 },
        ),
        limit,
      ),
    );
  }

  getMessage(scope: Scope, id: string) {
    return this.run(() => this.messageRows.get(scope, id));
  }

  setFeedback(scope: Scope, messageId: string, feedback: MessageFeedback) {
    return this.run(() => this.messageRows.update({ feedback }, 'tenant_id = ? AND workspace_id = ? AND id = ?', scope.tenantId, scope.workspaceId, messageId));
  }

  setCsat(scope: Scope, id: string, csat: NonNullable<ConversationRecord['csat']>) {
    return this.updateOne(scope, id, { csat });
  }

  setVisitor(scope: Scope, id: string, visitorId: string) {
    return this.updateOne(scope, id, { visitorId });
  }

  updateTags(scope: Scope, id: string, change: { add: readonly string[]; remove: readonly string[] }, max: number) {
    return this.run(() => {
      const params = { ...scope, id, add: JSON.stringify(change.add), remove: JSON.stringify(change.remove), max };
      const row = this.conversations.one(`UPDATE conversations SET tags = ${MERGED_TAGS} WHERE tenant_id = @tenantId AND workspace_id = @workspaceId AND id = @id AND json_array_length(${MERGED_TAGS}) <= @max RETURNING *`, params);
      if (row) return row;
      const exists = this.sql.get('SELECT 1 FROM conversations WHERE tenant_id = ? AND workspace_id = ? AND id = ?').get(scope.tenantId, scope.workspaceId, id);
      return exists ? ('too_many' as const) : null;
    });
  }

  private updateOne(scope: Scope, id: string, patch: Partial<ConversationRecord>) {
    return this.run(() => this.conversations.update(patch, 'tenant_id = ? AND workspace_id = ? AND id = ?', scope.tenantId, scope.workspaceId, id));
  }

  countBillable(tenantId: string, period: { start: string; end: string }, idleBefore?: string) {
    return this.run(
      () =>
        (
          this.sql
            .get(
              `SELECT COUNT(*) AS n FROM conversations
               WHERE tenant_id = @tenantId AND ${this.conversations.codec.where(BILLABLE_CONVERSATION)}
                 AND last_message_at >= @start AND last_message_at < @end AND (@idleBefore IS NULL OR last_message_at <= @idleBefore)
                 AND NOT EXISTS (SELECT 1 FROM resolutions r WHERE r.conversation_id = conversations.id)`,
            )
            .get({ tenantId, start: period.start, end: period.end, idleBefore: idleBefore ?? null }) as Row
        ).n as number,
    );
  }
}
