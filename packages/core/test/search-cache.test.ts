import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEngine, HashEmbedder, UpstreamError, type Engine, type SearchOptions } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { AUDIENCE_PUBLIC } from '../src/audiences/rules.js';

const dirs: string[] = [];
const engines: Engine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function open(path: string, options: { search?: SearchOptions; embedder?: HashEmbedder } = {}) {
  const store = openSqliteStore({ path });
  const engine = createEngine({ store, ...(options.embedder ? { embedder: options.embedder } : {}), ...(options.search ? { search: options.search } : {}) });
  engines.push(engine);
  return { store, engine };
}

async function seeded(options: { search?: SearchOptions; embedder?: HashEmbedder } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'panya-search-cache-'));
  dirs.push(dir);
  const path = join(dir, 'panya.db');
  const { store, engine } = open(path, options);
  (await engine.tenancy.createTenant({ slug: 'acme', plan: 'enterprise' }))._unsafeUnwrap();
  (await engine.tenancy.createTenant({ slug: 'globex', plan: 'enterprise' }))._unsafeUnwrap();
  const ctx = (await engine.access.system('acme'))._unsafeUnwrap();
  const other = (await engine.access.system('globex'))._unsafeUnwrap();
  const refunds = (await engine.documents.create(ctx, { title: 'Refunds', contentMd: 'Refunds arrive within seven days of the return.' }, { wait: true }))._unsafeUnwrap();
  (await engine.documents.create(other, { title: 'Returns', contentMd: 'Refunds at Globex take thirty days.' }, { wait: true }))._unsafeUnwrap();
  const lexical = vi.spyOn(store.search, 'lexical');
  return { path, store, engine, ctx, other, refunds, lexical };
}

const search = async (engine: Engine, ctx: Awaited<ReturnType<typeof seeded>>['ctx'], query = 'refunds') => (await engine.search.search(ctx, { query, topK: 5 }))._unsafeUnwrap();

describe('search answer cache', () => {
  it('answers a repeated search without running the channels, with the same results', async () => {
    const { engine, ctx, lexical } = await seeded();
    const first = await search(engine, ctx);
    const again = await search(engine, ctx);
    expect(lexical).toHaveBeenCalledTimes(1);
    expect(again.results).toEqual(first.results);
    expect(again.results.map((r) => r.text)).toEqual(['Refunds arrive within seven days of the return.']);
    expect(typeof again.tookMs).toBe('number');
    // Another query, topK or option is another answer.
    await engine.search.search(ctx, { query: 'refunds', topK: 3 });
    await engine.search.search(ctx, { query: 'refunds', topK: 5, explain: true });
    expect(lexical).toHaveBeenCalledTimes(3);
    // No caller can change a kept answer for the next: each hit is its own copy.
    (again.results[0] as { text: string }).text = 'changed by a caller';
    again.results.push({ ...again.results[0]!, chunkId: 'added by a caller' });
    const third = await search(engine, ctx);
    expect(lexical).toHaveBeenCalledTimes(3);
    expect(third.results).toEqual(first.results);
  });

  it('keeps the ranking and reads the results again at a hit, explanations included', async () => {
    const { engine, ctx, store, lexical } = await seeded();
    const hydration = vi.spyOn(store.search, 'getResultChunks');
    const ask = async () => (await engine.search.search(ctx, { query: 'refunds', topK: 5, explain: true }))._unsafeUnwrap();
    const first = await ask();
    const again = await ask();
    expect(lexical).toHaveBeenCalledTimes(1);
    // The texts are not kept: the hit read its results' chunks (one store read), not the channels.
    expect(hydration).toHaveBeenCalledTimes(2);
    expect(again.results).toEqual(first.results);
    expect(again.explain).toEqual(first.explain);
    expect(again.results[0]!.explain).toEqual(first.results[0]!.explain);
  });

  it('runs a search asked again while it is being answered once, for both callers', async () => {
    const { engine, ctx, lexical } = await seeded();
    const [first, second] = await Promise.all([search(engine, ctx), search(engine, ctx)]);
    expect(lexical).toHaveBeenCalledTimes(1);
    expect(second.results).toEqual(first.results);
    expect(first.results).toHaveLength(1);
    // A failure reaches every caller that waited for it, and nothing is kept.
    lexical.mockRejectedValueOnce(new Error('disk on fire'));
    const failing = await Promise.allSettled([engine.search.search(ctx, { query: 'returns' }), engine.search.search(ctx, { query: 'returns' })]);
    expect(failing.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect((await engine.search.search(ctx, { query: 'returns' }))._unsafeUnwrap().results).toHaveLength(1);
  });

  it('never answers one tenant or workspace with another’s results', async () => {
    const { engine, ctx, other } = await seeded();
    const acme = await search(engine, ctx);
    const globex = await search(engine, other);
    expect(acme.results.map((r) => r.text)).toEqual(['Refunds arrive within seven days of the return.']);
    expect(globex.results.map((r) => r.text)).toEqual(['Refunds at Globex take thirty days.']);
    const sales = (await engine.workspaces.create(ctx, { slug: 'sales', name: 'Sales' }))._unsafeUnwrap();
    const salesCtx = (await engine.access.system('acme', sales.slug))._unsafeUnwrap();
    expect((await search(engine, salesCtx)).results).toEqual([]);
  });

  it('shows every write an answer depends on to the next search', async () => {
    const { engine, ctx, refunds } = await seeded();
    expect((await search(engine, ctx)).results.map((r) => r.url)).toEqual([null]);
    // A new document, an address, a rewrite, a deletion: each is in the very next answer.
    const late = (await engine.documents.create(ctx, { title: 'Late refunds', contentMd: 'Late refunds are paid with interest.' }, { wait: true }))._unsafeUnwrap();
    expect((await search(engine, ctx)).results.map((r) => r.documentId).sort()).toEqual([refunds.id, late.id].sort());
    (await engine.documents.update(ctx, refunds.id, { url: 'https://help.acme.test/refunds' }, { wait: true }))._unsafeUnwrap();
    expect((await search(engine, ctx)).results.find((r) => r.documentId === refunds.id)?.url).toBe('https://help.acme.test/refunds');
    (await engine.documents.update(ctx, late.id, { title: 'Interest', contentMd: 'Interest is paid on late payouts.' }, { wait: true }))._unsafeUnwrap();
    expect((await search(engine, ctx)).results.map((r) => r.documentId)).toEqual([refunds.id]);
    (await engine.documents.delete(ctx, refunds.id))._unsafeUnwrap();
    expect((await search(engine, ctx)).results).toEqual([]);
  });

  it('keeps the published-only answers of public surfaces apart, and drops them when a document is published', async () => {
    const { engine, ctx, refunds } = await seeded();
    const published = () => engine.search.run(ctx.scope, { query: 'refunds', topK: 5 }, [AUDIENCE_PUBLIC]);
    expect((await published()).results).toEqual([]);
    expect((await search(engine, ctx)).results).toHaveLength(1);
    (await engine.documents.update(ctx, refunds.id, { publicSurfaces: ['help_center'] }))._unsafeUnwrap();
    expect((await published()).results.map((r) => r.documentId)).toEqual([refunds.id]);
  });

  it('shows a write made by another process on the same database to the next search', async () => {
    const { path, engine, ctx, refunds } = await seeded();
    expect((await search(engine, ctx)).results).toHaveLength(1);
    const peer = open(path).engine;
    const peerCtx = (await peer.access.system('acme'))._unsafeUnwrap();
    (await peer.documents.update(peerCtx, refunds.id, { url: 'https://help.acme.test/r' }))._unsafeUnwrap();
    expect((await search(engine, ctx)).results.map((r) => r.url)).toEqual(['https://help.acme.test/r']);
    (await peer.documents.delete(peerCtx, refunds.id))._unsafeUnwrap();
    expect((await search(engine, ctx)).results).toEqual([]);
  });

  it('does not keep an answer the vector channel was missing from', async () => {
    const embedder = new HashEmbedder();
    const { engine, ctx, lexical } = await seeded({ embedder });
    const embedQuery = vi.spyOn(embedder, 'embedQuery').mockRejectedValueOnce(new UpstreamError('test:model', 'unavailable', true));
    const ask = () => engine.search.search(ctx, { query: 'refunds', topK: 5, weights: { semantic: 1 } });
    expect((await ask())._unsafeUnwrap().results).toHaveLength(1);
    await ask();
    expect(embedQuery).toHaveBeenCalledTimes(2);
    expect(lexical).toHaveBeenCalledTimes(2);
    // Answered whole this time: kept.
    await ask();
    expect(embedQuery).toHaveBeenCalledTimes(2);
  });

  it('runs every search when turned off', async () => {
    for (const resultCache of [false, { maxBytes: 0 }] as const) {
      const { engine, ctx, lexical } = await seeded({ search: { resultCache } });
      await search(engine, ctx);
      await search(engine, ctx);
      expect(lexical).toHaveBeenCalledTimes(2);
    }
  });

  it('holds no more than its memory budget', async () => {
    const { engine, ctx, lexical } = await seeded({ search: { resultCache: { maxBytes: 2_000 } } });
    // Each answer is ~500 bytes by the estimate: a budget of 2,000 keeps the last few only.
    for (let i = 0; i < 10; i++) await search(engine, ctx, `refunds ${i}`);
    lexical.mockClear();
    await search(engine, ctx, 'refunds 9');
    expect(lexical).toHaveBeenCalledTimes(0);
    await search(engine, ctx, 'refunds 0');
    expect(lexical).toHaveBeenCalledTimes(1);
  });
});
