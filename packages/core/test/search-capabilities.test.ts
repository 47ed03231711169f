import { describe, expect, it, vi } from 'vitest';
import { createEngine, HashEmbedder } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';

async function seeded(capabilities?: { trigram: boolean; vectors: boolean }) {
  const store = openSqliteStore({ path: ':memory:' });
  if (capabilities) Object.defineProperty(store.search, 'capabilities', { value: capabilities });
  const embedder = new HashEmbedder();
  const engine = createEngine({ store, embedder });
  (await engine.tenancy.createTenant({ slug: 'acme', plan: 'enterprise' }))._unsafeUnwrap();
  const ctx = (await engine.access.system('acme'))._unsafeUnwrap();
  (await engine.documents.create(ctx, { title: 'การคืนเงิน', contentMd: 'การคืนเงินภายในเจ็ดวันทำการ refunds arrive within seven days' }, { wait: true }))._unsafeUnwrap();
  const calls = { trigram: vi.spyOn(store.search, 'trigram'), semantic: vi.spyOn(store.search, 'semantic'), embedQuery: vi.spyOn(embedder, 'embedQuery') };
  return { engine, ctx, calls };
}

describe('search index capabilities', () => {
  it('asks every channel of an index that declares them all', async () => {
    const { engine, ctx, calls } = await seeded();
    expect(await engine.search.retrieve(ctx.scope, 'คืนเงิน zzqx', 5, { lexical: 1, semantic: 1, trigram: 1 })).not.toEqual([]);
    expect(calls.embedQuery).toHaveBeenCalled();
    expect(calls.semantic).toHaveBeenCalled();
    expect(calls.trigram).toHaveBeenCalled();
    await engine.close();
  });

  it('never asks for a channel the index declares it lacks, and still answers from the others', async () => {
    const { engine, ctx, calls } = await seeded({ trigram: false, vectors: false });
    const hits = await engine.search.retrieve(ctx.scope, 'refunds คืนเงิน', 5, { lexical: 1, semantic: 1, trigram: 1 });
    expect(hits.length).toBeGreaterThan(0);
    expect(calls.embedQuery).not.toHaveBeenCalled();
    expect(calls.semantic).not.toHaveBeenCalled();
    expect(calls.trigram).not.toHaveBeenCalled();
    await engine.close();
  });
});
