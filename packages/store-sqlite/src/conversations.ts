import type { ConversationRecord, ConversationStore, MessageRecord, Scope } from '@panya/core';
import { translateError, type Db, type Runner, type Statements } from './database.js';

type Row = Record<string, unknown>;

const toConversation = (r: Row): ConversationRecord => ({
  id: r.id as string,
  tenantId: r.tenant_id as string,
  workspaceId: r.workspace_id as string,
  locale: r.locale as 'th' | 'en',
  hasGroundedAnswer: r.has_grounded_answer === 1,
  hasThumbsDown: r.has_thumbs_down === 1,
  handedOff: r.handed_off === 1,
  createdAt: r.created_at as string,
  lastMessageAt: r.last_message_at as string,
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
});

export class SqliteConversations implements ConversationStore {
  constructor(private readonly db: Db, private readonly sql: Statements, private readonly run: Runner) {}

  insert(c: ConversationRecord) {
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

  appendMessage(scope: Scope, m: MessageRecord) {
    return this.run(() =>
      this.db.transaction(() => {
        const updated = this.sql
          .get('UPDATE conversations SET last_message_at = @at, has_grounded_answer = MAX(has_grounded_answer, @grounded) WHERE tenant_id = @tenantId AND workspace_id = @workspaceId AND id = @id')
          .run({ ...scope, id: m.conversationId, at: m.createdAt, grounded: m.grounded ? 1 : 0 });
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
