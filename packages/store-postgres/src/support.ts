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
import { iso, isoOrNull, type Conn, type Names, type Row } from './database.js';

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
  dueAt: iso(r.due_at),
  breachedAt: isoOrNull(r.breached_at),
  closedAt: isoOrNull(r.closed_at),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

const toComment = (r: Row): TicketComment => ({
  id: r.id as string,
  ticketId: r.ticket_id as string,
  tenantId: r.tenant_id as string,
  workspaceId: r.workspace_id as string,
  body: r.body as string,
  author: r.author as string,
  createdAt: iso(r.created_at),
});

const toPersona = (r: Row): PersonaRecord => ({
  id: r.id as string,
  tenantId: r.tenant_id as string,
  workspaceId: r.workspace_id as string,
  name: r.name as string,
  tone: r.tone as string,
  instructions: r.instructions as string,
  locale: (r.locale as PersonaRecord['locale']) ?? null,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

const toVisitor = (r: Row): VisitorRecord => ({
  id: r.id as string,
  tenantId: r.tenant_id as string,
  workspaceId: r.workspace_id as string,
  name: (r.name as string | null) ?? null,
  email: (r.email as string | null) ?? null,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

function page<T extends { id: string }>(rows: Row[], limit: number, map: (r: Row) => T) {
  const items = rows.slice(0, limit).map(map);
  return { items, nextCursor: rows.length > limit ? (items.at(-1)?.id ?? null) : null };
}

/** `a = $n, …` for the keys of a patch that are present (snake_case columns), numbered from `$first`. */
function sets(patch: Record<string, unknown>, columns: Record<string, string>, first: number): { sql: string; values: unknown[] } {
  const keys = Object.keys(columns).filter((key) => patch[key] !== undefined);
  return { sql: keys.map((key, i) => `${columns[key]} = $${first + i}`).join(', '), values: keys.map((key) => patch[key]) };
}

const TICKET_COLUMNS = { status: 'status', closedAt: 'closed_at', dueAt: 'due_at', breachedAt: 'breached_at', updatedAt: 'updated_at' };
const PERSONA_COLUMNS = { name: 'name', tone: 'tone', instructions: 'instructions', locale: 'locale', updatedAt: 'updated_at' };
const VISITOR_COLUMNS = { name: 'name', email: 'email', updatedAt: 'updated_at' };

export class PgTickets implements TicketStore {
  constructor(private readonly db: Conn, private readonly n: Names) {}

  async insert(t: TicketRecord) {
    await this.db.query(
      `INSERT INTO ${this.n.t('tickets')} (id, tenant_id, workspace_id, subject, body, priority, status, conversation_id, visitor_id, due_at, breached_at, closed_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
      [t.id, t.tenantId, t.workspaceId, t.subject, t.body, t.priority, t.status, t.conversationId, t.visitorId, t.dueAt, t.breachedAt, t.closedAt, t.createdAt, t.updatedAt],
    );
  }

  async get(scope: Scope, id: string) {
    const { rows } = await this.db.query(`SELECT * FROM ${this.n.t('tickets')} WHERE tenant_id = $1 AND workspace_id = $2 AND id = $3`, [scope.tenantId, scope.workspaceId, id]);
    return rows[0] ? toTicket(rows[0]) : null;
  }

  async list(scope: Scope, filter: { status?: TicketStatus; priority?: TicketPriority }, { after, limit }: PageOptions) {
    const { rows } = await this.db.query(
      `SELECT * FROM ${this.n.t('tickets')} WHERE tenant_id = $1 AND workspace_id = $2 AND ($3::text IS NULL OR id < $3)
         AND ($4::text IS NULL OR status = $4) AND ($5::text IS NULL OR priority = $5)
       ORDER BY id DESC LIMIT $6`,
      [scope.tenantId, scope.workspaceId, after ?? null, filter.status ?? null, filter.priority ?? null, limit + 1],
    );
    return page(rows, limit, toTicket);
  }

  async transition(scope: Scope, id: string, from: TicketStatus, patch: TicketPatch) {
    const set = sets(patch, TICKET_COLUMNS, 5);
    const { rows } = await this.db.query(
      `UPDATE ${this.n.t('tickets')} SET ${set.sql} WHERE tenant_id = $1 AND workspace_id = $2 AND id = $3 AND status = $4 RETURNING *`,
      [scope.tenantId, scope.workspaceId, id, from, ...set.values],
    );
    return rows[0] ? toTicket(rows[0]) : null;
  }

  async addComment(scope: Scope, c: TicketComment) {
    const { rowCount } = await this.db.query(
      `INSERT INTO ${this.n.t('ticket_comments')} (id, ticket_id, tenant_id, workspace_id, body, author, created_at)
       SELECT $1, id, tenant_id, workspace_id, $5, $6, $7 FROM ${this.n.t('tickets')} WHERE tenant_id = $2 AND workspace_id = $3 AND id = $4`,
      [c.id, scope.tenantId, scope.workspaceId, c.ticketId, c.body, c.author, c.createdAt],
    );
    if (rowCount === 0) throw new Error(`Ticket ${c.ticketId} not found in this workspace.`);
  }

  async comments(scope: Scope, ticketId: string, limit: number) {
    const { rows } = await this.db.query(
      `SELECT * FROM (SELECT * FROM ${this.n.t('ticket_comments')} WHERE tenant_id = $1 AND workspace_id = $2 AND ticket_id = $3 ORDER BY id DESC LIMIT $4) c ORDER BY id`,
      [scope.tenantId, scope.workspaceId, ticketId, limit],
    );
    return rows.map(toComment);
  }

  async markBreaches(now: string, limit: number) {
    // Rows another run holds are skipped, and the re-checked condition keeps a ticket marked once.
    // The CTE runs once (a plain `IN (… LIMIT)` subquery may be re-run and exceed the limit).
    const t = this.n.t('tickets');
    const { rows } = await this.db.query(
      `WITH due AS (SELECT id FROM ${t} WHERE status = 'open' AND breached_at IS NULL AND due_at <= $1 ORDER BY due_at LIMIT $2 FOR UPDATE SKIP LOCKED)
       UPDATE ${t} t SET breached_at = $1, updated_at = $1 FROM due
       WHERE t.id = due.id AND t.status = 'open' AND t.breached_at IS NULL
       RETURNING t.*`,
      [now, limit],
    );
    return rows.map(toTicket).sort((a, b) => a.dueAt.localeCompare(b.dueAt) || a.id.localeCompare(b.id));
  }
}

export class PgPersonas implements PersonaStore {
  constructor(private readonly db: Conn, private readonly n: Names) {}

  async insert(p: PersonaRecord) {
    await this.db.query(
      `INSERT INTO ${this.n.t('personas')} (id, tenant_id, workspace_id, name, tone, instructions, locale, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [p.id, p.tenantId, p.workspaceId, p.name, p.tone, p.instructions, p.locale, p.createdAt, p.updatedAt],
    );
  }

  async get(scope: Scope, id: string) {
    const { rows } = await this.db.query(`SELECT * FROM ${this.n.t('personas')} WHERE tenant_id = $1 AND workspace_id = $2 AND id = $3`, [scope.tenantId, scope.workspaceId, id]);
    return rows[0] ? toPersona(rows[0]) : null;
  }

  async list(scope: Scope, { after, limit }: PageOptions) {
    const { rows } = await this.db.query(
      `SELECT * FROM ${this.n.t('personas')} WHERE tenant_id = $1 AND workspace_id = $2 AND ($3::text IS NULL OR id < $3) ORDER BY id DESC LIMIT $4`,
      [scope.tenantId, scope.workspaceId, after ?? null, limit + 1],
    );
    return page(rows, limit, toPersona);
  }

  async update(scope: Scope, id: string, patch: PersonaPatch) {
    const set = sets(patch, PERSONA_COLUMNS, 4);
    const { rows } = await this.db.query(`UPDATE ${this.n.t('personas')} SET ${set.sql} WHERE tenant_id = $1 AND workspace_id = $2 AND id = $3 RETURNING *`, [scope.tenantId, scope.workspaceId, id, ...set.values]);
    return rows[0] ? toPersona(rows[0]) : null;
  }

  async delete(scope: Scope, id: string) {
    const { rowCount } = await this.db.query(`DELETE FROM ${this.n.t('personas')} WHERE tenant_id = $1 AND workspace_id = $2 AND id = $3`, [scope.tenantId, scope.workspaceId, id]);
    return (rowCount ?? 0) > 0;
  }
}

export class PgVisitors implements VisitorStore {
  constructor(private readonly db: Conn, private readonly n: Names) {}

  async insert(v: VisitorRecord) {
    await this.db.query(
      `INSERT INTO ${this.n.t('visitors')} (id, tenant_id, workspace_id, name, email, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [v.id, v.tenantId, v.workspaceId, v.name, v.email, v.createdAt, v.updatedAt],
    );
  }

  async get(scope: Scope, id: string) {
    const { rows } = await this.db.query(`SELECT * FROM ${this.n.t('visitors')} WHERE tenant_id = $1 AND workspace_id = $2 AND id = $3`, [scope.tenantId, scope.workspaceId, id]);
    return rows[0] ? toVisitor(rows[0]) : null;
  }

  async findByEmail(scope: Scope, email: string) {
    const { rows } = await this.db.query(`SELECT * FROM ${this.n.t('visitors')} WHERE tenant_id = $1 AND workspace_id = $2 AND email = $3`, [scope.tenantId, scope.workspaceId, email]);
    return rows[0] ? toVisitor(rows[0]) : null;
  }

  async list(scope: Scope, { after, limit, email }: PageOptions & { email?: string }) {
    const { rows } = await this.db.query(
      `SELECT * FROM ${this.n.t('visitors')} WHERE tenant_id = $1 AND workspace_id = $2 AND ($3::text IS NULL OR id < $3) AND ($4::text IS NULL OR email = $4) ORDER BY id DESC LIMIT $5`,
      [scope.tenantId, scope.workspaceId, after ?? null, email ?? null, limit + 1],
    );
    return page(rows, limit, toVisitor);
  }

  async update(scope: Scope, id: string, patch: { name?: string | null; email?: string | null; updatedAt: string }) {
    const set = sets(patch, VISITOR_COLUMNS, 4);
    const { rows } = await this.db.query(`UPDATE ${this.n.t('visitors')} SET ${set.sql} WHERE tenant_id = $1 AND workspace_id = $2 AND id = $3 RETURNING *`, [scope.tenantId, scope.workspaceId, id, ...set.values]);
    return rows[0] ? toVisitor(rows[0]) : null;
  }

  merge(scope: Scope, from: string, into: string) {
    return this.db.atomic(async (tx) => {
      const { rows } = await tx.query(`SELECT count(*)::int AS n FROM ${this.n.t('visitors')} WHERE tenant_id = $1 AND workspace_id = $2 AND id = ANY($3::text[])`, [scope.tenantId, scope.workspaceId, [from, into]]);
      if (from === into || rows[0]!.n !== 2) throw new Error('Both visitors must exist in this workspace.');
      for (const table of ['conversations', 'tickets']) {
        await tx.query(`UPDATE ${this.n.t(table)} SET visitor_id = $1 WHERE tenant_id = $2 AND workspace_id = $3 AND visitor_id = $4`, [into, scope.tenantId, scope.workspaceId, from]);
      }
      await tx.query(`DELETE FROM ${this.n.t('visitors')} WHERE tenant_id = $1 AND workspace_id = $2 AND id = $3`, [scope.tenantId, scope.workspaceId, from]);
    });
  }
}

export class PgInbox implements InboxStore {
  constructor(private readonly db: Conn, private readonly n: Names) {}

  /**
   * One inbox source's next page on its own, as the same named columns ($1 tenant, $2 workspace,
   * $3/$4 cursor, $5 limit): a page costs a few index walks however long the history.
   */
  private source(reason: InboxReason): string {
    const at = { sla_breach: 'breached_at', open_ticket: 'created_at', thumbs_down: 'c.last_message_at', ungrounded: 'c.last_message_at' }[reason];
    const id = reason === 'sla_breach' || reason === 'open_ticket' ? 'id' : 'c.id';
    return `(${this.rows(reason)} AND ($3::timestamptz IS NULL OR ${at} < $3 OR (${at} = $3 AND ${id} < $4)) ORDER BY ${at} DESC, ${id} DESC LIMIT $5)`;
  }

  private rows(reason: InboxReason): string {
    const tickets = this.n.t('tickets');
    const conversations = this.n.t('conversations');
    const firstQuestion = `coalesce((SELECT left(m.content, 200) FROM ${this.n.t('messages')} m WHERE m.conversation_id = c.id AND m.role = 'user' ORDER BY m.id LIMIT 1), '')`;
    const ticket = (at: string) => `SELECT '${reason}'::text AS reason, 'ticket'::text AS kind, id, conversation_id, id AS ticket_id, subject AS title, priority, ${at} AS at FROM ${tickets}`;
    const conversation = `SELECT '${reason}'::text AS reason, 'conversation'::text AS kind, c.id, c.id AS conversation_id, NULL::text AS ticket_id, ${firstQuestion} AS title, NULL::text AS priority, c.last_message_at AS at FROM ${conversations} c`;
    switch (reason) {
      case 'sla_breach':
        return `${ticket('breached_at')} WHERE tenant_id = $1 AND workspace_id = $2 AND status = 'open' AND breached_at IS NOT NULL`;
      case 'open_ticket':
        return `${ticket('created_at')} WHERE tenant_id = $1 AND workspace_id = $2 AND status = 'open' AND breached_at IS NULL`;
      case 'thumbs_down':
        return `${conversation} WHERE c.tenant_id = $1 AND c.workspace_id = $2 AND NOT c.handed_off AND c.has_thumbs_down`;
      case 'ungrounded':
        return `${conversation} WHERE c.tenant_id = $1 AND c.workspace_id = $2 AND NOT c.handed_off AND NOT c.has_thumbs_down AND c.has_ungrounded_answer`;
    }
  }

  async list(scope: Scope, filter: { reasons: readonly InboxReason[] }, { after, limit }: { after?: { at: string; id: string }; limit: number }) {
    const union = filter.reasons.map((r) => this.source(r)).join(' UNION ALL ');
    const { rows } = await this.db.query(
      `SELECT * FROM (${union}) i ORDER BY at DESC, id DESC LIMIT $5`,
      [scope.tenantId, scope.workspaceId, after?.at ?? null, after?.id ?? null, limit + 1],
    );
    const items: InboxItem[] = rows.slice(0, limit).map((r) => ({
      reason: r.reason as InboxReason,
      kind: r.kind as InboxItem['kind'],
      id: r.id as string,
      conversationId: (r.conversation_id as string | null) ?? null,
      ticketId: (r.ticket_id as string | null) ?? null,
      title: r.title as string,
      priority: (r.priority as TicketPriority | null) ?? null,
      at: iso(r.at),
    }));
    return { items, nextCursor: rows.length > limit ? (items.at(-1)?.id ?? null) : null };
  }
}
