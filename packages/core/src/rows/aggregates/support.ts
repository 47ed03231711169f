import type { Scope } from '../../ports/scope.js';
import type { CustomerPatch, CustomerRecord, CustomerStore, PersonaPatch, PersonaRecord, PersonaStore, TicketComment, TicketPatch, TicketPriority, TicketRecord, TicketStatus, TicketStore } from '../../ports/support.js';
import type { SqlDriver } from '../driver.js';
import { sql } from '../sql.js';
import { SqlTable } from '../table.js';
import { CUSTOMERS, PERSONAS, TICKET_COMMENTS, TICKETS } from '../tables.js';

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
