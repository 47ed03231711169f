import type { AuditEvent, AuditFilter, AuditStore } from '../../ports/store.js';
import type { SqlDriver } from '../driver.js';
import { sql, type Sql } from '../sql.js';
import { SqlTable } from '../table.js';
import { AUDIT_EVENTS } from '../tables.js';

/** The tenant audit log on any SQL store: appends serialised per tenant, reads by chain position. */
export class SqlAudit implements AuditStore {
  private readonly rows: SqlTable<AuditEvent>;

  constructor(private readonly driver: SqlDriver) {
    this.rows = new SqlTable(driver, AUDIT_EVENTS);
  }

  append(tenantId: string, next: (last: AuditEvent | null) => AuditEvent): Promise<AuditEvent> {
    return this.driver.atomic(async (driver) => {
      const rows = new SqlTable(driver, AUDIT_EVENTS);
      // SQLite writes one transaction at a time; PostgreSQL takes a per-tenant lock held to the
      // end of the transaction, so two appends never read the same last entry. The unique
      // (tenant_id, seq) index refuses a duplicate number should anything get past it.
      if (driver.dialect.name === 'postgres') await driver.query(sql`SELECT pg_advisory_xact_lock(hashtext(${`panya.audit:${tenantId}`}))`);
      const last = await rows.one(sql`SELECT * FROM ${rows.ref} WHERE tenant_id = ${tenantId} AND seq IS NOT NULL ORDER BY seq DESC LIMIT 1`);
      const entry = next(last);
      await rows.insert(entry);
      return entry;
    });
  }

  list(tenantId: string, options: { type?: string; subjectId?: string } = {}) {
    const where = [sql`tenant_id = ${tenantId}`];
    if (options.type !== undefined) where.push(sql`type = ${options.type}`);
    if (options.subjectId !== undefined) where.push(sql`subject_id = ${options.subjectId}`);
    return this.rows.all(sql`SELECT * FROM ${this.rows.ref} WHERE ${sql.join(where, ' AND ')} ORDER BY id`);
  }

  page(tenantId: string, filter: AuditFilter, options: { before?: number; limit: number }) {
    const where: Sql[] = [sql`tenant_id = ${tenantId}`];
    if (filter.type !== undefined) where.push(sql`type = ${filter.type}`);
    if (filter.subjectId !== undefined) where.push(sql`subject_id = ${filter.subjectId}`);
    if (filter.actor !== undefined) where.push(sql`actor = ${filter.actor}`);
    if (filter.workspaceId !== undefined) where.push(sql`workspace_id = ${filter.workspaceId}`);
    if (filter.since !== undefined) where.push(sql`created_at >= ${this.rows.value('createdAt', filter.since)}`);
    if (filter.until !== undefined) where.push(sql`created_at < ${this.rows.value('createdAt', filter.until)}`);
    if (options.before !== undefined) where.push(sql`seq < ${options.before}`);
    return this.rows.all(sql`SELECT * FROM ${this.rows.ref} WHERE ${sql.join(where, ' AND ')} ORDER BY seq DESC NULLS LAST, id DESC LIMIT ${options.limit}`);
  }

  range(tenantId: string, options: { after: number; limit: number }) {
    return this.rows.all(sql`SELECT * FROM ${this.rows.ref} WHERE tenant_id = ${tenantId} AND seq > ${options.after} ORDER BY seq LIMIT ${options.limit}`);
  }

  purgeBefore(tenantId: string, before: string, limit: number) {
    // The oldest entries first, so what remains is always an unbroken tail of the chain; the
    // newest entry always stays, so the next one continues the chain rather than starting anew.
    const head = sql`(SELECT MAX(seq) FROM ${this.rows.ref} WHERE tenant_id = ${tenantId})`;
    return this.rows.run(
      sql`DELETE FROM ${this.rows.ref} WHERE id IN (SELECT id FROM ${this.rows.ref} WHERE tenant_id = ${tenantId} AND created_at < ${this.rows.value('createdAt', before)} AND (seq IS NULL OR seq < ${head}) ORDER BY seq NULLS FIRST, id LIMIT ${limit})`,
    );
  }

  async tenantsWithEntriesBefore(before: string, limit: number) {
    const { rows } = await this.driver.query(sql`SELECT DISTINCT tenant_id FROM ${this.rows.ref} WHERE created_at < ${this.rows.value('createdAt', before)} ORDER BY tenant_id LIMIT ${limit}`);
    return rows.map((r) => String((r as { tenant_id: unknown }).tenant_id));
  }
}
