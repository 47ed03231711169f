import type { CustomHostnameRecord, HostnameStatus, HostnameStore, TenantTombstone, TombstoneStore } from '@panya/core';
import { tables } from '@panya/core/rows';
import type { Conn, Names } from './database.js';
import { Table } from './rows.js';

export class PgHostnames implements HostnameStore {
  private readonly rows: Table<CustomHostnameRecord>;

  constructor(private readonly db: Conn, n: Names) {
    this.rows = new Table(db, n, tables.CUSTOM_HOSTNAMES);
  }

  async insert(h: CustomHostnameRecord) {
    await this.rows.insert(h);
  }

  get(tenantId: string, id: string) {
    return this.rows.one(`SELECT * FROM ${this.rows.name} WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
  }

  findByHostname(hostname: string) {
    return this.rows.one(`SELECT * FROM ${this.rows.name} WHERE hostname = $1`, [hostname]);
  }

  list(tenantId: string) {
    return this.rows.all(`SELECT * FROM ${this.rows.name} WHERE tenant_id = $1 ORDER BY id`, [tenantId]);
  }

  async update(h: CustomHostnameRecord) {
    const { id, tenantId, hostname: _hostname, createdAt: _createdAt, ...patch } = h;
    await this.rows.update(patch, 'tenant_id = $1 AND id = $2', [tenantId, id]);
  }

  async delete(tenantId: string, id: string) {
    const { rowCount } = await this.db.query(`DELETE FROM ${this.rows.name} WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
    return (rowCount ?? 0) > 0;
  }

  async countActive(tenantId?: string) {
    const { rows } =
      tenantId === undefined
        ? await this.db.query<{ n: string }>(`SELECT COUNT(*) AS n FROM ${this.rows.name} WHERE status = 'active'`)
        : await this.db.query<{ n: string }>(`SELECT COUNT(*) AS n FROM ${this.rows.name} WHERE status = 'active' AND tenant_id = $1`, [tenantId]);
    return Number(rows[0]!.n);
  }

  listForCheck(statuses: readonly HostnameStatus[], limit: number) {
    return this.rows.all(`SELECT * FROM ${this.rows.name} WHERE status = ANY($1::text[]) ORDER BY last_checked_at NULLS FIRST, id LIMIT $2`, [statuses, limit]);
  }

  listByStatus(statuses: readonly HostnameStatus[], limit: number) {
    return this.rows.all(`SELECT * FROM ${this.rows.name} WHERE status = ANY($1::text[]) ORDER BY status_changed_at, id LIMIT $2`, [statuses, limit]);
  }
}

export class PgTombstones implements TombstoneStore {
  private readonly rows: Table<TenantTombstone>;

  constructor(private readonly db: Conn, n: Names) {
    this.rows = new Table(db, n, tables.TENANT_TOMBSTONES);
  }

  async put(t: TenantTombstone) {
    await this.rows.insert(t, { on: ['slug'], update: true });
  }

  getBySlug(slug: string) {
    return this.rows.one(`SELECT * FROM ${this.rows.name} WHERE slug = $1`, [slug]);
  }

  findByHostname(hostname: string) {
    return this.rows.one(`SELECT * FROM ${this.rows.name} WHERE hostnames @> $1::jsonb ORDER BY erased_at DESC LIMIT 1`, [JSON.stringify([hostname])]);
  }

  listUnpurged(limit: number) {
    return this.rows.all(`SELECT * FROM ${this.rows.name} WHERE purged_at IS NULL ORDER BY purge_attempted_at NULLS FIRST, erased_at LIMIT $1`, [limit]);
  }

  list() {
    return this.rows.all(`SELECT * FROM ${this.rows.name} ORDER BY erased_at`);
  }

  async markPurgeAttempted(slug: string, at: string) {
    await this.db.query(`UPDATE ${this.rows.name} SET purge_attempted_at = $1 WHERE slug = $2`, [at, slug]);
  }

  async markPurged(slug: string, at: string) {
    await this.db.query(`UPDATE ${this.rows.name} SET purged_at = $1 WHERE slug = $2`, [at, slug]);
  }
}
