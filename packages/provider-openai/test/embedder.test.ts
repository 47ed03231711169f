import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OpenAIEmbedder } from '../src/index.js';

interface Recorded {
  headers: IncomingMessage['headers'];
  body: { model: string; input: string[]; encoding_format?: string; dimensions?: number };
}

type Handler = (req: Recorded, res: ServerResponse, n: number) => void;

/** Deterministic, un-normalised vector per text, so tests can tell which input a vector belongs to. */
function vectorFor(text: string, dims = 4): number[] {
  return Array.from({ length: dims }, (_, i) => (text.length + 1) * (i + 1) + (text.charCodeAt(0) || 0) % (i + 2));
}

function normalised(v: number[]): number[] {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

/** OpenAI's wire format for a successful /embeddings response. */
function reply(res: ServerResponse, body: Recorded['body'], opts: { reverse?: boolean; dims?: number } = {}) {
  const data = body.input.map((text, index) => ({
    object: 'embedding',
    index,
    embedding: vectorFor(text, opts.dims ?? body.dimensions ?? 4),
  }));
  if (opts.reverse) data.reverse();
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ object: 'list', data, model: body.model, usage: { prompt_tokens: 1, total_tokens: 1 } }));
}

function apiError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ error: { message, type: 'invalid_request_error', param: null, code: null } }));
}

let server: Server;
let baseUrl: string;
let handler: Handler;
let requests: Recorded[];

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
        apiError(res, 404, `no route ${req.method} ${req.url}`);
        return;
      }
      const rec: Recorded = { headers: req.headers, body: JSON.parse(raw) };
      requests.push(rec);
      handler(rec, res, requests.length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  requests = [];
  handler = (req, res) => reply(res, req.body);
});

const make = (extra: Partial<ConstructorParameters<typeof OpenAIEmbedder>[0]> = {}) =>
  new OpenAIEmbedder({ apiKey: 'sk-test', baseUrl, model: 'test-embed', dimension: 4, ...extra });

describe('OpenAIEmbedder', () => {
  it('sends the OpenAI request shape and returns normalised vectors', async () => {
    const embedder = make();
    const [v] = await embedder.embedDocuments(['hello']);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.headers.authorization).toBe('Bearer sk-test');
    expect(requests[0]!.body).toEqual({ model: 'test-embed', input: ['hello'], encoding_format: 'float', dimensions: 4 });
    expect(Array.from(v!)).toEqual(normalised(vectorFor('hello')).map((x) => Math.fround(x)));
    expect(embedder.id).toBe('openai:test-embed:4');
    expect(embedder.dimension).toBe(4);
  });

  it('splits large inputs into batches and keeps input order', async () => {
    const texts = Array.from({ length: 7 }, (_, i) => `text number ${'x'.repeat(i)}`);
    const vectors = await make({ batchSize: 3 }).embedDocuments(texts);
    expect(requests.map((r) => r.body.input.length)).toEqual([3, 3, 1]);
    expect(requests.flatMap((r) => r.body.input)).toEqual(texts);
    vectors.forEach((v, i) => expect(Array.from(v)).toEqual(normalised(vectorFor(texts[i]!)).map(Math.fround)));
  });

  it('orders results by `index`, not by position in `data`', async () => {
    handler = (req, res) => reply(res, req.body, { reverse: true });
    const texts = ['a', 'bb', 'ccc'];
    const vectors = await make().embedDocuments(texts);
    vectors.forEach((v, i) => expect(Array.from(v)).toEqual(normalised(vectorFor(texts[i]!)).map(Math.fround)));
  });

  it('omits `dimensions` when the width is the model default', async () => {
    const embedder = new OpenAIEmbedder({ baseUrl, model: 'text-embedding-3-small' });
    expect(embedder.dimension).toBe(1536);
    handler = (req, res) => reply(res, req.body, { dims: 1536 });
    await embedder.embedQuery('q');
    expect(requests[0]!.body).not.toHaveProperty('dimensions');
    expect(requests[0]!.headers.authorization).toBeUndefined();
  });

  it('measures an unknown model width with create()', async () => {
    expect(() => new OpenAIEmbedder({ baseUrl, model: 'mystery' })).toThrow(/dimension/);
    handler = (req, res) => reply(res, req.body, { dims: 6 });
    const embedder = await OpenAIEmbedder.create({ baseUrl, model: 'mystery' });
    expect(embedder.dimension).toBe(6);
    expect(requests[0]!.body).not.toHaveProperty('dimensions');
    expect(await embedder.embedQuery('x')).toHaveLength(6);
  });

  it('retries a 429 after the Retry-After delay', async () => {
    handler = (req, res, n) =>
      n === 1 ? apiError(res, 429, 'Rate limit reached', { 'retry-after': '1' }) : reply(res, req.body);
    const started = Date.now();
    const v = await make().embedQuery('hi');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(requests).toHaveLength(2);
    expect(v).toHaveLength(4);
  });

  it('retries a 500 and then succeeds', async () => {
    handler = (req, res, n) => (n === 1 ? apiError(res, 500, 'The server had an error') : reply(res, req.body));
    const [v] = await make().embedDocuments(['x']);
    expect(requests).toHaveLength(2);
    expect(Array.from(v!)).toEqual(normalised(vectorFor('x')).map(Math.fround));
  });

  it('retries a dropped connection', async () => {
    handler = (req, res, n) => (n === 1 ? res.socket!.destroy() : reply(res, req.body));
    await expect(make().embedQuery('x')).resolves.toHaveLength(4);
    expect(requests).toHaveLength(2);
  });

  it('gives up after maxRetries with the last status and message', async () => {
    handler = (_req, res) => apiError(res, 503, 'Overloaded', { 'retry-after-ms': '10' });
    await expect(make({ maxRetries: 2 }).embedQuery('x')).rejects.toThrow(
      /HTTP 503 Service Unavailable — Overloaded \(gave up after 3 attempts\)/,
    );
    expect(requests).toHaveLength(3);
    await expect(make({ maxRetries: 0 }).embedQuery('x')).rejects.toMatchObject({ name: 'UpstreamError', transient: true });
  });

  it('fails a 401 at once with the API error message', async () => {
    handler = (_req, res) => apiError(res, 401, 'Incorrect API key provided: sk-test.');
    await expect(make().embedQuery('x')).rejects.toThrow(/HTTP 401 Unauthorized — Incorrect API key provided: sk-test\./);
    expect(requests).toHaveLength(1);
    await expect(make().embedQuery('x')).rejects.toMatchObject({ name: 'UpstreamError', transient: false });
  });

  it('does not retry other 4xx errors', async () => {
    handler = (_req, res) => apiError(res, 400, "'$.input' is invalid.");
    await expect(make().embedDocuments(['a', 'b'])).rejects.toThrow(/HTTP 400/);
    expect(requests).toHaveLength(1);
  });

  it('aborts an in-flight request on the caller signal', async () => {
    handler = () => {
      // never answers
    };
    const controller = new AbortController();
    const pending = make().embedQuery('slow', { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(requests).toHaveLength(1);
  });

  it('aborts while waiting to retry', async () => {
    handler = (_req, res) => apiError(res, 429, 'slow down', { 'retry-after': '30' });
    const controller = new AbortController();
    const started = Date.now();
    const pending = make().embedQuery('x', { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(requests).toHaveLength(1);
  });

  it('times out a request and retries it', async () => {
    handler = (req, res, n) => (n === 1 ? undefined : reply(res, req.body));
    await expect(make({ timeoutMs: 200 }).embedQuery('x')).resolves.toHaveLength(4);
    expect(requests).toHaveLength(2);
  });

  it('rejects vectors of the wrong width', async () => {
    handler = (req, res) => reply(res, req.body, { dims: 3 });
    await expect(make().embedDocuments(['a'])).rejects.toThrow(/has 3 dimensions, expected 4/);
  });

  it('rejects a response with the wrong number of embeddings', async () => {
    handler = (req, res) => reply(res, { ...req.body, input: req.body.input.slice(1) });
    await expect(make().embedDocuments(['a', 'b'])).rejects.toThrow(/expected 2 embeddings, got 1/);
  });

  it('makes no request for an empty input list', async () => {
    expect(await make().embedDocuments([])).toEqual([]);
    expect(requests).toHaveLength(0);
  });
});
