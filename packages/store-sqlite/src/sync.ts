import type { ConnectorStore, IdempotencyRecord, IdempotencyStore, OriginStore, StoredResponse } from '@panya/core';
import type { Runner, Statements } from './database.js';

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

interface IdempotencyRow {
  tenant_id: string;
  key: string;
  fingerprint: string;
  response: string | null;
  created_at: string;
  expires_at: string;
}

export class SqliteIdempotency implements IdempotencyStore {
  constructor(private readonly sql: Statements, private readonly run: Runner) {}

  claim(record: Omit<IdempotencyRecord, 'response'>, staleBefore: string) {
    return this.run(() => {
      const { tenantId, key } = record;
      // One write transaction: of two nodes claiming one key, exactly one inserts.
      const claim = this.sql.db.transaction((): { claimed: true } | { claimed: false; existing: IdempotencyRecord } => {
        this.sql.get('DELETE FROM idempotency_keys WHERE tenant_id = ? AND key = ? AND (expires_at <= ? OR (response IS NULL AND created_at <= ?))').run(tenantId, key, record.createdAt, staleBefore);
        const inserted = this.sql
          .get('INSERT INTO idempotency_keys (tenant_id, key, fingerprint, response, created_at, expires_at) VALUES (?, ?, ?, NULL, ?, ?) ON CONFLICT DO NOTHING')
          .run(tenantId, key, record.fingerprint, record.createdAt, record.expiresAt).changes;
        if (inserted > 0) return { claimed: true };
        const row = this.sql.get('SELECT * FROM idempotency_keys WHERE tenant_id = ? AND key = ?').get(tenantId, key) as IdempotencyRow;
        return {
          claimed: false,
          existing: { tenantId, key, fingerprint: row.fingerprint, response: row.response ? (JSON.parse(row.response) as StoredResponse) : null, createdAt: row.created_at, expiresAt: row.expires_at },
        };
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
