import type { ConnectorStore, IdempotencyRecord, IdempotencyStore, OriginStore, StoredResponse } from '../../ports/store.js';
import type { SqlDriver } from '../driver.js';
import { sql } from '../sql.js';
import { SqlTable } from '../table.js';
import { IDEMPOTENCY_KEYS } from '../tables.js';

export class SqlOrigins implements OriginStore {
  private readonly origins = sql.table('tenant_origins');

  constructor(private readonly driver: SqlDriver) {}

  async list(tenantId: string) {
    const { rows } = await this.driver.query(sql`SELECT origin FROM ${this.origins} WHERE tenant_id = ${tenantId} ORDER BY origin${sql.byteOrder}`);
    return rows.map((r) => r.origin as string);
  }

  async replace(tenantId: string, origins: readonly string[]) {
    await this.driver.atomic(async (tx) => {
      await tx.query(sql`DELETE FROM ${this.origins} WHERE tenant_id = ${tenantId}`);
      const unique = [...new Set(origins)];
      if (unique.length === 0) return;
      const values = sql.join(unique.map((origin) => sql`(${tenantId}, ${origin})`), ', ');
      await tx.query(sql`INSERT INTO ${this.origins} (tenant_id, origin) VALUES ${values} ON CONFLICT DO NOTHING`);
    });
  }

  async allowedByAny(origin: string) {
    const { rows } = await this.driver.query(sql`SELECT 1 AS found FROM ${this.origins} WHERE origin = ${origin} LIMIT 1`);
    return rows.length > 0;
  }
}

export class SqlConnectors implements ConnectorStore {
  private readonly secrets = sql.table('connector_secrets');
  private readonly events = sql.table('connector_events');

  constructor(private readonly driver: SqlDriver) {}

  async getSecret(tenantId: string) {
    const { rows } = await this.driver.query(sql`SELECT secret, created_at FROM ${this.secrets} WHERE tenant_id = ${tenantId}`);
    return rows[0] ? { secret: rows[0].secret as string, createdAt: this.driver.dialect.read.time(rows[0].created_at) } : null;
  }

  async setSecret(tenantId: string, secret: string, at: string) {
    await this.driver.query(
      sql`INSERT INTO ${this.secrets} (tenant_id, secret, created_at) VALUES (${tenantId}, ${secret}, ${at})
          ON CONFLICT (tenant_id) DO UPDATE SET secret = excluded.secret, created_at = excluded.created_at`,
    );
  }

  async recordEvent(tenantId: string, workspaceId: string, eventId: string, at: string) {
    const { rowCount } = await this.driver.query(
      sql`INSERT INTO ${this.events} (tenant_id, event_id, workspace_id, received_at) VALUES (${tenantId}, ${eventId}, ${workspaceId}, ${at}) ON CONFLICT DO NOTHING`,
    );
    return rowCount > 0;
  }
}

export class SqlIdempotency implements IdempotencyStore {
  private readonly rows: SqlTable<IdempotencyRecord>;

  constructor(driver: SqlDriver) {
    this.rows = new SqlTable(driver, IDEMPOTENCY_KEYS);
  }

  async claim(record: Omit<IdempotencyRecord, 'response'>, staleBefore: string): Promise<{ claimed: true } | { claimed: false; existing: IdempotencyRecord }> {
    const { tenantId, key } = record;
    // A holder that gives the key back between our insert and our read: try again.
    for (;;) {
      await this.rows.run(
        sql`DELETE FROM ${this.rows.ref} WHERE tenant_id = ${tenantId} AND key = ${key} AND (expires_at <= ${record.createdAt} OR (response IS NULL AND created_at <= ${staleBefore}))`,
      );
      if ((await this.rows.insert({ ...record, response: null }, 'ignore')) > 0) return { claimed: true };
      const existing = await this.rows.one(sql`SELECT * FROM ${this.rows.ref} WHERE tenant_id = ${tenantId} AND key = ${key}`);
      if (existing) return { claimed: false, existing };
    }
  }

  async complete(tenantId: string, key: string, response: StoredResponse) {
    await this.rows.update({ response }, sql`tenant_id = ${tenantId} AND key = ${key}`);
  }

  async release(tenantId: string, key: string) {
    await this.rows.run(sql`DELETE FROM ${this.rows.ref} WHERE tenant_id = ${tenantId} AND key = ${key} AND response IS NULL`);
  }

  purgeExpired(now: string) {
    return this.rows.run(sql`DELETE FROM ${this.rows.ref} WHERE expires_at <= ${now}`);
  }
}
