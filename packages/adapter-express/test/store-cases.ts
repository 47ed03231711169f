import { randomBytes } from 'node:crypto';
import type { Store } from '@panya/core';
import { openPostgresStore } from '@panya/store-postgres';
import { openSqliteStore } from '@panya/store-sqlite';

/** SQLite always; PostgreSQL when `PANYA_TEST_PG` names a server (each case in its own schema). */
export interface StoreCase {
  name: string;
  /** `drop` runs after the engine (and so the store) is closed. */
  open(): Promise<{ store: Store; drop(): Promise<void> }>;
}

export function storeCases(what: string): StoreCase[] {
  const pgUrl = process.env.PANYA_TEST_PG;
  if (!pgUrl) console.warn(`${what} on PostgreSQL skipped: set PANYA_TEST_PG=postgres://… to run it.`);
  return [
    { name: 'sqlite', open: async () => ({ store: openSqliteStore({ path: ':memory:' }), drop: async () => {} }) },
    ...(pgUrl
      ? [
          {
            name: 'postgres',
            open: async () => {
              const schema = `panya_loop_${randomBytes(6).toString('hex')}`;
              const store = await openPostgresStore({ connectionString: pgUrl, schema });
              // The engine closes the store's pool first: the schema goes through a connection of its own.
              return { store, drop: async () => {
                const admin = await openPostgresStore({ connectionString: pgUrl, schema });
                await admin.pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
                await admin.close();
              } };
            },
          },
        ]
      : []),
  ];
}
