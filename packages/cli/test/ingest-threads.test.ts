import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '@panya/core';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startIngestThreads } from '../src/ingest-threads.js';
import { openEngine } from '../src/runtime.js';
import { engineInternals } from '@panya/core/testing';

const dir = mkdtempSync(join(tmpdir(), 'panya-threads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ingest in worker threads', () => {
  it('indexes documents off the request thread; ?wait=true waits for the thread', async () => {
    const db = join(dir, 'panya.db');
    const runner = startIngestThreads({ db, embedder: 'hash', logLevel: 'silent' }, 1, { ...silentLogger, error: (m, d) => console.error(m, d), warn: (m, d) => console.error(m, d) });
    const engine = await openEngine({ db, ingestRunner: runner });
    const inProcess = vi.spyOn(engine.ingest, 'processBatch');
    try {
      await engine.start();
      const { tenant } = (await engine.tenancy.createTenant({ slug: 'acme', plan: 'business' }))._unsafeUnwrap();
      const ctx = (await engine.access.system(tenant.slug))._unsafeUnwrap();
      const waited = (await engine.documents.create(ctx, { title: 'Refunds', contentMd: 'Refunds take seven days to reach the card.' }, { wait: true }))._unsafeUnwrap();
      expect(waited.status).toBe('indexed');
      // Written without waiting: the thread is woken and indexes it too.
      const queued = (await engine.documents.create(ctx, { title: 'Shipping', contentMd: 'Parcels to Chiang Mai arrive in three days.' }))._unsafeUnwrap();
      expect(await engineInternals(engine).worker.waitFor(ctx.scope, queued.id, 20_000)).toBe('indexed');
      const found = (await engine.search.search(ctx, { query: 'parcels Chiang Mai' }))._unsafeUnwrap();
      expect(found.results[0]?.documentId).toBe(queued.id);
      expect(inProcess).not.toHaveBeenCalled();
    } finally {
      await engine.close();
    }
  }, 60_000);
});
