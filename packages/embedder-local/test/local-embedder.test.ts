import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { embedInBatches } from '@panya/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalEmbedder } from '../src/index.js';

// shared/ sits beside the repository checkout (<root>/main and <root>/shared), or PANYA_SHARED_DIR.
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const modelsDir = path.resolve(process.env.PANYA_SHARED_DIR ?? path.resolve(repoRoot, '../shared'), 'models');
const fixture = path.join(modelsDir, 'tiny-random-bert');
const inCi = !!process.env.CI && process.env.CI !== 'false' && process.env.CI !== '0';
const present = existsSync(path.join(fixture, 'onnx', 'model.onnx'));
// An outside contributor has no shared/: skip with a notice (CI has it and must run these).
if (!present && !inCi) console.warn(`LocalEmbedder tests skipped: model fixture not found at ${fixture} (set PANYA_SHARED_DIR to the shared/ folder to run them).`);

// Random-weight fixture: these tests check mechanics (shape, normalisation, batching,
// prefixes), never retrieval quality.
const base = { model: 'tiny-random-bert', dtype: 'fp32', localModelPath: modelsDir, allowRemoteModels: false } as const;

const norm = (v: Float32Array) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
const maxDiff = (a: Float32Array, b: Float32Array) => Math.max(...a.map((x, i) => Math.abs(x - b[i]!)));

describe.skipIf(!present && !inCi)('LocalEmbedder (offline, tiny-random-bert fixture)', () => {
  let plain: LocalEmbedder;
  let prefixed: LocalEmbedder;

  beforeAll(async () => {
    if (!existsSync(path.join(fixture, 'onnx', 'model.onnx'))) {
      throw new Error(
        `Model fixture not found at ${fixture}. The shared/ folder must sit beside the repository checkout ` +
          `(expected shared/models/tiny-random-bert with config.json, tokenizer.json and onnx/model.onnx).`,
      );
    }
    plain = await LocalEmbedder.create({ ...base, batchSize: 2 });
    prefixed = await LocalEmbedder.create({ ...base, queryPrefix: 'query: ', passagePrefix: 'passage: ' });
  });

  afterAll(async () => {
    await plain?.dispose();
    await prefixed?.dispose();
  });

  it('reports its id and the dimension read from the model', () => {
    expect(plain.id).toBe('local:tiny-random-bert:fp32');
    expect(plain.dimension).toBe(32);
  });

  it('returns L2-normalised vectors of the model dimension', async () => {
    const { embeddings: [a, b] } = await plain.embedDocuments(['the quick brown fox', 'jumps over the lazy dog']);
    const q = await plain.embedQuery('a fox');
    for (const v of [a!, b!, q]) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v).toHaveLength(32);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    expect(maxDiff(a!, b!)).toBeGreaterThan(1e-3);
  });

  it('gives the same vectors in batches as one by one, in input order', async () => {
    const texts = [
      'short',
      'a considerably longer sentence that needs padding in a batch with short ones',
      'third text',
      'ภาษาไทย',
      'fifth and last text here',
    ];
    const { embeddings: batched } = await embedInBatches(plain, texts); // batchSize 2: three inference calls
    expect(batched).toHaveLength(texts.length);
    for (let i = 0; i < texts.length; i++) {
      const { embeddings: [single] } = await plain.embedDocuments([texts[i]!]);
      expect(maxDiff(batched[i]!, single!)).toBeLessThan(1e-5);
    }
  });

  it('is deterministic across calls and instances', async () => {
    const again = await LocalEmbedder.create(base);
    try {
      const { embeddings: [a] } = await plain.embedDocuments(['determinism check']);
      const { embeddings: [b] } = await plain.embedDocuments(['determinism check']);
      const { embeddings: [c] } = await again.embedDocuments(['determinism check']);
      expect(Array.from(b!)).toEqual(Array.from(a!));
      expect(maxDiff(a!, c!)).toBeLessThan(1e-6);
    } finally {
      await again.dispose();
    }
  });

  it('adds the query and passage prefixes', async () => {
    const text = 'what is a knowledge base';
    const q = await prefixed.embedQuery(text);
    const { embeddings: [p] } = await prefixed.embedDocuments([text]);
    expect(maxDiff(q, p!)).toBeGreaterThan(1e-3);
    expect(maxDiff(q, (await plain.embedDocuments([`query: ${text}`])).embeddings[0]!)).toBeLessThan(1e-5);
    expect(maxDiff(p!, (await plain.embedDocuments([`passage: ${text}`])).embeddings[0]!)).toBeLessThan(1e-5);
    // Models without prefixes embed queries and passages identically.
    expect(maxDiff(await plain.embedQuery(text), (await plain.embedDocuments([text])).embeddings[0]!)).toBeLessThan(1e-6);
  });

  it('returns an empty list for no documents', async () => {
    expect(await plain.embedDocuments([])).toEqual({ embeddings: [] });
  });

  it('stops on an aborted signal', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(plain.embedDocuments(['x', 'y'], { signal: controller.signal })).rejects.toThrow(/abort/i);
  });

  it('fails with a clear error when the model cannot be loaded offline', async () => {
    await expect(LocalEmbedder.create({ ...base, model: 'no-such-model' })).rejects.toThrow(
      /Cannot load local embedding model "no-such-model" \(dtype fp32\)/,
    );
  });

  it('finds a model placed in the cache folder without a separate localModelPath', async () => {
    const { localModelPath: _, ...withoutLocalPath } = base;
    const fromCache = await LocalEmbedder.create({ ...withoutLocalPath, cacheDir: modelsDir });
    try {
      const { embeddings: [a] } = await fromCache.embedDocuments(['cache layout']);
      const { embeddings: [b] } = await plain.embedDocuments(['cache layout']);
      expect(maxDiff(a!, b!)).toBeLessThan(1e-6);
    } finally {
      await fromCache.dispose();
    }
  });

  it('rejects a non-positive batch size', async () => {
    await expect(LocalEmbedder.create({ ...base, batchSize: 0 })).rejects.toThrow(/batchSize/);
  });
});
