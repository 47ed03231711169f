import { COUNTED_HOSTNAME_STATUSES, type CustomHostnameRecord, type HostnameStatus, type HostnameStore, type TenantTombstone, type TombstoneStore } from '../../hostnames/ports/record.js';
import type { SqlDriver } from '../driver.js';
import { sql } from '../sql.js';
import { SqlTable } from '../table.js';
import { CUSTOM_HOSTNAMES, TENANT_TOMBSTONES } from '../tables.js';

export class SqlHostnames implements HostnameStore {
  private readonly rows: SqlTable<CustomHostnameRecord>;

  constructor(driver: SqlDriver) {
    this.rows = new SqlTable(driver, CUSTOM_HOSTNAMES);
  }

  async insert(h: CustomHostnameRecord) {
    await this.rows.insert(h);
  }

  get(tenantId: string, id: string) {
    return this.rows.one(sql`SELECT * FROM ${this.rows.ref} WHERE tenant_id = ${tenantId} AND id = ${id}`);
  }

  findByHostname(hostname: string) {
    return this.rows.one(sql`SELECT * FROM ${this.rows.ref} WHERE hostname = ${hostname}`);
  }

  list(tenantId: string) {
    return this.rows.all(sql`SELECT * FROM ${this.rows.ref} WHERE tenant_id = ${tenantId} ORDER BY id`);
  }

  async update(h: CustomHostnameRecord) {
    const { id, tenantId, hostname: _hostname, createdAt: _createdAt, ...patch } = h;
    await this.rows.update(patch, sql`tenant_id = ${tenantId} AND id = ${id}`);
  }

  async delete(tenantId: string, id: string) {
    return (await this.rows.run(sql`DELETE FROM ${this.rows.ref} WHERE tenant_id = ${tenantId} AND id = ${id}`)) > 0;
  }

  countActive(tenantId?: string) {
    const tenant = tenantId === undefined ? sql.empty : sql` AND tenant_id = ${tenantId}`;
    return this.rows.count(sql`SELECT COUNT(*) AS n FROM ${this.rows.ref} WHERE status ${sql.in(COUNTED_HOSTNAME_STATUSES)}${tenant}`);
  }

  listForCheck(statuses: readonly HostnameStatus[], limit: number) {
    return this.rows.all(sql`SELECT * FROM ${this.rows.ref} WHERE status ${sql.in(statuses)} ORDER BY last_checked_at NULLS FIRST, id LIMIT ${limit}`);
  }

  listByStatus(statuses: readonly HostnameStatus[], limit: number) {
    return this.rows.all(sql`SELECT * FROM ${this.rows.ref} WHERE status ${sql.in(statuses)} ORDER BY status_changed_at, id LIMIT ${limit}`);
  }
}

export class SqlTombstones implements TombstoneStore {
  private readonly rows: SqlTable<TenantTombstone>;

  constructor(driver: SqlDriver) {
    this.rows = new SqlTable(driver, TENANT_TOMBSTONES);
  }

  async put(t: TenantTombstone) {
    await this.rows.insert(t, { on: ['slug'], update: true });
  }

  getBySlug(slug: string) {
    return this.rows.one(sql`SELECT * FROM ${this.rows.ref} WHERE slug = ${slug}`);
  }

  findByHostname(hostname: string) {
    return this.rows.one(sql`SELECT * FROM ${this.rows.ref} WHERE ${sql.jsonArrayHas('hostnames', hostname)} ORDER BY erased_at DESC LIMIT 1`);
  }

  listUnpurged(limit: number) {
    return this.rows.all(sql`SELECT * FROM ${this.rows.ref} WHERE purged_at IS NULL ORDER BY purge_attempted_at NULLS FIRST, erased_at LIMIT ${limit}`);
  }

  list() {
    return this.rows.all(sql`SELECT * FROM ${this.rows.ref} ORDER BY erased_at`);
  }

  async markPurgeAttempted(slug: string, at: string) {
    await this.rows.run(sql`UPDATE ${this.rows.ref} SET purge_attempted_at = ${at} WHERE slug = ${slug}`);
  }

  async markPurged(slug: string, at: string) {
    await this.rows.run(sql`UPDATE ${this.rows.ref} SET purged_at = ${at} WHERE slug = ${slug}`);
  }
}
