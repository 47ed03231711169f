import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeStoreConformance } from '@panya/core/testing';
import { openSqliteStore, WORKSPACE_CASCADE, type SqliteStore } from '@panya/store-sqlite';

const probe = (store: SqliteStore) => ({
  workspaceScopedTables: () => store.workspaceScopedTables(),
  cascadeTables: WORKSPACE_CASCADE.map((s) => s.table),
  countWorkspaceRows: (table: string, workspaceId: string) => store.countWorkspaceRows(table, workspaceId),
  tenantScopedTables: () => store.tenantScopedTables(),
  countTenantRows: (table: string, tenantId: string) => store.countTenantRows(table, tenantId),
});

describeStoreConformance('sqlite :memory:', async () => {
  const store = openSqliteStore({ path: ':memory:' });
  return { store, schema: probe(store), kit: store.kit,
    countersKit: store.countersKit, cleanup: () => store.close() };
});

describeStoreConformance('sqlite file (WAL)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'panya-store-'));
  const path = join(dir, 'panya.db');
  const store = openSqliteStore({ path });
  return {
    store,
    schema: probe(store),
    kit: store.kit,
    countersKit: store.countersKit,
    openPeer: async () => openSqliteStore({ path }),
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
