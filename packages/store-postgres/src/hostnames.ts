import type { CustomHostnameRecord, HostnameStatus, HostnameStore, TenantTombstone, TombstoneStore } from '@panya/core';
import { iso, isoOrNull, json, type Conn, type Names, type Row } from './database.js';

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
  statusChangedAt: iso(r.status_changed_at),
  lastCheckedAt: isoOrNull(r.last_checked_at),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

const toTombstone = (r: Row): TenantTombstone => ({
  slug: r.slug as string,
  tenantId: r.tenant_id as string,
  hostnames: json(r.hostnames),
  erasedAt: iso(r.erased_at),
  purgedAt: isoOrNull(r.purged_at),
});

export class PgHostnames implements HostnameStore {
  constructor(private readonly db: Conn, private readonly n: Names) {}

  async insert(h: CustomHostnameRecord) {
    await this.db.query(
      `INSERT INTO ${this.n.t('custom_hostnames')} (id, tenant_id, hostname, status, edge_hostname_id, txt_name, txt_value,
         verification_error, verification_detail, status_changed_at, last_checked_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [h.id, h.tenantId, h.hostname, h.status, h.edgeHostnameId, h.txtName, h.txtValue, h.verificationError, h.verificationDetail, h.statusChangedAt, h.lastCheckedAt, h.createdAt, h.updatedAt],
    );
  }

  async get(tenantId: string, id: string) {
    const { rows } = await this.db.query(`SELECT * FROM ${this.n.t('custom_hostnames')} WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
    return rows[0] ? toHostname(rows[0]) : null;
  }

  async findByHostname(hostname: string) {
    const { rows } = await this.db.query(`SELECT * FROM ${this.n.t('custom_hostnames')} WHERE hostname = $1`, [hostname]);
    return rows[0] ? toHostname(rows[0]) : null;
  }

  async list(tenantId: string) {
    const { rows } = await this.db.query(`SELECT * FROM ${this.n.t('custom_hostnames')} WHERE tenant_id = $1 ORDER BY id`, [tenantId]);
    return rows.map(toHostname);
  }

  async update(h: CustomHostnameRecord) {
    await this.db.query(
      `UPDATE ${this.n.t('custom_hostnames')} SET status = $1, edge_hostname_id = $2, txt_name = $3, txt_value = $4, verification_error = $5,
         verification_detail = $6, status_changed_at = $7, last_checked_at = $8, updated_at = $9
       WHERE tenant_id = $10 AND id = $11`,
      [h.status, h.edgeHostnameId, h.txtName, h.txtValue, h.verificationError, h.verificationDetail, h.statusChangedAt, h.lastCheckedAt, h.updatedAt, h.tenantId, h.id],
    );
  }

  async delete(tenantId: string, id: string) {
    const { rowCount } = await this.db.query(`DELETE FROM ${this.n.t('custom_hostnames')} WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
    return (rowCount ?? 0) > 0;
  }

  async countActive(tenantId?: string) {
    const { rows } =
      tenantId === undefined
        ? await this.db.query<{ n: string }>(`SELECT COUNT(*) AS n FROM ${this.n.t('custom_hostnames')} WHERE status = 'active'`)
        : await this.db.query<{ n: string }>(`SELECT COUNT(*) AS n FROM ${this.n.t('custom_hostnames')} WHERE status = 'active' AND tenant_id = $1`, [tenantId]);
    return Number(rows[0]!.n);
  }

  async listByStatus(statuses: readonly HostnameStatus[], limit: number) {
    const { rows } = await this.db.query(
      `SELECT * FROM ${this.n.t('custom_hostnames')} WHERE status = ANY($1::text[]) ORDER BY status_changed_at, id LIMIT $2`,
      [statuses, limit],
    );
    return rows.map(toHostname);
  }
}

export class PgTombstones implements TombstoneStore {
  constructor(private readonly db: Conn, private readonly n: Names) {}

  async put(t: TenantTombstone) {
    await this.db.query(
      `INSERT INTO ${this.n.t('tenant_tombstones')} (slug, tenant_id, hostnames, erased_at, purged_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (slug) DO UPDATE SET tenant_id = EXCLUDED.tenant_id, hostnames = EXCLUDED.hostnames,
         erased_at = EXCLUDED.erased_at, purged_at = EXCLUDED.purged_at`,
      [t.slug, t.tenantId, JSON.stringify(t.hostnames), t.erasedAt, t.purgedAt],
    );
  }

  async getBySlug(slug: string) {
    const { rows } = await this.db.query(`SELECT * FROM ${this.n.t('tenant_tombstones')} WHERE slug = $1`, [slug]);
    return rows[0] ? toTombstone(rows[0]) : null;
  }

  async findByHostname(hostname: string) {
    const { rows } = await this.db.query(
      `SELECT * FROM ${this.n.t('tenant_tombstones')} WHERE hostnames @> $1::jsonb ORDER BY erased_at DESC LIMIT 1`,
      [JSON.stringify([hostname])],
    );
    return rows[0] ? toTombstone(rows[0]) : null;
  }

  async listUnpurged(limit: number) {
    const { rows } = await this.db.query(`SELECT * FROM ${this.n.t('tenant_tombstones')} WHERE purged_at IS NULL ORDER BY erased_at LIMIT $1`, [limit]);
    return rows.map(toTombstone);
  }

  async list() {
    const { rows } = await this.db.query(`SELECT * FROM ${this.n.t('tenant_tombstones')} ORDER BY erased_at`);
    return rows.map(toTombstone);
  }

  async markPurged(slug: string, at: string) {
    await this.db.query(`UPDATE ${this.n.t('tenant_tombstones')} SET purged_at = $1 WHERE slug = $2`, [at, slug]);
  }
}
