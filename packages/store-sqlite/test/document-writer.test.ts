import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, isStoreBusy, isStoreConflict, type DocumentRecord } from '@panya/core';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { documentWriter } from '../src/document-writer.js';
import { openSqliteStore } from '../src/index.js';

/** Uploads' batches written on a connection of their own in a worker thread (`offThreadDocumentWrites`). */
describe('documents.insertMany off the serving thread', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'panya-writer-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const doc = (id: string, scope: { tenantId: string; workspaceId: string }, contentMd: string): DocumentRecord => ({
    id,
    ...scope,
    title: id,
    contentMd,
    url: null,
    publicSurfaces: [],
    audiences: ['internal'],
    externalId: null,
    metadata: {},
    status: 'pending',
    error: null,
    createdAt: '2026-11-23T00:00:00.000Z',
    updatedAt: '2026-11-23T00:00:00.000Z',
  });

  it('writes the whole batch, visible to the serving connection, and the event loop keeps turning meanwhile', async () => {
    const store = openSqliteStore({ path: join(dir, 'panya.db'), offThreadDocumentWrites: true });
    try {
      const { tenant, workspace } = await seed(store);
      const scope = { tenantId: tenant, workspaceId: workspace };
      const megabyte = 'word '.repeat(200_000);
      const batch = Array.from({ length: 20 }, (_, i) => doc(`doc_${i}`, scope, `${i} ${megabyte}`));
      let ticks = 0;
      const ticker = setInterval(() => ticks++, 1);
      await store.documents.insertMany!(batch);
      clearInterval(ticker);
      expect(ticks).toBeGreaterThan(0);
      const read = await store.documents.getMany(scope, batch.map((d) => d.id));
      expect(read).toHaveLength(20);
      expect(read.find((d) => d.id === 'doc_7')!.contentMd).toBe(`7 ${megabyte}`);
    } finally {
      await store.close();
    }
  });

  it('all or none: a taken id is the port’s conflict error and nothing of the batch is written', async () => {
    const store = openSqliteStore({ path: join(dir, 'panya.db'), offThreadDocumentWrites: true });
    try {
      const { tenant, workspace } = await seed(store);
      const scope = { tenantId: tenant, workspaceId: workspace };
      await store.documents.insert(doc('doc_taken', scope, 'first'));
      const error = await store.documents.insertMany!([doc('doc_new', scope, 'new'), doc('doc_taken', scope, 'again')]).catch((e: unknown) => e);
      expect(isStoreConflict(error)).toBe(true);
      expect(await store.documents.get(scope, 'doc_new')).toBeNull();
      expect((await store.documents.get(scope, 'doc_taken'))!.contentMd).toBe('first');
    } finally {
      await store.close();
    }
  });

  it("waits for the write lock longer than the store's own wait: a batch held up by other writers still lands", async () => {
    const path = join(dir, 'panya.db');
    const store = openSqliteStore({ path, busyTimeoutMs: 100, offThreadDocumentWrites: true });
    const other = new Database(path);
    try {
      const { tenant, workspace } = await seed(store);
      const scope = { tenantId: tenant, workspaceId: workspace };
      await store.documents.insertMany!([doc('doc_first', scope, 'first')]); // the thread is up
      other.exec('BEGIN IMMEDIATE');
      setTimeout(() => other.exec('COMMIT'), 600);
      await store.documents.insertMany!([doc('doc_a', scope, 'a'), doc('doc_b', scope, 'b')]);
      expect((await store.documents.getMany(scope, ['doc_a', 'doc_b'])).map((d) => d.contentMd).sort()).toEqual(['a', 'b']);
    } finally {
      other.close();
      await store.close();
    }
  });

  it("a lock wait that runs out is the port's busy error, and nothing of the batch is written", async () => {
    const path = join(dir, 'panya.db');
    const store = openSqliteStore({ path });
    const writer = documentWriter({ path, busyTimeoutMs: 50 });
    const other = new Database(path);
    try {
      const { tenant, workspace } = await seed(store);
      const scope = { tenantId: tenant, workspaceId: workspace };
      other.exec('BEGIN IMMEDIATE');
      const error = await writer.insertMany([doc('doc_late', scope, 'late')]).catch((e: unknown) => e);
      other.exec('COMMIT');
      expect(isStoreBusy(error)).toBe(true);
      expect(await store.documents.get(scope, 'doc_late')).toBeNull();
    } finally {
      other.close();
      await writer.close();
      await store.close();
    }
  });

  it('an import (a bulk of creates) is written by the thread: the serving connection answers while it waits for the lock', async () => {
    const path = join(dir, 'panya.db');
    const store = openSqliteStore({ path, offThreadDocumentWrites: true });
    const engine = createEngine({ store });
    const other = new Database(path);
    try {
      await engine.tenancy.createTenant({ slug: 'acme', plan: 'enterprise' });
      const ctx = (await engine.access.system('acme'))._unsafeUnwrap();
      other.exec('BEGIN IMMEDIATE');
      const create = Array.from({ length: 50 }, (_, i) => ({ title: `Doc ${i}`, contentMd: `Body ${i}` }));
      let imported = false;
      const importing = engine.documents.bulk(ctx, { create }).finally(() => (imported = true));
      // Another request's read goes through while the import waits for the lock another connection holds.
      const listed = (await engine.documents.list(ctx, {}))._unsafeUnwrap();
      expect(listed.items).toEqual([]);
      expect(imported).toBe(false);
      other.exec('COMMIT');
      const results = (await importing)._unsafeUnwrap();
      expect(results.map((r) => r.status)).toEqual(create.map(() => 'created'));
      expect((await engine.documents.list(ctx, { limit: 100 }))._unsafeUnwrap().items).toHaveLength(50);
    } finally {
      if (other.inTransaction) other.exec('COMMIT');
      other.close();
      await engine.close();
    }
  });
});

async function seed(store: ReturnType<typeof openSqliteStore>) {
  const engine = createEngine({ store });
  const created = (await engine.tenancy.createTenant({ slug: 'acme', plan: 'business' }))._unsafeUnwrap();
  return { tenant: created.tenant.id, workspace: created.defaultWorkspace.id };
}
