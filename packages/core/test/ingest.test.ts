import { describe, expect, it } from 'vitest';
import { createEngine, HashEmbedder, isEmbedderMismatchError, type Contextualizer, type Embedder } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { engineInternals } from '@panya/core/testing';

/** Records what it was asked and answers with a fixed prefix. */
class FakeContextualizer implements Contextualizer {
  readonly id = 'fake-ctx';
  calls: string[] = [];
  async contextualize(input: { documentTitle: string; chunkText: string }) {
    this.calls.push(input.chunkText);
    return { prefix: `From the ${input.documentTitle} policy.`, usage: { inputTokens: 10, outputTokens: 5 } };
  }
}

/** Remembers the texts it embedded. */
class RecordingEmbedder implements Embedder {
  readonly specificationVersion = 'v1';
  private readonly inner = new HashEmbedder();
  readonly id = this.inner.id;
  readonly dimension = this.inner.dimension;
  readonly maxBatch = this.inner.maxBatch;
  texts: string[] = [];
  async embedDocuments(texts: readonly string[]) {
    this.texts.push(...texts);
    return this.inner.embedDocuments(texts);
  }
  embedQuery(text: string) {
    return this.inner.embedQuery(text);
  }
}

async function setup(contextualizer?: Contextualizer) {
  const embedder = new RecordingEmbedder();
  const engine = createEngine({ store: openSqliteStore({ path: ':memory:' }), embedder, ...(contextualizer ? { contextualizer } : {}) });
  (await engine.tenancy.createTenant({ slug: 'acme' }))._unsafeUnwrap();
  const ctx = (await engine.access.system('acme'))._unsafeUnwrap();
  return { engine, embedder, ctx };
}

describe('contextualization at ingest', () => {
  it('embeds each chunk with its context prefix and records one billable call per chunk, again on reindex', async () => {
    const contextualizer = new FakeContextualizer();
    const { engine, embedder, ctx } = await setup(contextualizer);
    const doc = (await engine.documents.create(ctx, { title: 'Refund', contentMd: '# Refund\n\n## Timing\n\nSeven days.\n\n## Conditions\n\nUnused items only.' }, { wait: true }))._unsafeUnwrap();
    expect(doc.status).toBe('indexed');
    expect(contextualizer.calls).toEqual(['Seven days.', 'Unused items only.']);
    expect(embedder.texts.every((t) => t.startsWith('From the Refund policy.'))).toBe(true);
    expect((await engine.usage.ledger(ctx.tenant.id)).meters).toEqual({ contextualization: 2 });
    (await engine.documents.reindex(ctx, doc.id, { wait: true }))._unsafeUnwrap();
    expect((await engine.usage.ledger(ctx.tenant.id)).meters).toEqual({ contextualization: 4 });
    await engine.close();
  });

  it('is off unless a contextualizer is configured', async () => {
    const { engine, embedder, ctx } = await setup();
    (await engine.documents.create(ctx, { title: 'Refund', contentMd: 'Seven days.' }, { wait: true }))._unsafeUnwrap();
    expect(embedder.texts).toEqual(['Refund\nSeven days.']);
    expect((await engine.usage.ledger(ctx.tenant.id)).meters).toEqual({});
    await engine.close();
  });
});

describe('ingest queue', () => {
  it('indexes queued documents in batches with one transaction each and reports the outcome', async () => {
    const { engine, ctx } = await setup();
    const created = (await engine.documents.bulk(ctx, { create: Array.from({ length: 70 }, (_, i) => ({ title: `Doc ${i}`, contentMd: `Body number ${i}` })) }))._unsafeUnwrap();
    expect(await engineInternals(engine).store.documents.countByStatus(ctx.scope)).toMatchObject({ pending: 70 });
    expect(await engine.ingest.drain()).toBe(70);
    expect(await engineInternals(engine).store.documents.countByStatus(ctx.scope)).toMatchObject({ pending: 0, indexed: 70 });
    expect(await engineInternals(engine).store.search.countChunks(ctx.scope)).toBe(70);
    await engine.documents.delete(ctx, created[0]!.id);
    expect(await engineInternals(engine).store.search.countChunks(ctx.scope)).toBe(69);
    await engine.close();
  });

  it('refuses to mix embedders: a different embedder on a filled index is an error pointing to reindex', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    const first = createEngine({ store });
    (await first.tenancy.createTenant({ slug: 'acme' }))._unsafeUnwrap();
    const ctx = (await first.access.system('acme'))._unsafeUnwrap();
    (await first.documents.create(ctx, { title: 'T', contentMd: 'x' }, { wait: true }))._unsafeUnwrap();
    const second = createEngine({ store, embedder: new HashEmbedder({ dimension: 256 }) });
    await expect(second.start()).rejects.toThrow(/panya reindex --all/);
    // Refused before anything changed: the index keeps its embedder (with no model, its chunks
    // have no stored vectors, and a switch to stored ones must still embed them all).
    const refused = await second.start().catch((error: unknown) => error);
    expect(isEmbedderMismatchError(refused)).toBe(true);
    expect(String((refused as Error).message)).toMatch(/"hash-v1-d\d+[^"]*" \(\d+ dimensions\), but the configured embedder is "[^"]+" \(256 dimensions\)/);
    expect(await store.search.getIndexInfo()).toMatchObject({ embedderId: first.embedder.id, dimension: first.embedder.dimension });
    expect(await store.search.hasVectors()).toBe(false);
    expect(await store.search.hasChunks()).toBe(true);
    // Re-indexing everything with the new embedder is the way out.
    expect(await second.ingest.rebuildIndex()).toEqual({ chunks: 1, documents: 1, requeued: 0 });
    expect(await second.ingest.drain()).toBe(0);
    expect(await store.search.getIndexInfo()).toMatchObject({ embedderId: second.embedder.id, dimension: 256 });
    await second.close();
  });
});

describe('embedder switches', () => {
  it('lets an index whose vectors are all gone adopt another embedder at start', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    const first = createEngine({ store });
    (await first.tenancy.createTenant({ slug: 'acme' }))._unsafeUnwrap();
    const ctx = (await first.access.system('acme'))._unsafeUnwrap();
    const doc = (await first.documents.create(ctx, { title: 'T', contentMd: 'x' }, { wait: true }))._unsafeUnwrap();
    expect(await store.search.getIndexInfo()).toMatchObject({ embedderId: first.embedder.id });
    (await first.documents.delete(ctx, doc.id))._unsafeUnwrap();
    const second = createEngine({ store, embedder: new HashEmbedder({ dimension: 256 }) });
    await second.start();
    expect(await store.search.getIndexInfo()).toMatchObject({ embedderId: second.embedder.id, dimension: 256 });
    (await second.documents.create(ctx, { title: 'T', contentMd: 'x' }, { wait: true }))._unsafeUnwrap();
    expect(await store.search.hasVectors()).toBe(true);
    await second.close();
  });
});

describe('full rebuild (reindex --all)', () => {
  /** An embedder that fails on its `failOn`-th batch, counting what it embedded. */
  function flaky(inner: HashEmbedder, failOn = Infinity, meanwhile?: (call: number) => Promise<void>) {
    let calls = 0;
    const embedded: string[] = [];
    const embedder = Object.assign(Object.create(inner) as HashEmbedder, {
      async embedDocuments(texts: readonly string[]) {
        if (++calls === failOn) throw new Error('the embedding service went away');
        await meanwhile?.(calls);
        embedded.push(...texts);
        return inner.embedDocuments(texts);
      },
    });
    return { embedder, embedded };
  }

  it('keeps search answering from the old vectors while it runs, survives a crash midway, resumes, and catches up late writes', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    const live = createEngine({ store, embedder: new HashEmbedder() });
    (await live.tenancy.createTenant({ slug: 'acme' }))._unsafeUnwrap();
    const ctx = (await live.access.system('acme'))._unsafeUnwrap();
    (await live.documents.bulk(ctx, { create: Array.from({ length: 70 }, (_, i) => ({ title: `Doc ${i}`, contentMd: `Body number ${i}` })) }))._unsafeUnwrap();
    await live.ingest.drain();
    const oldInfo = await store.search.getIndexInfo();
    const semanticHits = async () => store.search.semantic(ctx.scope, await live.embedder.embedQuery('Body number 5'), 5);
    expect(await semanticHits()).toHaveLength(5);

    // A run that dies after its first batch: the live index is untouched.
    const crashing = flaky(new HashEmbedder({ dimension: 256 }), 2);
    const first = createEngine({ store, embedder: crashing.embedder });
    const seen: number[] = [];
    await expect(
      first.ingest.rebuildIndex(async (done) => {
        seen.push(done);
      }),
    ).rejects.toThrow(/went away/);
    expect(seen).toEqual([0, 64]);
    expect(await store.search.getIndexInfo()).toEqual(oldInfo);
    expect(await semanticHits()).toHaveLength(5);

    // The next run embeds only what is missing, including a document written while it runs.
    const resumed = flaky(new HashEmbedder({ dimension: 256 }), Infinity, async (call) => {
      if (call !== 1) return;
      // The live process keeps indexing with its embedder meanwhile, and search answers from the old vectors.
      (await live.documents.create(ctx, { title: 'Late', contentMd: 'Written during the rebuild' }, { wait: true }))._unsafeUnwrap();
      expect(await semanticHits()).toHaveLength(5);
    });
    const second = createEngine({ store, embedder: resumed.embedder });
    const result = await second.ingest.rebuildIndex();
    expect(result).toEqual({ chunks: 71, documents: 71, requeued: 0 });
    expect(resumed.embedded.length).toBe(7); // 6 left by the crash, 1 written meanwhile
    expect(await store.search.getIndexInfo()).toMatchObject({ embedderId: second.embedder.id, dimension: 256 });
    expect(await second.search.retrieve(ctx.scope, 'Body number 5', 5)).not.toHaveLength(0);
    expect(await store.search.semantic(ctx.scope, await second.embedder.embedQuery('Written during the rebuild'), 1)).toHaveLength(1);
    // The process still on the old embedder gets keyword results, not an error.
    expect(await semanticHits()).toEqual([]);
    expect((await live.search.retrieve(ctx.scope, 'Body number 5', 5)).length).toBeGreaterThan(0);
    await Promise.all([live.close(), first.close(), second.close()]);
  });
});

describe('citation snippets', () => {
  it('are plain text: no markdown markers or table rules', async () => {
    const { citationsIn } = await import('@panya/core');
    const text = '## Fees\n\n- **Standard** delivery: `60 THB`\n\n| Zone | Fee |\n|---|---|\n| Bangkok | 40 THB |';
    const [citation] = citationsIn('Fees are listed [1]', { passages: [{ n: 1, chunkId: 'chk_1', documentId: 'doc_1', title: 'Shipping', headingPath: [], text }], urls: new Map() });
    expect(citation!.snippet).toBe('Fees Standard delivery: 60 THB Zone · Fee Bangkok · 40 THB');
  });
});

describe('tokenizer version', () => {
  it('is recorded with a new index, and a different one on start is a warning pointing to reindex', async () => {
    const { TOKENIZER_VERSION } = await import('@panya/core');
    const store = openSqliteStore({ path: ':memory:' });
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, warn: (msg: string) => warnings.push(msg), error() {} };
    const engine = createEngine({ store, logger });
    await engine.start();
    expect((await store.search.getIndexInfo())?.tokenizer).toBe(TOKENIZER_VERSION);
    expect(warnings).toEqual([]);
    await engine.close();

    const older = openSqliteStore({ path: ':memory:' });
    const hash = new HashEmbedder();
    await older.search.setIndexInfo({ embedderId: hash.id, dimension: hash.dimension, tokenizer: 'seg-porter-v0/icu-70.1' });
    const upgraded = createEngine({ store: older, logger });
    await upgraded.start();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/panya reindex --all/);
    await upgraded.ingest.rebuildIndex();
    expect((await older.search.getIndexInfo())?.tokenizer).toBe(TOKENIZER_VERSION);
    await upgraded.close();
  });
});
