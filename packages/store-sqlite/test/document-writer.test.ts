import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isStoreConflict, type DocumentRecord } from '@panya/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
});

async function seed(store: ReturnType<typeof openSqliteStore>) {
  const { createEngine } = await import('@panya/core');
  const engine = createEngine({ store });
  const created = (await engine.tenancy.createTenant({ slug: 'acme', plan: 'business' }))._unsafeUnwrap();
  return { tenant: created.tenant.id, workspace: created.defaultWorkspace.id };
}
