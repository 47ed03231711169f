import type { ConnectorStore, IdempotencyRecord, IdempotencyStore, OriginStore, StoredResponse } from '@panya/core';
import { tables } from '@panya/core/rows';
import { iso, type Conn, type Names } from './database.js';
import { Table } from './rows.js';

export class PgOrigins implements OriginStore {
  constructor(private readonly db: Conn, private readonly n: Names) {}

  async list(tenantId: string) {
    const { rows } = await this.db.query(`SELECT origin FROM ${this.n.t('tenant_origins')} WHERE tenant_id = $1 ORDER BY origin COLLATE "C"`, [tenantId]);
    return rows.map((r) => r.origin as string);
  }

  async replace(tenantId: string, origins: readonly string[]) {
    await this.db.atomic(async (conn) => {
      await conn.query(`DELETE FROM ${this.n.t('tenant_origins')} WHERE tenant_id = $1`, [tenantId]);
      await conn.query(`INSERT INTO ${this.n.t('tenant_origins')} (tenant_id, origin) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`, [tenantId, [...new Set(origins)]]);
    });
  }

  async allowedByAny(origin: string) {
    const { rows } = await this.db.query(`SELECT 1 FROM ${this.n.t('tenant_origins')} WHERE origin = $1 LIMIT 1`, [origin]);
    return rows.length > 0;
  }
}

export class PgConnectors implements ConnectorStore {
  constructor(private readonly db: Conn, private readonly n: Names) {}

  async getSecret(tenantId: string) {
    const { rows } = await this.db.query(`SELECT secret, created_at FROM ${this.n.t('connector_secrets')} WHERE tenant_id = $1`, [tenantId]);
    return rows[0] ? { secret: rows[0].secret as string, createdAt: iso(rows[0].created_at) } : null;
  }

  async setSecret(tenantId: string, secret: string, at: string) {
    await this.db.query(
      `INSERT INTO ${this.n.t('connector_secrets')} (tenant_id, secret, created_at) VALUES ($1, $2, $3) ON CONFLICT (tenant_id) DO UPDATE SET secret = excluded.secret, created_at = excluded.created_at`,
      [tenantId, secret, at],
    );
  }

  async recordEvent(tenantId: string, workspaceId: string, eventId: string, at: string) {
    const { rowCount } = await this.db.query(
      `INSERT INTO ${this.n.t('connector_events')} (tenant_id, event_id, workspace_id, received_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
      [tenantId, eventId, workspaceId, at],
    );
    return (rowCount ?? 0) > 0;
  }
}

export class PgIdempotency implements IdempotencyStore {
  private readonly rows: Table<IdempotencyRecord>;

  constructor(private readonly db: Conn, private readonly n: Names) {
    this.rows = new Table(db, n, tables.IDEMPOTENCY_KEYS);
  }

  async claim(record: Omit<IdempotencyRecord, 'response'>, staleBefore: string): Promise<{ claimed: true } | { claimed: false; existing: IdempotencyRecord }> {
    const t = this.n.t('idempotency_keys');
    const { tenantId, key } = record;
    // A holder that gives the key back between our insert and our read: try again.
    for (;;) {
      await this.db.query(`DELETE FROM ${t} WHERE tenant_id = $1 AND key = $2 AND (expires_at <= $3 OR (response IS NULL AND created_at <= $4))`, [tenantId, key, record.createdAt, staleBefore]);
      if ((await this.rows.insert({ ...record, response: null }, 'ignore')) > 0) return { claimed: true };
      const existing = await this.rows.one(`SELECT * FROM ${t} WHERE tenant_id = $1 AND key = $2`, [tenantId, key]);
      if (existing) return { claimed: false, existing };
    }
  }

  async complete(tenantId: string, key: string, response: StoredResponse) {
    await this.db.query(`UPDATE ${this.n.t('idempotency_keys')} SET response = $3 WHERE tenant_id = $1 AND key = $2`, [tenantId, key, JSON.stringify(response)]);
  }

  async release(tenantId: string, key: string) {
    await this.db.query(`DELETE FROM ${this.n.t('idempotency_keys')} WHERE tenant_id = $1 AND key = $2 AND response IS NULL`, [tenantId, key]);
  }

  async purgeExpired(now: string) {
    const { rowCount } = await this.db.query(`DELETE FROM ${this.n.t('idempotency_keys')} WHERE expires_at <= $1`, [now]);
    return rowCount ?? 0;
  }
}
