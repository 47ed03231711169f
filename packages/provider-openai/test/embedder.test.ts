import type { ServerResponse } from 'node:http';
import { embedInBatches } from '@panya/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OpenAIEmbedder } from '../src/index.js';
import { fakeEmbedding as vectorFor, sendEmbeddings, sendError, startFakeOpenAI, type EmbeddingsBody, type FakeOpenAI, type FakeOpenAIRequest } from '../src/testing/index.js';

interface Recorded {
  headers: FakeOpenAIRequest['headers'];
  body: EmbeddingsBody;
}

type Handler = (req: Recorded, res: ServerResponse, n: number) => void;

function normalised(v: number[]): number[] {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

const reply = (res: ServerResponse, body: EmbeddingsBody, opts: { reverse?: boolean; dims?: number } = {}) => sendEmbeddings(res, body, { ...opts, dims: opts.dims ?? body.dimensions ?? 4 });
const apiError = (res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) => sendError(res, status, message, { headers });

let fake: FakeOpenAI;
let baseUrl: string;
let requests: FakeOpenAIRequest[];
const handle = (handler: Handler) => fake.handle((req, res, n) => handler(req, res, n));

beforeAll(async () => {
  fake = await startFakeOpenAI();
  baseUrl = fake.url;
  requests = fake.requests;
});

afterAll(async () => {
  await fake.close();
});

beforeEach(() => {
  fake.reset();
});

const make = (extra: Partial<ConstructorParameters<typeof OpenAIEmbedder>[0]> = {}) =>
  new OpenAIEmbedder({ apiKey: 'sk-test', baseUrl, model: 'test-embed', dimension: 4, ...extra });

describe('OpenAIEmbedder', () => {
  it('sends the OpenAI request shape and returns normalised vectors', async () => {
    const embedder = make();
    const { embeddings: [v], usage } = await embedder.embedDocuments(['hello']);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.headers.authorization).toBe('Bearer sk-test');
    expect(requests[0]!.body).toEqual({ model: 'test-embed', input: ['hello'], encoding_format: 'float', dimensions: 4 });
    expect(Array.from(v!)).toEqual(normalised(vectorFor('hello')).map((x) => Math.fround(x)));
    expect(embedder.id).toBe('openai:test-embed:4');
    expect(embedder.dimension).toBe(4);
    // The server's prompt_tokens, passed on.
    expect(usage).toEqual({ tokens: 1 });
  });

  it('is batched by core: one request per maxBatch texts, in input order; a longer list is refused', async () => {
    const texts = Array.from({ length: 7 }, (_, i) => `text number ${'x'.repeat(i)}`);
    await expect(make({ maxBatch: 3 }).embedDocuments(texts)).rejects.toThrow(/at most 3 texts per call \(maxBatch\)/);
    expect(requests).toHaveLength(0);
    expect(make({ batchSize: 5 }).maxBatch).toBe(5);
    const { embeddings: vectors, usage } = await embedInBatches(make({ maxBatch: 3 }), texts);
    expect(usage).toEqual({ tokens: 20 }); // the fake counts words: 2 + 6 × 3
    expect(requests.map((r) => r.body.input.length)).toEqual([3, 3, 1]);
    expect(requests.flatMap((r) => r.body.input)).toEqual(texts);
    vectors.forEach((v, i) => expect(Array.from(v)).toEqual(normalised(vectorFor(texts[i]!)).map(Math.fround)));
  });

  it('orders results by `index`, not by position in `data`', async () => {
    handle((req, res) => reply(res, req.body, { reverse: true }));
    const texts = ['a', 'bb', 'ccc'];
    const { embeddings: vectors } = await make().embedDocuments(texts);
    vectors.forEach((v, i) => expect(Array.from(v)).toEqual(normalised(vectorFor(texts[i]!)).map(Math.fround)));
  });

  it('omits `dimensions` when the width is the model default', async () => {
    const embedder = new OpenAIEmbedder({ baseUrl, model: 'text-embedding-3-small' });
    expect(embedder.dimension).toBe(1536);
    handle((req, res) => reply(res, req.body, { dims: 1536 }));
    await embedder.embedQuery('q');
    expect(requests[0]!.body).not.toHaveProperty('dimensions');
    expect(requests[0]!.headers.authorization).toBeUndefined();
  });

  it('measures an unknown model width with create()', async () => {
    expect(() => new OpenAIEmbedder({ baseUrl, model: 'mystery' })).toThrow(/dimension/);
    handle((req, res) => reply(res, req.body, { dims: 6 }));
    const embedder = await OpenAIEmbedder.create({ baseUrl, model: 'mystery' });
    expect(embedder.dimension).toBe(6);
    expect(requests[0]!.body).not.toHaveProperty('dimensions');
    expect(await embedder.embedQuery('x')).toHaveLength(6);
  });

  it('retries a 429 after the Retry-After delay', async () => {
    handle((req, res, n) =>
      n === 1 ? apiError(res, 429, 'Rate limit reached', { 'retry-after': '1' }) : reply(res, req.body));
    const started = Date.now();
    const v = await make().embedQuery('hi');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(requests).toHaveLength(2);
    expect(v).toHaveLength(4);
  });

  it('retries a 500 and then succeeds', async () => {
    handle((req, res, n) => (n === 1 ? apiError(res, 500, 'The server had an error') : reply(res, req.body)));
    const { embeddings: [v] } = await make().embedDocuments(['x']);
    expect(requests).toHaveLength(2);
    expect(Array.from(v!)).toEqual(normalised(vectorFor('x')).map(Math.fround));
  });

  it('retries a dropped connection', async () => {
    handle((req, res, n) => (n === 1 ? res.socket!.destroy() : reply(res, req.body)));
    await expect(make().embedQuery('x')).resolves.toHaveLength(4);
    expect(requests).toHaveLength(2);
  });

  it('gives up after maxRetries with the last status and message', async () => {
    handle((_req, res) => apiError(res, 503, 'Overloaded', { 'retry-after-ms': '10' }));
    await expect(make({ maxRetries: 2 }).embedQuery('x')).rejects.toThrow(
      /HTTP 503 Service Unavailable — Overloaded \(gave up after 3 attempts\)/,
    );
    expect(requests).toHaveLength(3);
    await expect(make({ maxRetries: 0 }).embedQuery('x')).rejects.toMatchObject({ name: 'UpstreamError', transient: true });
  });

  it('fails a 401 at once with the API error message', async () => {
    handle((_req, res) => apiError(res, 401, 'Incorrect API key provided: sk-test.'));
    await expect(make().embedQuery('x')).rejects.toThrow(/HTTP 401 Unauthorized — Incorrect API key provided: sk-test\./);
    expect(requests).toHaveLength(1);
    await expect(make().embedQuery('x')).rejects.toMatchObject({ name: 'UpstreamError', transient: false });
  });

  it('does not retry other 4xx errors', async () => {
    handle((_req, res) => apiError(res, 400, "'$.input' is invalid."));
    await expect(make().embedDocuments(['a', 'b'])).rejects.toThrow(/HTTP 400/);
    expect(requests).toHaveLength(1);
  });

  it('aborts an in-flight request on the caller signal', async () => {
    handle(() => {
      // never answers
    });
    const controller = new AbortController();
    const pending = make().embedQuery('slow', { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(requests).toHaveLength(1);
  });

  it('aborts while waiting to retry', async () => {
    handle((_req, res) => apiError(res, 429, 'slow down', { 'retry-after': '30' }));
    const controller = new AbortController();
    const started = Date.now();
    const pending = make().embedQuery('x', { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(requests).toHaveLength(1);
  });

  it('times out a request and retries it', async () => {
    handle((req, res, n) => (n === 1 ? undefined : reply(res, req.body)));
    await expect(make({ timeoutMs: 200 }).embedQuery('x')).resolves.toHaveLength(4);
    expect(requests).toHaveLength(2);
  });

  it('rejects vectors of the wrong width', async () => {
    handle((req, res) => reply(res, req.body, { dims: 3 }));
    await expect(make().embedDocuments(['a'])).rejects.toThrow(/has 3 dimensions, expected 4/);
  });

  it('rejects a response with the wrong number of embeddings', async () => {
    handle((req, res) => reply(res, { ...req.body, input: req.body.input.slice(1) }));
    await expect(make().embedDocuments(['a', 'b'])).rejects.toThrow(/expected 2 embeddings, got 1/);
  });

  it('makes no request for an empty input list', async () => {
    expect(await make().embedDocuments([])).toEqual({ embeddings: [] });
    expect(requests).toHaveLength(0);
  });
});
