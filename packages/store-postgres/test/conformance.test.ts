import { randomBytes } from 'node:crypto';
import { afterAll } from 'vitest';
import pg from 'pg';
import { describeStoreConformance } from '@panya/core/testing';
import { openPostgresStore, WORKSPACE_CASCADE, type PostgresStore } from '@panya/store-postgres';
import { withPostgres } from './fixtures/with-postgres.js';

const probe = (store: PostgresStore) => ({
  workspaceScopedTables: () => store.workspaceScopedTables(),
  cascadeTables: WORKSPACE_CASCADE.map((s) => s.table),
  countWorkspaceRows: (table: string, workspaceId: string) => store.countWorkspaceRows(table, workspaceId),
  tenantScopedTables: () => store.tenantScopedTables(),
  countTenantRows: (table: string, tenantId: string) => store.countTenantRows(table, tenantId),
});

const schemaName = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`;

withPostgres('PostgreSQL store', (url) => {
  // Drops schemas after each test, and plays the part of the application's own pool.
  const shared = new pg.Pool({ connectionString: url, max: 10 });
  afterAll(() => shared.end());
  const drop = (schema: string) => shared.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);

  describeStoreConformance('postgres (own pool, fresh schema per test)', async () => {
    const schema = schemaName('panya_test');
    const store = await openPostgresStore({ connectionString: url, schema });
    return {
      store,
      schema: probe(store),
      kit: store.kit,
      openPeer: () => openPostgresStore({ connectionString: url, schema, max: 2 }),
      cleanup: async () => {
        await store.close();
        await drop(schema);
      },
    };
  });

  describeStoreConformance('postgres (user-supplied pool, custom schema)', async () => {
    const schema = schemaName('Custom Schema');
    const store = await openPostgresStore({ pool: shared, schema });
    return {
      store,
      schema: probe(store),
      kit: store.kit,
      cleanup: async () => {
        // Closing the store leaves the caller's pool open: the drop below still runs on it.
        await store.close();
        await drop(schema);
      },
    };
  });
});
