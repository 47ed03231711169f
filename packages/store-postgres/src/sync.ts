import type { ConnectorStore, OriginStore } from '@panya/core';
import { iso, type Conn, type Names } from './database.js';

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
