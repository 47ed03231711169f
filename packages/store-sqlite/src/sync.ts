import type { ConnectorStore, OriginStore } from '@panya/core';
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
