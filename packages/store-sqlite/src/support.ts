import type {
  InboxItem,
  InboxReason,
  InboxStore,
  PersonaPatch,
  PersonaRecord,
  PersonaStore,
  Scope,
  TicketComment,
  TicketPatch,
  TicketPriority,
  TicketRecord,
  TicketStatus,
  TicketStore,
  VisitorRecord,
  VisitorStore,
} from '@panya/core';
import { translateError, type Db, type Runner, type Statements } from './database.js';

type Row = Record<string, unknown>;
type PageOptions = { after?: string; limit: number };

const toTicket = (r: Row): TicketRecord => ({
  id: r.id as string,
  tenantId: r.tenant_id as string,
  workspaceId: r.workspace_id as string,
  subject: r.subject as string,
  body: r.body as string,
  priority: r.priority as TicketPriority,
  status: r.status as TicketStatus,
  conversationId: (r.conversation_id as string | null) ?? null,
  visitorId: (r.visitor_id as string | null) ?? null,
  dueAt: r.due_at as string,
  breachedAt: (r.breached_at as string | null) ?? null,
  closedAt: (r.closed_at as string | null) ?? null,
  createdAt: r.created_at as string,
  updatedAt: r.updated_at as string,
});

const toComment = (r: Row): TicketComment => ({
  id: r.id as string,
  ticketId: r.ticket_id as string,
  tenantId: r.tenant_id as string,
  workspaceId: r.workspace_id as string,
  body: r.body as string,
  author: r.author as string,
  createdAt: r.created_at as string,
});

const toPersona = (r: Row): PersonaRecord => ({
  id: r.id as string,
  tenantId: r.tenant_id as string,
  workspaceId: r.workspace_id as string,
  name: r.name as string,
  tone: r.tone as string,
  instructions: r.instructions as string,
  locale: (r.locale as PersonaRecord['locale']) ?? null,
  createdAt: r.created_at as string,
  updatedAt: r.updated_at as string,
});

const toVisitor = (r: Row): VisitorRecord => ({
  id: r.id as string,
  tenantId: r.tenant_id as string,
  workspaceId: r.workspace_id as string,
  name: (r.name as string | null) ?? null,
  email: (r.email as string | null) ?? null,
  createdAt: r.created_at as string,
  updatedAt: r.updated_at as string,
});

function page<T>(rows: Row[], limit: number, map: (r: Row) => T & { id: string }) {
  const items = rows.slice(0, limit).map(map);
  return { items, nextCursor: rows.length > limit ? (items.at(-1)?.id ?? null) : null };
}

/** `SET a = @a, …` for the keys of a patch that are present, with snake_case columns. */
function sets(patch: Record<string, unknown>, columns: Record<string, string>): string {
  return Object.keys(columns)
    .filter((key) => patch[key] !== undefined)
    .map((key) => `${columns[key]} = @${key}`)
    .join(', ');
}

const TICKET_COLUMNS = { status: 'status', closedAt: 'closed_at', dueAt: 'due_at', breachedAt: 'breached_at', updatedAt: 'updated_at' };
const PERSONA_COLUMNS = { name: 'name', tone: 'tone', instructions: 'instructions', locale: 'locale', updatedAt: 'updated_at' };
const VISITOR_COLUMNS = { name: 'name', email: 'email', updatedAt: 'updated_at' };

export class SqliteTickets implements TicketStore {
  constructor(private readonly sql: Statements, private readonly run: Runner) {}

  insert(t: TicketRecord) {
    return this.run(() => {
      this.sql
        .get(
          `INSERT INTO tickets (id, tenant_id, workspace_id, subject, body, priority, status, conversation_id, visitor_id, due_at, breached_at, closed_at, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(t.id, t.tenantId, t.workspaceId, t.subject, t.body, t.priority, t.status, t.conversationId, t.visitorId, t.dueAt, t.breachedAt, t.closedAt, t.createdAt, t.updatedAt);
    });
  }

  get(scope: Scope, id: string) {
    return this.run(() => {
      const row = this.sql.get('SELECT * FROM tickets WHERE tenant_id = ? AND workspace_id = ? AND id = ?').get(scope.tenantId, scope.workspaceId, id) as Row | undefined;
      return row ? toTicket(row) : null;
    });
  }

  list(scope: Scope, filter: { status?: TicketStatus; priority?: TicketPriority }, { after, limit }: PageOptions) {
    return this.run(() => {
      const rows = this.sql
        .get(
          `SELECT * FROM tickets WHERE tenant_id = @tenantId AND workspace_id = @workspaceId AND (@after IS NULL OR id < @after)
             AND (@status IS NULL OR status = @status) AND (@priority IS NULL OR priority = @priority)
           ORDER BY id DESC LIMIT @limit`,
        )
        .all({ ...scope, after: after ?? null, status: filter.status ?? null, priority: filter.priority ?? null, limit: limit + 1 }) as Row[];
      return page(rows, limit, toTicket);
    });
  }

  transition(scope: Scope, id: string, from: TicketStatus, patch: TicketPatch) {
    return this.run(() => {
      const row = this.sql
        .get(`UPDATE tickets SET ${sets(patch, TICKET_COLUMNS)} WHERE tenant_id = @tenantId AND workspace_id = @workspaceId AND id = @id AND status = @from RETURNING *`)
        .get({ ...patch, ...scope, id, from }) as Row | undefined;
      return row ? toTicket(row) : null;
    });
  }

  addComment(scope: Scope, c: TicketComment) {
    return this.run(() => {
      const ticket = this.sql.get('SELECT 1 FROM tickets WHERE tenant_id = ? AND workspace_id = ? AND id = ?').get(scope.tenantId, scope.workspaceId, c.ticketId);
      if (!ticket) throw new Error(`Ticket ${c.ticketId} not found in this workspace.`);
      this.sql
        .get('INSERT INTO ticket_comments (id, ticket_id, tenant_id, workspace_id, body, author, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(c.id, c.ticketId, scope.tenantId, scope.workspaceId, c.body, c.author, c.createdAt);
    });
  }

  comments(scope: Scope, ticketId: string, limit: number) {
    return this.run(() =>
      (
        this.sql
          .get('SELECT * FROM (SELECT * FROM ticket_comments WHERE tenant_id = ? AND workspace_id = ? AND ticket_id = ? ORDER BY id DESC LIMIT ?) ORDER BY id')
          .all(scope.tenantId, scope.workspaceId, ticketId, limit) as Row[]
      ).map(toComment),
    );
  }

  markBreaches(now: string, limit: number) {
    // One statement: a ticket another run marked first no longer matches `breached_at IS NULL`.
    return this.run(() =>
      (
        this.sql
          .get(
            `UPDATE tickets SET breached_at = @now, updated_at = @now
             WHERE id IN (SELECT id FROM tickets WHERE status = 'open' AND breached_at IS NULL AND due_at <= @now ORDER BY due_at LIMIT @limit)
               AND status = 'open' AND breached_at IS NULL
             RETURNING *`,
          )
          .all({ now, limit }) as Row[]
      )
        .map(toTicket)
        .sort((a, b) => a.dueAt.localeCompare(b.dueAt) || a.id.localeCompare(b.id)),
    );
  }
}

export class SqlitePersonas implements PersonaStore {
  constructor(private readonly sql: Statements, private readonly run: Runner) {}

  insert(p: PersonaRecord) {
    return this.run(() => {
      this.sql
        .get('INSERT INTO personas (id, tenant_id, workspace_id, name, tone, instructions, locale, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
        .run(p.id, p.tenantId, p.workspaceId, p.name, p.tone, p.instructions, p.locale, p.createdAt, p.updatedAt);
    });
  }

  get(scope: Scope, id: string) {
    return this.run(() => {
      const row = this.sql.get('SELECT * FROM personas WHERE tenant_id = ? AND workspace_id = ? AND id = ?').get(scope.tenantId, scope.workspaceId, id) as Row | undefined;
      return row ? toPersona(row) : null;
    });
  }

  list(scope: Scope, { after, limit }: PageOptions) {
    return this.run(() => {
      const rows = this.sql
        .get('SELECT * FROM personas WHERE tenant_id = @tenantId AND workspace_id = @workspaceId AND (@after IS NULL OR id < @after) ORDER BY id DESC LIMIT @limit')
        .all({ ...scope, after: after ?? null, limit: limit + 1 }) as Row[];
      return page(rows, limit, toPersona);
    });
  }

  update(scope: Scope, id: string, patch: PersonaPatch) {
    return this.run(() => {
      const row = this.sql
        .get(`UPDATE personas SET ${sets(patch, PERSONA_COLUMNS)} WHERE tenant_id = @tenantId AND workspace_id = @workspaceId AND id = @id RETURNING *`)
        .get({ ...patch, ...scope, id }) as Row | undefined;
      return row ? toPersona(row) : null;
    });
  }

  delete(scope: Scope, id: string) {
    return this.run(() => this.sql.get('DELETE FROM personas WHERE tenant_id = ? AND workspace_id = ? AND id = ?').run(scope.tenantId, scope.workspaceId, id).changes > 0);
  }
}

export class SqliteVisitors implements VisitorStore {
  constructor(private readonly db: Db, private readonly sql: Statements, private readonly run: Runner) {}

  insert(v: VisitorRecord) {
    return this.run(() => {
      try {
        this.sql
          .get('INSERT INTO visitors (id, tenant_id, workspace_id, name, email, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
          .run(v.id, v.tenantId, v.workspaceId, v.name, v.email, v.createdAt, v.updatedAt);
      } catch (error) {
        translateError(error);
      }
    });
  }

  get(scope: Scope, id: string) {
    return this.run(() => {
      const row = this.sql.get('SELECT * FROM visitors WHERE tenant_id = ? AND workspace_id = ? AND id = ?').get(scope.tenantId, scope.workspaceId, id) as Row | undefined;
      return row ? toVisitor(row) : null;
    });
  }

  findByEmail(scope: Scope, email: string) {
    return this.run(() => {
      const row = this.sql.get('SELECT * FROM visitors WHERE tenant_id = ? AND workspace_id = ? AND email = ?').get(scope.tenantId, scope.workspaceId, email) as Row | undefined;
      return row ? toVisitor(row) : null;
    });
  }

  list(scope: Scope, { after, limit, email }: PageOptions & { email?: string }) {
    return this.run(() => {
      const rows = this.sql
        .get('SELECT * FROM visitors WHERE tenant_id = @tenantId AND workspace_id = @workspaceId AND (@after IS NULL OR id < @after) AND (@email IS NULL OR email = @email) ORDER BY id DESC LIMIT @limit')
        .all({ ...scope, after: after ?? null, email: email ?? null, limit: limit + 1 }) as Row[];
      return page(rows, limit, toVisitor);
    });
  }

  update(scope: Scope, id: string, patch: { name?: string | null; email?: string | null; updatedAt: string }) {
    return this.run(() => {
      try {
        const row = this.sql
          .get(`UPDATE visitors SET ${sets(patch, VISITOR_COLUMNS)} WHERE tenant_id = @tenantId AND workspace_id = @workspaceId AND id = @id RETURNING *`)
          .get({ ...patch, ...scope, id }) as Row | undefined;
        return row ? toVisitor(row) : null;
      } catch (error) {
        return translateError(error);
      }
    });
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
