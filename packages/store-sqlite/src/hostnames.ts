import type { CustomHostnameRecord, HostnameStatus, HostnameStore, TenantTombstone, TombstoneStore } from '@panya/core';
import { tables } from '@panya/core/rows';
import type { Runner, Statements } from './database.js';
import { Table } from './rows.js';

export class SqliteHostnames implements HostnameStore {
  private readonly rows: Table<CustomHostnameRecord>;

  constructor(private readonly sql: Statements, private readonly run: Runner) {
    this.rows = new Table(sql, tables.CUSTOM_HOSTNAMES);
  }

  insert(h: CustomHostnameRecord) {
    return this.run(() => void this.rows.insert(h));
  }

  get(tenantId: string, id: string) {
    return this.run(() => this.rows.one('SELECT * FROM custom_hostnames WHERE tenant_id = ? AND id = ?', tenantId, id));
  }

  findByHostname(hostname: string) {
    return this.run(() => this.rows.one('SELECT * FROM custom_hostnames WHERE hostname = ?', hostname));
  }

  list(tenantId: string) {
    return this.run(() => this.rows.all('SELECT * FROM custom_hostnames WHERE tenant_id = ? ORDER BY id', tenantId));
  }

  update(h: CustomHostnameRecord) {
    const { id, tenantId, hostname: _hostname, createdAt: _createdAt, ...patch } = h;
    return this.run(() => void this.rows.update(patch, 'tenant_id = ? AND id = ?', tenantId, id));
  }

  delete(tenantId: string, id: string) {
    return this.run(() => this.sql.get('DELETE FROM custom_hostnames WHERE tenant_id = ? AND id = ?').run(tenantId, id).changes > 0);
  }

  countActive(tenantId?: string) {
    return this.run(() => {
      const row = (tenantId === undefined
        ? this.sql.get("SELECT COUNT(*) AS n FROM custom_hostnames WHERE status = 'active'").get()
        : this.sql.get("SELECT COUNT(*) AS n FROM custom_hostnames WHERE status = 'active' AND tenant_id = ?").get(tenantId)) as { n: number };
      return row.n;
    });
  }

  listForCheck(statuses: readonly HostnameStatus[], limit: number) {
    return this.run(() =>
      this.rows.all('SELECT * FROM custom_hostnames WHERE status IN (SELECT value FROM json_each(?)) ORDER BY last_checked_at IS NOT NULL, last_checked_at, id LIMIT ?', JSON.stringify(statuses), limit),
    );
  }

  listByStatus(statuses: readonly HostnameStatus[], limit: number) {
    return this.run(() => this.rows.all('SELECT * FROM custom_hostnames WHERE status IN (SELECT value FROM json_each(?)) ORDER BY status_changed_at, id LIMIT ?', JSON.stringify(statuses), limit));
  }
}

export class SqliteTombstones implements TombstoneStore {
  private readonly rows: Table<TenantTombstone>;

  constructor(private readonly sql: Statements, private readonly run: Runner) {
    this.rows = new Table(sql, tables.TENANT_TOMBSTONES);
  }

  put(t: TenantTombstone) {
    return this.run(() => void this.rows.insert(t, { on: ['slug'], update: true }));
  }

  getBySlug(slug: string) {
    return this.run(() => this.rows.one('SELECT * FROM tenant_tombstones WHERE slug = ?', slug));
  }

  findByHostname(hostname: string) {
    return this.run(() =>
      this.rows.one('SELECT t.* FROM tenant_tombstones t WHERE EXISTS (SELECT 1 FROM json_each(t.hostnames) WHERE value = ?) ORDER BY erased_at DESC LIMIT 1', hostname),
    );
  }

  listUnpurged(limit: number) {
    return this.run(() => this.rows.all('SELECT * FROM tenant_tombstones WHERE purged_at IS NULL ORDER BY purge_attempted_at IS NOT NULL, purge_attempted_at, erased_at LIMIT ?', limit));
  }

  list() {
    return this.run(() => this.rows.all('SELECT * FROM tenant_tombstones ORDER BY erased_at'));
  }

  markPurgeAttempted(slug: string, at: string) {
    return this.run(() => {
      this.sql.get('UPDATE tenant_tombstones SET purge_attempted_at = ? WHERE slug = ?').run(at, slug);
    });
  }

  markPurged(slug: string, at: string) {
    return this.run(() => {
      this.sql.get('UPDATE tenant_tombstones SET purged_at = ? WHERE slug = ?').run(at, slug);
    });
  }
}
