import { describe, expect, it, vi } from 'vitest';
import { createEngine, HashEmbedder, type Embedder } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';

const docs = [
  { title: 'Refunds', contentMd: 'A refund for damaged items is paid within seven days of the return.' },
  { title: 'Refund policy', contentMd: 'Our refund policy covers items returned unused in their box.' },
  { title: 'Shipping', contentMd: 'Shipping damaged parcels back is free; the refund follows.' },
  { title: 'Store credit', contentMd: 'Instead of a refund you may take store credit for any item.' },
];

async function seeded(embedder?: Embedder) {
  const store = openSqliteStore({ path: ':memory:' });
  const engine = createEngine({ store, ...(embedder ? { embedder } : {}), search: { resultCache: false } });
  (await engine.tenancy.createTenant({ slug: 'acme' }))._unsafeUnwrap();
  const ctx = (await engine.access.system('acme'))._unsafeUnwrap();
  (await engine.documents.bulk(ctx, { create: docs }))._unsafeUnwrap();
  await engine.ingest.drain();
  return { store, engine, ctx };
}

const vectorsOnly = { lexical: 0, semantic: 1, trigram: 0 };

describe('hash vectors with no model', () => {
  it('are never stored, and a search that weighs them ranks its candidates as stored vectors would', async () => {
    const queryTime = await seeded();
    expect(queryTime.engine.embedder.queryTime).toBe(true);
    expect(await queryTime.store.search.hasVectors()).toBe(false);
    expect(await queryTime.store.search.hasChunks()).toBe(true);

    const stored = await seeded(new HashEmbedder());
    expect(await stored.store.search.hasVectors()).toBe(true);

    // Every chunk matches "refund", so the candidates are the whole workspace: both rank the same.
    const ask = async (s: typeof stored) => (await s.engine.search.search(s.ctx, { query: 'refund for damaged items', weights: vectorsOnly, topK: 10 }))._unsafeUnwrap().results;
    const computed = await ask(queryTime);
    expect(computed).toHaveLength(4);
    expect(computed.every((r) => r.semanticRank !== null)).toBe(true);
    expect(computed.map((r) => [r.text, r.score])).toEqual((await ask(stored)).map((r) => [r.text, r.score]));
    await queryTime.engine.close();
    await stored.engine.close();
  });

  it('cost nothing when the channel is not weighed (the default)', async () => {
    const { engine, ctx } = await seeded();
    const embed = vi.spyOn(engine.embedder, 'embedDocuments');
    const query = vi.spyOn(engine.embedder, 'embedQuery');
    expect((await engine.search.search(ctx, { query: 'refund' }))._unsafeUnwrap().results.length).toBeGreaterThan(0);
    expect(embed).not.toHaveBeenCalled();
    expect(query).not.toHaveBeenCalled();
    (await engine.search.search(ctx, { query: 'refund', weights: { semantic: 0.5 } }))._unsafeUnwrap();
    expect(embed).toHaveBeenCalledTimes(1);
    expect(embed.mock.calls[0]![0].length).toBeLessThanOrEqual(4);
    // A chunk's text never changes under its id: its computed vector is reused.
    (await engine.search.search(ctx, { query: 'refund policy', weights: { semantic: 0.5 } }))._unsafeUnwrap();
    expect(embed).toHaveBeenCalledTimes(1);
    await engine.close();
  });
});
