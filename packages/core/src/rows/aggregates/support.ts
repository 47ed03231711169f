import type { Scope } from '../../ports/scope.js';
import type { ConversationRecord } from '../../answers/ports/conversations.js';
import type {
  CustomerPatch,
  CustomerRecord,
  CustomerStore,
  InboxItem,
  InboxReason,
  InboxStore,
  PersonaPatch,
  PersonaRecord,
  PersonaStore,
  TicketComment,
  TicketPatch,
  TicketPriority,
  TicketRecord,
  TicketStatus,
  TicketStore,
  VisitorRecord,
  VisitorStore,
} from '../../support/ports/support.js';
import type { SqlDriver } from '../driver.js';
import { sql, type Sql } from '../sql.js';
import { SqlTable } from '../table.js';
import { CONVERSATIONS, CUSTOMERS, MESSAGES, PERSONAS, TICKET_COMMENTS, TICKETS, VISITORS } from '../tables.js';

type PageOptions = { after?: string; limit: number };

export class SqlTickets implements TicketStore {
  private readonly tickets: SqlTable<TicketRecord>;
  private readonly commentRows: SqlTable<TicketComment>;

  constructor(driver: SqlDriver) {
    this.tickets = new SqlTable(driver, TICKETS);
    this.commentRows = new SqlTable(driver, TICKET_COMMENTS);
  }

  async insert(t: TicketRecord) {
    await this.tickets.insert(t);
  }

  get(scope: Scope, id: string) {
    return this.tickets.get(scope, id);
  }

  list(scope: Scope, filter: { status?: TicketStatus; priority?: TicketPriority }, options: PageOptions) {
    return this.tickets.list(scope, options, { status: filter.status, priority: filter.priority });
  }

  transition(scope: Scope, id: string, from: TicketStatus, patch: TicketPatch) {
    return this.tickets.update(patch, sql`tenant_id = ${scope.tenantId} AND workspace_id = ${scope.workspaceId} AND id = ${id} AND status = ${from}`);
  }

  async addComment(scope: Scope, c: TicketComment) {
    // The ticket's existence in the workspace is checked by the insert itself.
    const written = await this.commentRows.run(
      sql`INSERT INTO ${this.commentRows.ref} (id, ticket_id, tenant_id, workspace_id, body, author, created_at)
          SELECT ${c.id}, id, tenant_id, workspace_id, ${c.body}, ${c.author}, ${c.createdAt} FROM ${this.tickets.ref}
          WHERE tenant_id = ${scope.tenantId} AND workspace_id = ${scope.workspaceId} AND id = ${c.ticketId}`,
    );
    if (written === 0) throw new Error(`Ticket ${c.ticketId} not found in this workspace.`);
  }

  comments(scope: Scope, ticketId: string, limit: number) {
    return this.commentRows.all(
      sql`SELECT * FROM (SELECT * FROM ${this.commentRows.ref} WHERE tenant_id = ${scope.tenantId} AND workspace_id = ${scope.workspaceId} AND ticket_id = ${ticketId} ORDER BY id DESC LIMIT ${limit}) c ORDER BY id`,
    );
  }

  async markBreaches(now: string, limit: number) {
    // The due set is chosen once (a CTE); rows another run holds are skipped where rows lock, and
    // the re-checked condition keeps a ticket marked once.
    const rows = await this.tickets.all(
      sql`WITH due AS (SELECT id FROM ${this.tickets.ref} WHERE status = 'open' AND breached_at IS NULL AND due_at <= ${now} ORDER BY due_at LIMIT ${limit}${sql.skipLocked})
          UPDATE ${this.tickets.ref} SET breached_at = ${now}, updated_at = ${now}
          WHERE id IN (SELECT id FROM due) AND status = 'open' AND breached_at IS NULL
          RETURNING *`,
    );
    return rows.sort((a, b) => a.dueAt.localeCompare(b.dueAt) || a.id.localeCompare(b.id));
  }
}

export class SqlPersonas implements PersonaStore {
  private readonly rows: SqlTable<PersonaRecord>;

  constructor(driver: SqlDriver) {
    this.rows = new SqlTable(driver, PERSONAS);
  }

  async insert(p: PersonaRecord) {
    await this.rows.insert(p);
  }

  get(scope: Scope, id: string) {
    return this.rows.get(scope, id);
  }

  list(scope: Scope, options: PageOptions) {
    return this.rows.list(scope, options);
  }

  update(scope: Scope, id: string, patch: PersonaPatch) {
    return this.rows.patch(scope, id, patch);
  }

  delete(scope: Scope, id: string) {
    return this.rows.delete(scope, id);
  }
}

export class SqlCustomers implements CustomerStore {
  private readonly rows: SqlTable<CustomerRecord>;

  constructor(driver: SqlDriver) {
    this.rows = new SqlTable(driver, CUSTOMERS);
  }

  async insert(c: CustomerRecord) {
    await this.rows.insert(c);
  }

  get(scope: Scope, id: string) {
    return this.rows.get(scope, id);
  }

  list(scope: Scope, { domain, externalId, ...options }: PageOptions & { domain?: string; externalId?: string }) {
    return this.rows.list(scope, options, { domain, externalId });
  }

  update(scope: Scope, id: string, patch: CustomerPatch) {
    return this.rows.patch(scope, id, patch);
  }

  delete(scope: Scope, id: string) {
    return this.rows.delete(scope, id);
  }
}

export class SqlVisitors implements VisitorStore {
  private readonly rows: SqlTable<VisitorRecord>;

  constructor(private readonly driver: SqlDriver) {
    this.rows = new SqlTable(driver, VISITORS);
  }

  async insert(v: VisitorRecord) {
    await this.rows.insert(v);
  }

  get(scope: Scope, id: string) {
    return this.rows.get(scope, id);
  }

  findByEmail(scope: Scope, email: string) {
    return this.rows.one(sql`SELECT * FROM ${this.rows.ref} WHERE tenant_id = ${scope.tenantId} AND workspace_id = ${scope.workspaceId} AND email = ${email}`);
  }

  list(scope: Scope, { email, ...options }: PageOptions & { email?: string }) {
    return this.rows.list(scope, options, { email });
  }

  update(scope: Scope, id: string, patch: { name?: string | null; email?: string | null; updatedAt: string }) {
    return this.rows.patch(scope, id, patch);
  }

  listByDomain(scope: Scope, domain: string, limit: number) {
    // The same expression as the visitors_domain index.
    return this.rows.all(
      sql`SELECT * FROM ${this.rows.ref} WHERE tenant_id = ${scope.tenantId} AND workspace_id = ${scope.workspaceId} AND ${sql.emailDomain('email')} = ${domain} ORDER BY id DESC LIMIT ${limit}`,
    );
  }

  merge(scope: Scope, from: string, into: string) {
    return this.driver.atomic(async (driver) => {
      const visitors = new SqlTable(driver, VISITORS);
      const inWorkspace = sql`tenant_id = ${scope.tenantId} AND workspace_id = ${scope.workspaceId}`;
      const both = await visitors.count(sql`SELECT COUNT(*) AS n FROM ${visitors.ref} WHERE ${inWorkspace} AND id ${sql.in([from, into])}`);
      if (from === into || both !== 2) throw new Error('Both visitors must exist in this workspace.');
      for (const table of ['conversations', 'tickets']) {
        await driver.query(sql`UPDATE ${sql.table(table)} SET visitor_id = ${into} WHERE ${inWorkspace} AND visitor_id = ${from}`);
      }
      await visitors.run(sql`DELETE FROM ${visitors.ref} WHERE ${inWorkspace} AND id = ${from}`);
    });
  }
}

/**
 * The inbox: each source's next page on its own (cursor and limit pushed down), as the same
 * named columns, so a page costs a few index walks however long the history.
 */
export class SqlInbox implements InboxStore {
  private readonly conversations: SqlTable<ConversationRecord>;

  constructor(private readonly driver: SqlDriver) {
    this.conversations = new SqlTable(driver, CONVERSATIONS);
  }

  private source(scope: Scope, reason: InboxReason, after: { at: string; id: string } | undefined, limit: number): Sql {
    const label = sql.raw(`CAST('${reason}' AS text) AS reason`);
    let select: Sql;
    let at: string;
    let id: string;
    if (reason === 'sla_breach' || reason === 'open_ticket') {
      at = reason === 'sla_breach' ? 't.breached_at' : 't.created_at';
      id = 't.id';
      const breached = reason === 'sla_breach' ? 'IS NOT NULL' : 'IS NULL';
      select = sql`SELECT ${label}, CAST('ticket' AS text) AS kind, t.id, t.conversation_id, t.id AS ticket_id, t.subject AS title, t.priority, ${sql.raw(at)} AS at FROM ${sql.table(TICKETS.table)} t
        WHERE t.tenant_id = ${scope.tenantId} AND t.workspace_id = ${scope.workspaceId} AND t.status = 'open' AND t.breached_at ${sql.raw(breached)}`;
    } else {
      at = 'c.last_message_at';
      id = 'c.id';
      const flags: Partial<Record<keyof ConversationRecord, boolean>> = reason === 'thumbs_down' ? { handedOff: false, hasThumbsDown: true } : { handedOff: false, hasThumbsDown: false, hasUngroundedAnswer: true };
      const firstQuestion = sql`coalesce((SELECT substr(m.content, 1, 200) FROM ${sql.table(MESSAGES.table)} m WHERE m.conversation_id = c.id AND m.role = 'user' ORDER BY m.id LIMIT 1), '')`;
      select = sql`SELECT ${label}, CAST('conversation' AS text) AS kind, c.id, c.id AS conversation_id, CAST(NULL AS text) AS ticket_id, ${firstQuestion} AS title, CAST(NULL AS text) AS priority, c.last_message_at AS at FROM ${this.conversations.ref} c
        WHERE c.tenant_id = ${scope.tenantId} AND c.workspace_id = ${scope.workspaceId} AND ${sql.raw(this.conversations.codec.where(flags, 'c'))}`;
    }
    const [atCol, idCol] = [sql.raw(at), sql.raw(id)];
    const cursor = after ? sql` AND (${atCol} < ${after.at} OR (${atCol} = ${after.at} AND ${idCol} < ${after.id}))` : sql.empty;
    return sql`SELECT * FROM (${select}${cursor} ORDER BY ${atCol} DESC, ${idCol} DESC LIMIT ${limit}) ${sql.raw(reason)}`;
  }

  async list(scope: Scope, filter: { reasons: readonly InboxReason[] }, { after, limit }: { after?: { at: string; id: string }; limit: number }) {
    if (filter.reasons.length === 0) return { items: [], nextCursor: null };
    const union = sql.join(
      filter.reasons.map((r) => this.source(scope, r, after, limit + 1)),
      ' UNION ALL ',
    );
    const { rows } = await this.driver.query(sql`SELECT * FROM (${union}) i ORDER BY at DESC, id DESC LIMIT ${limit + 1}`);
    const items: InboxItem[] = rows.slice(0, limit).map((r) => ({
      reason: r.reason as InboxReason,
      kind: r.kind as InboxItem['kind'],
      id: r.id as string,
      conversationId: (r.conversation_id as string | null) ?? null,
      ticketId: (r.ticket_id as string | null) ?? null,
      title: r.title as string,
      priority: (r.priority as TicketPriority | null) ?? null,
      at: this.driver.dialect.read.time(r.at),
    }));
    return { items, nextCursor: rows.length > limit ? (items.at(-1)?.id ?? null) : null };
  }
}
