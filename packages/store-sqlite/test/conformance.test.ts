import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeStoreConformance } from '@panya/core/testing';
import { openSqliteStore } from '@panya/store-sqlite';

describeStoreConformance('sqlite :memory:', async () => {
  const store = openSqliteStore({ path: ':memory:' });
  return { store, cleanup: () => store.close() };
});

describeStoreConformance('sqlite file (WAL)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'panya-store-'));
  const store = openSqliteStore({ path: join(dir, 'panya.db') });
  return {
    store,
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
