import type { CustomHostnameRecord, HostnameStatus, HostnameStore, TenantTombstone, TombstoneStore } from '@panya/core';
import { translateError, type Runner, type Statements } from './database.js';

type Row = Record<string, unknown>;

const toHostname = (r: Row): CustomHostnameRecord => ({
  id: r.id as string,
  tenantId: r.tenant_id as string,
  hostname: r.hostname as string,
  status: r.status as HostnameStatus,
  edgeHostnameId: (r.edge_hostname_id as string | null) ?? null,
  txtName: r.txt_name as string,
  txtValue: r.txt_value as string,
  verificationError: (r.verification_error as CustomHostnameRecord['verificationError']) ?? null,
  verificationDetail: (r.verification_detail as string | null) ?? null,
  statusChangedAt: r.status_changed_at as string,
  lastCheckedAt: (r.last_checked_at as string | null) ?? null,
  createdAt: r.created_at as string,
  updatedAt: r.updated_at as string,
});

const toTombstone = (r: Row): TenantTombstone => ({
  slug: r.slug as string,
  tenantId: r.tenant_id as string,
  hostnames: JSON.parse(r.hostnames as string),
  erasedAt: r.erased_at as string,
  purgedAt: (r.purged_at as string | null) ?? null,
});

export class SqliteHostnames implements HostnameStore {
  constructor(private readonly sql: Statements, private readonly run: Runner) {}

  insert(h: CustomHostnameRecord) {
    return this.run(() => {
      try {
        this.sql
          .get(
            `INSERT INTO custom_hostnames (id, tenant_id, hostname, status, edge_hostname_id, txt_name, txt_value, verification_error,
               verification_detail, status_changed_at, last_checked_at, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(h.id, h.tenantId, h.hostname, h.status, h.edgeHostnameId, h.txtName, h.txtValue, h.verificationError, h.verificationDetail, h.statusChangedAt, h.lastCheckedAt, h.createdAt, h.updatedAt);
      } catch (error) {
        translateError(error);
      }
    });
  }

  get(tenantId: string, id: string) {
    return this.run(() => {
      const row = this.sql.get('SELECT * FROM custom_hostnames WHERE tenant_id = ? AND id = ?').get(tenantId, id) as Row | undefined;
      return row ? toHostname(row) : null;
    });
  }

  findByHostname(hostname: string) {
    return this.run(() => {
      const row = this.sql.get('SELECT * FROM custom_hostnames WHERE hostname = ?').get(hostname) as Row | undefined;
      return row ? toHostname(row) : null;
    });
  }

  list(tenantId: string) {
    return this.run(() => (this.sql.get('SELECT * FROM custom_hostnames WHERE tenant_id = ? ORDER BY id').all(tenantId) as Row[]).map(toHostname));
  }

  update(h: CustomHostnameRecord) {
    return this.run(() => {
      this.sql
        .get(
          `UPDATE custom_hostnames SET status = ?, edge_hostname_id = ?, txt_name = ?, txt_value = ?, verification_error = ?,
             verification_detail = ?, status_changed_at = ?, last_checked_at = ?, updated_at = ?
           WHERE tenant_id = ? AND id = ?`,
        )
        .run(h.status, h.edgeHostnameId, h.txtName, h.txtValue, h.verificationError, h.verificationDetail, h.statusChangedAt, h.lastCheckedAt, h.updatedAt, h.tenantId, h.id);
    });
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

  listByStatus(statuses: readonly HostnameStatus[], limit: number) {
    return this.run(() =>
      (this.sql
        .get('SELECT * FROM custom_hostnames WHERE status IN (SELECT value FROM json_each(?)) ORDER BY status_changed_at, id LIMIT ?')
        .all(JSON.stringify(statuses), limit) as Row[]).map(toHostname),
    );
  }
}

export class SqliteTombstones implements TombstoneStore {
  constructor(private readonly sql: Statements, private readonly run: Runner) {}

  put(t: TenantTombstone) {
    return this.run(() => {
      this.sql
        .get(
          `INSERT INTO tenant_tombstones (slug, tenant_id, hostnames, erased_at, purged_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (slug) DO UPDATE SET tenant_id = excluded.tenant_id, hostnames = excluded.hostnames,
             erased_at = excluded.erased_at, purged_at = excluded.purged_at`,
        )
        .run(t.slug, t.tenantId, JSON.stringify(t.hostnames), t.erasedAt, t.purgedAt);
    });
  }

  getBySlug(slug: string) {
    return this.run(() => {
      const row = this.sql.get('SELECT * FROM tenant_tombstones WHERE slug = ?').get(slug) as Row | undefined;
      return row ? toTombstone(row) : null;
    });
  }

  findByHostname(hostname: string) {
    return this.run(() => {
      const row = this.sql
        .get('SELECT t.* FROM tenant_tombstones t WHERE EXISTS (SELECT 1 FROM json_each(t.hostnames) WHERE value = ?) ORDER BY erased_at DESC LIMIT 1')
        .get(hostname) as Row | undefined;
      return row ? toTombstone(row) : null;
    });
  }

  listUnpurged(limit: number) {
    return this.run(() => (this.sql.get('SELECT * FROM tenant_tombstones WHERE purged_at IS NULL ORDER BY erased_at LIMIT ?').all(limit) as Row[]).map(toTombstone));
  }

  list() {
    return this.run(() => (this.sql.get('SELECT * FROM tenant_tombstones ORDER BY erased_at').all() as Row[]).map(toTombstone));
  }

  markPurged(slug: string, at: string) {
    return this.run(() => {
      this.sql.get('UPDATE tenant_tombstones SET purged_at = ? WHERE slug = ?').run(at, slug);
    });
  }
}
