import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { engineInternals } from '@panya/core/testing';

const dir = mkdtempSync(join(tmpdir(), 'panya-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('crash recovery of the ingest queue', () => {
  it('a restarted node indexes what its killed run left `indexing` at once, not after the lease', async () => {
    const path = join(dir, 'panya.db');
    // The first run claims documents (an hour-long lease, to be sure expiry plays no part) and dies.
    const first = createEngine({ store: openSqliteStore({ path }), ingest: { holder: { node: 'node-1', incarnation: 'run-1' }, leaseMs: 3_600_000, batchSize: 2 } });
    const { tenant } = (await first.tenancy.createTenant({ slug: 'acme', plan: 'business' }))._unsafeUnwrap();
    const ctx = (await first.access.system(tenant.slug))._unsafeUnwrap();
    const docs = [];
    for (const title of ['Refunds', 'Shipping', 'Warranty']) docs.push((await first.documents.create(ctx, { title, contentMd: `${title} policy text.` }))._unsafeUnwrap());
    const claimed = await engineInternals(first).store.documents.claimForIndexing({ now: new Date().toISOString(), leaseUntil: new Date(Date.now() + 3_600_000).toISOString(), limit: 2, holder: 'node-1/run-1/main' });
    expect(claimed).toHaveLength(2);
    await engineInternals(first).store.close(); // kill -9: no cleanup, the leases stay

    // Another node does not touch them: their lease is live.
    const other = createEngine({ store: openSqliteStore({ path }), ingest: { holder: { node: 'node-2', incarnation: 'run-1' } } });
    await other.start();
    await engineInternals(other).worker.waitFor(ctx.scope, docs[2]!.id, 5_000);
    await other.close();
    const stillHeld = await Promise.all(claimed.map((c) => openSqliteStore({ path }).documents.get(ctx.scope, c.doc.id)));
    expect(stillHeld.map((d) => d?.status)).toEqual(['indexing', 'indexing']);

    // The same node restarts: it takes its previous run's documents back and indexes them.
    const restarted = createEngine({ store: openSqliteStore({ path }), ingest: { holder: { node: 'node-1', incarnation: 'run-2' }, pollMs: 50 } });
    await restarted.start();
    try {
      for (const c of claimed) expect(await engineInternals(restarted).worker.waitFor(ctx.scope, c.doc.id, 10_000)).toBe('indexed');
      const found = (await restarted.search.search(ctx, { query: 'refunds policy' }))._unsafeUnwrap();
      expect(found.results.length).toBeGreaterThan(0);
    } finally {
      await restarted.close();
    }
  }, 60_000);
});

describe('crash recovery of job leases', () => {
  it("a restarted node runs a job its killed run held at once; another node still waits for the lease", async () => {
    const path = join(dir, 'jobs.db');
    // The first run takes the cleanup job's ten-minute lease and dies without releasing it.
    const first = createEngine({ store: openSqliteStore({ path }), holder: { node: 'node-1', incarnation: 'run-1' } });
    const now = new Date();
    expect(await engineInternals(first).store.jobs.acquireLease('workspace-cleanup', 'node-1/run-1/jobs', now.toISOString(), new Date(now.getTime() + 600_000).toISOString())).toBe(true);
    await engineInternals(first).store.close();

    const other = createEngine({ store: openSqliteStore({ path }), holder: { node: 'node-2', incarnation: 'run-1' } });
    await other.start();
    expect((await other.jobs.run('workspace-cleanup', {}))._unsafeUnwrap()).toMatchObject({ ran: false, reason: 'running_elsewhere' });
    await other.close();

    const restarted = createEngine({ store: openSqliteStore({ path }), holder: { node: 'node-1', incarnation: 'run-2' } });
    expect((await restarted.jobs.run('workspace-cleanup', {}))._unsafeUnwrap()).toMatchObject({ ran: false });
    await restarted.start();
    try {
      expect((await restarted.jobs.run('workspace-cleanup', {}))._unsafeUnwrap()).toMatchObject({ ran: true, summary: { done: true } });
      // Released after the run: the other node may take it next time.
      expect(await engineInternals(restarted).store.jobs.acquireLease('workspace-cleanup', 'node-2/run-1/jobs', now.toISOString(), now.toISOString())).toBe(true);
    } finally {
      await restarted.close();
    }
  }, 60_000);
});
