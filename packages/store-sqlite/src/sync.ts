import type { ConnectorStore, IdempotencyRecord, IdempotencyStore, OriginStore, StoredResponse } from '@panya/core';
import { tables } from '@panya/core/rows';
import type { Runner, Statements } from './database.js';
import { Table } from './rows.js';

export class SqliteOrigins implements OriginStore {
  constructor(private readonly sql: Statements, private readonly run: Runner) {}

  list(tenantId: string) {
    return this.run(() => (this.sql.get('SELECT origin FROM tenant_origins WHERE tenant_id = ? ORDER BY origin').all(tenantId) as { origin: string }[]).map((r) => r.origin));
  }

  replace(tenantId: string, origins: readonly string[]) {
    return this.run(() => {
      const db = this.sql.db;
      const write = () => {
        this.sql.get('DELETE FROM tenant_origins WHERE tenant_id = ?').run(tenantId);
        for (const origin of new Set(origins)) this.sql.get('INSERT INTO tenant_origins (tenant_id, origin) VALUES (?, ?)').run(tenantId, origin);
      };
      // Inside a store transaction already, or its own.
      if (db.inTransaction) write();
      else db.transaction(write).immediate();
    });
  }

  allowedByAny(origin: string) {
    return this.run(() => this.sql.get('SELECT 1 FROM tenant_origins WHERE origin = ? LIMIT 1').get(origin) !== undefined);
  }
}

export class SqliteConnectors implements ConnectorStore {
  constructor(private readonly sql: Statements, private readonly run: Runner) {}

  getSecret(tenantId: string) {
    return this.run(() => {
      const row = this.sql.get('SELECT secret, created_at FROM connector_secrets WHERE tenant_id = ?').get(tenantId) as { secret: string; created_at: string } | undefined;
      return row ? { secret: row.secret, createdAt: row.created_at } : null;
    });
  }

  setSecret(tenantId: string, secret: string, at: string) {
    return this.run(() => {
      this.sql
        .get('INSERT INTO connector_secrets (tenant_id, secret, created_at) VALUES (?, ?, ?) ON CONFLICT (tenant_id) DO UPDATE SET secret = excluded.secret, created_at = excluded.created_at')
        .run(tenantId, secret, at);
    });
  }

  recordEvent(tenantId: string, workspaceId: string, eventId: string, at: string) {
    return this.run(
      () => this.sql.get('INSERT INTO connector_events (tenant_id, event_id, workspace_id, received_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING').run(tenantId, eventId, workspaceId, at).changes > 0,
    );
  }
}

export class SqliteIdempotency implements IdempotencyStore {
  private readonly rows: Table<IdempotencyRecord>;

  constructor(private readonly sql: Statements, private readonly run: Runner) {
    this.rows = new Table(sql, tables.IDEMPOTENCY_KEYS);
  }

  claim(record: Omit<IdempotencyRecord, 'response'>, staleBefore: string) {
    return this.run(() => {
      const { tenantId, key } = record;
      // One write transaction: of two nodes claiming one key, exactly one inserts.
      const claim = this.sql.db.transaction((): { claimed: true } | { claimed: false; existing: IdempotencyRecord } => {
        this.sql.get('DELETE FROM idempotency_keys WHERE tenant_id = ? AND key = ? AND (expires_at <= ? OR (response IS NULL AND created_at <= ?))').run(tenantId, key, record.createdAt, staleBefore);
        if (this.rows.insert({ ...record, response: null }, 'ignore') > 0) return { claimed: true };
        return { claimed: false, existing: this.rows.one('SELECT * FROM idempotency_keys WHERE tenant_id = ? AND key = ?', tenantId, key)! };
      });
      return this.sql.db.inTransaction ? claim() : claim.immediate();
    });
  }

  complete(tenantId: string, key: string, response: StoredResponse) {
    return this.run(() => {
      this.sql.get('UPDATE idempotency_keys SET response = ? WHERE tenant_id = ? AND key = ?').run(JSON.stringify(response), tenantId, key);
    });
  }

  release(tenantId: string, key: string) {
    return this.run(() => {
      this.sql.get('DELETE FROM idempotency_keys WHERE tenant_id = ? AND key = ? AND response IS NULL').run(tenantId, key);
    });
  }

  purgeExpired(now: string) {
    return this.run(() => this.sql.get('DELETE FROM idempotency_keys WHERE expires_at <= ?').run(now).changes);
  }
}
