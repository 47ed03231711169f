import type {
  InboxItem,
  InboxReason,
  InboxStore,
  Scope,
  TicketPriority,
  VisitorRecord,
  VisitorStore,
} from '@panya/core';
import { tables } from '@panya/core/rows';
import type { Db, Runner, Statements } from './database.js';
import { page, Table } from './rows.js';

type Row = Record<string, unknown>;
type PageOptions = { after?: string; limit: number };

export class SqliteVisitors implements VisitorStore {
  private readonly rows: Table<VisitorRecord>;

  constructor(private readonly db: Db, private readonly sql: Statements, private readonly run: Runner) {
    this.rows = new Table(sql, tables.VISITORS);
  }

  insert(v: VisitorRecord) {
    return this.run(() => void this.rows.insert(v));
  }

  get(scope: Scope, id: string) {
    return this.run(() => this.rows.get(scope, id));
  }

  findByEmail(scope: Scope, email: string) {
    return this.run(() => this.rows.one('SELECT * FROM visitors WHERE tenant_id = ? AND workspace_id = ? AND email = ?', scope.tenantId, scope.workspaceId, email));
  }

  list(scope: Scope, { email, ...options }: PageOptions & { email?: string }) {
    return this.run(() => this.rows.list(scope, options, { email }));
  }

  update(scope: Scope, id: string, patch: { name?: string | null; email?: string | null; updatedAt: string }) {
    return this.run(() => this.rows.patch(scope, id, patch));
  }

  listByDomain(scope: Scope, domain: string, limit: number) {
    // The same expression as the visitors_domain index.
    return this.run(() =>
      this.rows.all(
        "SELECT * FROM visitors WHERE tenant_id = ? AND workspace_id = ? AND substr(email, instr(email, '@') + 1) = ? ORDER BY id DESC LIMIT ?",
        scope.tenantId,
        scope.workspaceId,
        domain,
        limit,
      ),
    );
  }

  merge(scope: Scope, from: string, into: string) {
    return this.run(() =>
      this.db.transaction(() => {
        const both = this.sql.get('SELECT COUNT(*) AS n FROM visitors WHERE tenant_id = ? AND workspace_id = ? AND id IN (?, ?)').get(scope.tenantId, scope.workspaceId, from, into) as Row;
        if (from === into || both.n !== 2) throw new Error('Both visitors must exist in this workspace.');
        for (const table of ['conversations', 'tickets']) {
          this.sql.get(`UPDATE ${table} SET visitor_id = ? WHERE tenant_id = ? AND workspace_id = ? AND visitor_id = ?`).run(into, scope.tenantId, scope.workspaceId, from);
        }
        this.sql.get('DELETE FROM visitors WHERE tenant_id = ? AND workspace_id = ? AND id = ?').run(scope.tenantId, scope.workspaceId, from);
      })(),
    );
  }
}

/** Each inbox source: its rows as the same named columns, and the column it is ordered by. */
const INBOX_SOURCES: Record<InboxReason, { select: string; at: string }> = {
  sla_breach: {
    at: 'breached_at',
    select: `SELECT 'sla_breach' AS reason, 'ticket' AS kind, id, conversation_id, id AS ticket_id, subject AS title, priority, breached_at AS at
      FROM tickets WHERE tenant_id = @tenantId AND workspace_id = @workspaceId AND status = 'open' AND breached_at IS NOT NULL`,
  },
  open_ticket: {
    at: 'created_at',
    select: `SELECT 'open_ticket' AS reason, 'ticket' AS kind, id, conversation_id, id AS ticket_id, subject AS title, priority, created_at AS at
      FROM tickets WHERE tenant_id = @tenantId AND workspace_id = @workspaceId AND status = 'open' AND breached_at IS NULL`,
  },
  thumbs_down: {
    at: 'last_message_at',
    select: `SELECT 'thumbs_down' AS reason, 'conversation' AS kind, id, id AS conversation_id, NULL AS ticket_id, ${firstQuestion('conversations.id')} AS title, NULL AS priority, last_message_at AS at
      FROM conversations WHERE tenant_id = @tenantId AND workspace_id = @workspaceId AND handed_off = 0 AND has_thumbs_down = 1`,
  },
  ungrounded: {
    at: 'last_message_at',
    select: `SELECT 'ungrounded' AS reason, 'conversation' AS kind, id, id AS conversation_id, NULL AS ticket_id, ${firstQuestion('conversations.id')} AS title, NULL AS priority, last_message_at AS at
      FROM conversations WHERE tenant_id = @tenantId AND workspace_id = @workspaceId AND handed_off = 0 AND has_thumbs_down = 0 AND has_ungrounded_answer = 1`,
  },
};

/** One source's next page on its own (cursor and limit pushed down), so a page costs a few index walks however long the history. */
function inboxPage(reason: InboxReason): string {
  const { select, at } = INBOX_SOURCES[reason];
  return `SELECT * FROM (${select} AND (@afterAt IS NULL OR ${at} < @afterAt OR (${at} = @afterAt AND id < @afterId)) ORDER BY ${at} DESC, id DESC LIMIT @limit)`;
}

function firstQuestion(conversationId: string): string {
  return `coalesce((SELECT substr(content, 1, 200) FROM messages m WHERE m.conversation_id = ${conversationId} AND m.role = 'user' ORDER BY m.id LIMIT 1), '')`;
}

export class SqliteInbox implements InboxStore {
  constructor(private readonly sql: Statements, private readonly run: Runner) {}

  list(scope: Scope, filter: { reasons: readonly InboxReason[] }, { after, limit }: { after?: { at: string; id: string }; limit: number }) {
    return this.run(() => {
      const union = filter.reasons.map(inboxPage).join(' UNION ALL ');
      const rows = this.sql
        .get(`SELECT * FROM (${union}) ORDER BY at DESC, id DESC LIMIT @limit`)
        .all({ ...scope, afterAt: after?.at ?? null, afterId: after?.id ?? null, limit: limit + 1 }) as Row[];
      const items: InboxItem[] = rows.slice(0, limit).map((r) => ({
        reason: r.reason as InboxReason,
        kind: r.kind as InboxItem['kind'],
        id: r.id as string,
        conversationId: (r.conversation_id as string | null) ?? null,
        ticketId: (r.ticket_id as string | null) ?? null,
        title: r.title as string,
        priority: (r.priority as TicketPriority | null) ?? null,
        at: r.at as string,
      }));
      return { items, nextCursor: rows.length > limit ? (items.at(-1)?.id ?? null) : null };
    });
  }
}
