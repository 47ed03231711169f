import { describe, expect, it } from 'vitest';
import { createEngine, embedInBatches, ExtractiveGenerator, HashEmbedder, type Embedder } from '../src/index.js';
import { describeEmbedderConformance, describeGeneratorConformance } from '../src/testing/index.js';
import { openSqliteStore } from '@panya/store-sqlite';

describeEmbedderConformance('hash', () => new HashEmbedder());
describeEmbedderConformance('hash, small batches', () => new HashEmbedder({ dimension: 64, maxBatch: 2 }));
describeGeneratorConformance('extractive', () => new ExtractiveGenerator());

describe('provider contract checks', () => {
  it('refuses an embedder or generator written for another specification version, naming what changed', () => {
    const store = openSqliteStore({ path: ':memory:' });
    const legacy = { id: 'legacy', dimension: 8, embedDocuments: async (t: readonly string[]) => t.map(() => new Float32Array(8)), embedQuery: async () => new Float32Array(8) } as unknown as Embedder;
    expect(() => createEngine({ store, embedder: legacy })).toThrow(/Embedder "legacy" implements specification undefined; .*specificationVersion 'v1'.*maxBatch/);
    const generator = { id: 'old-gen', generate: async function* () {} } as unknown as ExtractiveGenerator;
    expect(() => createEngine({ store, generator })).toThrow(/Generator "old-gen" implements specification undefined/);
    expect(() => createEngine({ store, embedder: Object.assign(Object.create(new HashEmbedder()) as HashEmbedder, { maxBatch: 0 }) })).toThrow(/maxBatch must be a positive integer, got 0/);
  });

  it('embedInBatches checks each batch: a wrong count or width stops it with the embedder named', async () => {
    const inner = new HashEmbedder({ dimension: 16, maxBatch: 2 });
    const short: Embedder = { ...inner, specificationVersion: 'v1', id: inner.id, dimension: 16, maxBatch: 2, embedQuery: (t) => inner.embedQuery(t), embedDocuments: async (t) => ({ embeddings: (await inner.embedDocuments(t)).embeddings.slice(1) }) };
    await expect(embedInBatches(short, ['a', 'b', 'c'])).rejects.toThrow(/returned 1 vectors for 2 texts/);
    const narrow: Embedder = { ...short, embedDocuments: async (t) => ({ embeddings: t.map(() => new Float32Array(8)) }) };
    await expect(embedInBatches(narrow, ['a'])).rejects.toThrow(/8-dimensional vector; it declares 16/);
    const counted: Embedder = { ...short, embedDocuments: async (t) => ({ embeddings: (await inner.embedDocuments(t)).embeddings, usage: { tokens: t.length * 10 } }) };
    expect((await embedInBatches(counted, ['a', 'b', 'c'])).usage).toEqual({ tokens: 30 });
    expect((await embedInBatches(inner, ['a', 'b', 'c'])).usage).toBeUndefined();
  });
});
