/**
 * The provider conformance suites: the `Embedder` and `Generator` contracts, tested once and run
 * by every implementation's own tests — `describeEmbedderConformance('hash', () => new HashEmbedder())`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedInBatches } from '../search/embedder-batches.js';
import type { Embedder, EmbedResult } from '../search/ports/embedder.js';
import type { GenerateRequest, Generator, GeneratorEvent } from '../answers/ports/generator.js';

export interface EmbedderConformanceOptions {
  /** The provider reports token usage on every `embedDocuments` call (OpenAI-compatible servers do). */
  reportsUsage?: boolean;
  /** Largest difference allowed between a text's vector embedded alone and within a batch (batched inference pads). Default 1e-5. */
  tolerance?: number;
  /** Releases what the factory opened (a model session). */
  cleanup?: (embedder: Embedder) => Promise<void> | void;
}

const TEXTS = [
  'Refunds take seven business days.',
  'Shipping',
  'ส่งสินค้าภายในสามวันทำการ',
  'A considerably longer passage about warranty claims, repairs and replacement parts.',
  'x',
];

const norm = (v: Float32Array) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
const maxDiff = (a: Float32Array, b: Float32Array) => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i]!)), 0);

export function describeEmbedderConformance(name: string, factory: () => Embedder | Promise<Embedder>, options: EmbedderConformanceOptions = {}): void {
  const tolerance = options.tolerance ?? 1e-5;

  describe(`embedder conformance: ${name}`, () => {
    let embedder: Embedder;
    beforeAll(async () => {
      embedder = await factory();
    });
    afterAll(async () => {
      if (embedder) await options.cleanup?.(embedder);
    });

    const alone = async (text: string) => (await embedder.embedDocuments([text])).embeddings[0]!;

    it('declares specification v1, a stable id, its dimension and maxBatch', () => {
      expect(embedder.specificationVersion).toBe('v1');
      expect(typeof embedder.id).toBe('string');
      expect(embedder.id.length).toBeGreaterThan(0);
      expect(Number.isInteger(embedder.dimension) && embedder.dimension > 0).toBe(true);
      expect(Number.isInteger(embedder.maxBatch) && embedder.maxBatch > 0).toBe(true);
    });

    it('embeds a batch of N texts into N unit vectors of its dimension, in input order', async () => {
      const texts = TEXTS.slice(0, Math.min(TEXTS.length, embedder.maxBatch));
      const { embeddings } = await embedder.embedDocuments(texts);
      expect(embeddings).toHaveLength(texts.length);
      for (const [i, v] of embeddings.entries()) {
        expect(v).toBeInstanceOf(Float32Array);
        expect(v).toHaveLength(embedder.dimension);
        expect(norm(v)).toBeCloseTo(1, 3);
        expect(maxDiff(v, await alone(texts[i]!)), `vector ${i} is not the vector of text ${i}`).toBeLessThan(tolerance);
      }
      if (texts.length > 1) expect(maxDiff(embeddings[0]!, embeddings[1]!)).toBeGreaterThan(1e-4);
    });

    it('keeps its dimension: queries and documents have the same width, and the same text gives the same vector', async () => {
      const query = await embedder.embedQuery(TEXTS[0]!);
      expect(query).toBeInstanceOf(Float32Array);
      expect(query).toHaveLength(embedder.dimension);
      expect(norm(query)).toBeCloseTo(1, 3);
      expect(maxDiff(query, await embedder.embedQuery(TEXTS[0]!))).toBeLessThan(tolerance);
      expect(maxDiff(await alone(TEXTS[2]!), await alone(TEXTS[2]!))).toBeLessThan(tolerance);
    });

    it('returns no vectors for no texts', async () => {
      const result = await embedder.embedDocuments([]);
      expect(result.embeddings).toEqual([]);
    });

    it('takes at most maxBatch texts per call; core splits a longer list into calls of at most maxBatch, in order', async () => {
      const total = embedder.maxBatch * 2 + 1;
      const texts = Array.from({ length: total }, (_, i) => `passage ${i}: ${'more words '.repeat(i % 5)}about item ${i}`);
      await expect(embedder.embedDocuments(texts.slice(0, embedder.maxBatch + 1))).rejects.toThrow(/maxBatch/);

      const calls: number[] = [];
      let reported = 0;
      const recording: Embedder = {
        specificationVersion: 'v1',
        id: embedder.id,
        dimension: embedder.dimension,
        maxBatch: embedder.maxBatch,
        async embedDocuments(batch, o): Promise<EmbedResult> {
          calls.push(batch.length);
          const result = await embedder.embedDocuments(batch, o);
          reported += result.usage?.tokens ?? 0;
          return result;
        },
        embedQuery: (text, o) => embedder.embedQuery(text, o),
      };
      const result = await embedInBatches(recording, texts);
      expect(calls).toEqual([embedder.maxBatch, embedder.maxBatch, 1]);
      expect(result.embeddings).toHaveLength(total);
      for (const i of [0, embedder.maxBatch - 1, embedder.maxBatch, total - 1]) {
        expect(maxDiff(result.embeddings[i]!, await alone(texts[i]!)), `vector ${i}`).toBeLessThan(tolerance);
      }
      if (options.reportsUsage) expect(result.usage).toEqual({ tokens: reported });
    });

    it('stops on an aborted signal', async () => {
      const signal = AbortSignal.abort();
      await expect(embedder.embedDocuments(['a', 'b'], { signal })).rejects.toMatchObject({ name: 'AbortError' });
      await expect(embedder.embedQuery('a', { signal })).rejects.toMatchObject({ name: 'AbortError' });
    });

    it(options.reportsUsage ? 'reports usage as a positive whole number of tokens' : 'reports usage, if at all, as a whole number of tokens', async () => {
      const { usage } = await embedder.embedDocuments(TEXTS.slice(0, Math.min(2, embedder.maxBatch)));
      if (options.reportsUsage) expect(usage).toBeDefined();
      if (usage === undefined) return;
      expect(Object.keys(usage)).toEqual(['tokens']);
      expect(Number.isInteger(usage.tokens)).toBe(true);
      expect(usage.tokens).toBeGreaterThan(0);
    });
  });
}

export interface GeneratorConformanceOptions {
  /** A request the generator answers from its context (default: a refunds question and passage). */
  request?: GenerateRequest;
  cleanup?: (generator: Generator) => Promise<void> | void;
}

const GROUNDED: GenerateRequest = {
  query: 'How long do refunds take?',
  locale: 'en',
  context: [
    { n: 1, chunkId: 'chk_refunds', documentId: 'doc_refunds', title: 'Refunds', headingPath: ['Refunds'], text: 'Refunds take 7 business days after we receive the returned item.' },
    { n: 2, chunkId: 'chk_shipping', documentId: 'doc_shipping', title: 'Shipping', headingPath: ['Shipping'], text: 'Orders ship within 2 days from our Bangkok warehouse.' },
  ],
};

async function collect(events: AsyncIterable<GeneratorEvent>, onDelta?: () => void): Promise<GeneratorEvent[]> {
  const out: GeneratorEvent[] = [];
  for await (const e of events) {
    out.push(e);
    if (e.type === 'delta') onDelta?.();
  }
  return out;
}

export function describeGeneratorConformance(name: string, factory: () => Generator | Promise<Generator>, options: GeneratorConformanceOptions = {}): void {
  const request = options.request ?? GROUNDED;

  describe(`generator conformance: ${name}`, () => {
    let generator: Generator;
    beforeAll(async () => {
      generator = await factory();
    });
    afterAll(async () => {
      if (generator) await options.cleanup?.(generator);
    });

    it('declares specification v1 and an id', () => {
      expect(generator.specificationVersion).toBe('v1');
      expect(typeof generator.id).toBe('string');
      expect(generator.id.length).toBeGreaterThan(0);
    });

    it('streams text pieces, then one final done with whole-number usage', async () => {
      const events = await collect(generator.generate(request));
      const deltas = events.filter((e) => e.type === 'delta');
      expect(deltas.length).toBeGreaterThan(0);
      for (const d of deltas) expect(d.type === 'delta' && d.text.length > 0).toBe(true);
      expect(events.filter((e) => e.type === 'done')).toHaveLength(1);
      const done = events.at(-1)!;
      expect(done.type).toBe('done');
      if (done.type !== 'done') return;
      expect(Object.keys(done.usage).sort()).toEqual(['inputTokens', 'outputTokens']);
      for (const n of [done.usage.inputTokens, done.usage.outputTokens]) expect(Number.isInteger(n) && n >= 0).toBe(true);
      expect(done.usage.outputTokens).toBeGreaterThan(0);
    });

    it('cites the passages it answers from by their numbers, and no others', async () => {
      const events = await collect(generator.generate(request));
      const text = events.map((e) => (e.type === 'delta' ? e.text : '')).join('');
      const cited = [...text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
      expect(cited.length).toBeGreaterThan(0);
      for (const n of cited) expect(request.context.map((c) => c.n)).toContain(n);
    });

    it('stops when the signal aborts mid-stream: no throw, no done after the abort', async () => {
      const controller = new AbortController();
      const events = await collect(generator.generate({ ...request, signal: controller.signal }), () => controller.abort());
      // The consumer aborted on the first piece: nothing follows it.
      expect(events).toHaveLength(1);
      expect(events[0]!.type).toBe('delta');
    });

    it('yields nothing for a signal aborted before it starts', async () => {
      expect(await collect(generator.generate({ ...request, signal: AbortSignal.abort() }))).toEqual([]);
    });

    it('condense, when offered, leaves a question without history as it is', async () => {
      if (!generator.condense) return;
      expect(await generator.condense(request.query, [])).toBe(request.query);
    });
  });
}
