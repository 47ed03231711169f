/**
 * The handler compiled from the operation table: its JSON reader (chunked, compressed, limited,
 * UTF-8 only), its writer (status, `Location`, headers), 405 with `Allow`, and the app's
 * per-request work (base headers, CORS, metrics and the access log, help hosts) on every JSON
 * route — as the server's listener (`requestListener`, what `panya serve` runs) and when the app is
 * mounted in another Express app.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateSync, gzipSync } from 'node:zlib';
import express from 'express';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, parseHelpHost, type Engine, type Logger } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { createPanyaApp, requestListener } from '@panya/adapter-express';
import { makeTenant } from './helpers.js';

const API = 'api.panya.example';
const HELP = 'help.panya.example';
const SHOP = 'https://shop.example';
const LIMIT = 2_000;

type Sent = { status: number; headers: Record<string, string | string[] | undefined>; text: string; json: () => any };

let engine: Engine;
let acme: Awaited<ReturnType<typeof makeTenant>>;
let server: Server;
let lines: { msg: string; data?: Record<string, unknown> }[];

function listen(handler: Parameters<typeof createServer>[1]): Promise<Server> {
  const s = createServer(handler);
  return new Promise((resolve) => s.listen(0, '127.0.0.1', () => resolve(s)));
}

/** Sends raw bytes with exactly these headers; `chunks` are written one by one (chunked when no length is given). */
function send(method: string, path: string, headers: Record<string, string>, chunks: (string | Buffer)[] = [], to = server): Promise<Sent> {
  const { port } = to.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers: { Host: API, ...headers } }, (res) => {
      const body: Buffer[] = [];
      res.on('data', (c: Buffer) => body.push(c));
      res.on('end', () => {
        const text = Buffer.concat(body).toString();
        resolve({ status: res.statusCode!, headers: res.headers, text, json: () => JSON.parse(text) });
      });
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

const json = (value: unknown) => JSON.stringify(value);
const withLength = (body: string | Buffer) => ({ 'Content-Length': String(Buffer.byteLength(body)) });

beforeEach(async () => {
  lines = [];
  const logger: Logger = { debug: () => {}, info: (msg, data) => lines.push({ msg, ...(data ? { data } : {}) }), warn: () => {}, error: () => {} };
  engine = createEngine({ store: openSqliteStore({ path: ':memory:' }), helpHost: parseHelpHost(HELP) });
  acme = await makeTenant(engine, 'acme');
  const app = createPanyaApp(engine, { logger, jsonLimitBytes: LIMIT, helpCenter: { apiHostname: API } });
  // As `panya serve` runs it: the compiled handler first, Express only for what it passes on.
  server = await listen(requestListener(app));
  const auth = { Authorization: `Bearer ${acme.key}`, 'Content-Type': 'application/json' };
  const doc = json({ title: 'Refunds', contentMd: 'Refunds go back to the original card within 7 days.' });
  expect((await send('POST', '/api/docs?wait=true', { ...auth, ...withLength(doc) }, [doc])).status).toBe(201);
  const settings = json({ allowedOrigins: [SHOP] });
  expect((await send('PATCH', '/api/tenant/settings', { ...auth, ...withLength(settings) }, [settings])).status).toBe(200);
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await engine.close();
});

describe('the compiled handler reads JSON bodies', () => {
  const auth = () => ({ Authorization: `Bearer ${acme.key}`, 'Content-Type': 'application/json' });
  const query = json({ query: 'refunds card' });

  it('chunked, gzip, deflate or plain: the same answer on every JSON route', async () => {
    const plain = await send('POST', '/api/search', { ...auth(), ...withLength(query) }, [query]);
    expect(plain.status).toBe(200);
    const chunked = await send('POST', '/api/search', { ...auth(), 'Transfer-Encoding': 'chunked' }, [query.slice(0, 5), query.slice(5)]);
    const gzipped = await send('POST', '/api/search', { ...auth(), 'Content-Encoding': 'gzip', ...withLength(gzipSync(query)) }, [gzipSync(query)]);
    const deflated = await send('POST', '/api/search', { ...auth(), 'Content-Encoding': 'deflate', ...withLength(deflateSync(query)) }, [deflateSync(query)]);
    for (const other of [chunked, gzipped, deflated]) expect(other.json().results).toEqual(plain.json().results);
    // A write route, compressed and chunked.
    const created = gzipSync(json({ title: 'Shipping', contentMd: 'Parcels ship in 2 days.' }));
    const sent = await send('POST', '/c/acme/api/docs', { ...auth(), 'Content-Encoding': 'gzip', 'Transfer-Encoding': 'chunked' }, [created.subarray(0, 10), created.subarray(10)]);
    expect(sent.status).toBe(201);
    expect(sent.json().title).toBe('Shipping');
  });

  it('refuses past the limit (declared, chunked or inflated), other charsets, bad UTF-8 and unknown encodings, changing nothing', async () => {
    const big = json({ query: 'x'.repeat(LIMIT) });
    expect((await send('POST', '/api/search', { ...auth(), ...withLength(big) }, [big])).status).toBe(413);
    expect((await send('POST', '/api/search', { ...auth(), 'Transfer-Encoding': 'chunked' }, [big.slice(0, 1000), big.slice(1000)])).status).toBe(413);
    const bomb = gzipSync(json({ title: 'a'.repeat(50_000), contentMd: 'x' }));
    expect(bomb.length).toBeLessThan(LIMIT);
    const inflated = await send('POST', '/api/docs', { ...auth(), 'Content-Encoding': 'gzip', ...withLength(bomb) }, [bomb]);
    expect(inflated.status).toBe(413);
    expect(inflated.json()).toMatchObject({ code: 'payload_too_large', maxBytes: LIMIT });
    const latin = await send('POST', '/api/search', { ...auth(), 'Content-Type': 'application/json; charset=iso-8859-1', ...withLength(query) }, [query]);
    expect(latin.status).toBe(415);
    const invalid = Buffer.concat([Buffer.from('{"query":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    expect((await send('POST', '/api/search', { ...auth(), ...withLength(invalid) }, [invalid])).status).toBe(400);
    expect((await send('POST', '/api/search', { ...auth(), 'Content-Encoding': 'zstd', ...withLength(query) }, [query])).status).toBe(415);
    const corrupt = Buffer.from('not gzip at all');
    expect((await send('POST', '/api/search', { ...auth(), 'Content-Encoding': 'gzip', ...withLength(corrupt) }, [corrupt])).status).toBe(400);
    const form = 'title=x&contentMd=y';
    const formed = await send('POST', '/api/docs', { Authorization: `Bearer ${acme.key}`, 'Content-Type': 'application/x-www-form-urlencoded', ...withLength(form) }, [form]);
    expect(formed.status).toBe(415);
    expect(formed.json().detail).toContain('form-encoded');
    const listed = await send('GET', '/api/docs', { Authorization: `Bearer ${acme.key}` });
    expect(listed.json().data).toHaveLength(1);
    // Usage counted nothing for the refused searches (the one good search of the setup is not among them).
    expect((await engine.usage.ledger(acme.tenant.id)).apiQueries.search).toBe(0);
  });
});

describe('the compiled handler writes', () => {
  it('status, Location relative to the API root as addressed, base headers and rate-limit headers', async () => {
    const body = json({ title: 'Shipping', contentMd: 'Parcels ship in 2 days.' });
    const created = await send('POST', '/c/acme/_w/default/api/docs', { Authorization: `Bearer ${acme.key}`, 'Content-Type': 'application/json', 'X-Request-Id': 'req-37', ...withLength(body) }, [body]);
    expect(created.status).toBe(201);
    expect(created.headers.location).toBe(`/c/acme/_w/default/api/docs/${created.json().id}`);
    expect(created.headers).toMatchObject({ 'x-request-id': 'req-37', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'content-type': 'application/json; charset=utf-8' });
    expect(created.headers['panya-api-version']).toBeDefined();
    const q = json({ query: 'shipping' });
    const searched = await send('POST', '/api/search', { Authorization: `Bearer ${acme.key}`, 'Content-Type': 'application/json', ...withLength(q) }, [q]);
    expect(searched.headers['ratelimit-limit']).toBeDefined();
    const deleted = await send('DELETE', `/api/docs/${created.json().id}`, { Authorization: `Bearer ${acme.key}` });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
  });

  it('answers a known path with another method 405 and Allow, before any key; an unknown path stays 404', async () => {
    const wrong = await send('PUT', '/api/search', {});
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe('POST');
    expect(wrong.headers['content-type']).toMatch(/^application\/problem\+json/);
    const docs = await send('PUT', '/c/acme/api/docs/doc_1', {});
    expect(docs.status).toBe(405);
    expect(String(docs.headers.allow).split(', ')).toEqual(expect.arrayContaining(['GET', 'HEAD', 'PATCH', 'DELETE']));
    // Hand-written routes stay the app's (multipart upload, the chat stream) and count in Allow.
    expect((await send('GET', '/api/chat', {})).headers.allow).toBe('POST');
    expect((await send('POST', '/api/nope', {})).status).toBe(404);
    expect((await send('GET', '/api/docs', {})).status).toBe(401);
  });

  it('CORS: an allowed origin is reflected, its preflight answered; another origin gets no allow header', async () => {
    const q = json({ query: 'refunds' });
    const allowed = await send('POST', '/c/acme/api/search', { Authorization: `Bearer ${acme.key}`, 'Content-Type': 'application/json', Origin: SHOP, ...withLength(q) }, [q]);
    expect(allowed.headers['access-control-allow-origin']).toBe(SHOP);
    expect(allowed.headers.vary).toContain('Origin');
    const other = await send('POST', '/c/acme/api/search', { Authorization: `Bearer ${acme.key}`, 'Content-Type': 'application/json', Origin: 'https://evil.example', ...withLength(q) }, [q]);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await send('OPTIONS', '/c/acme/api/search', { Origin: SHOP, 'Access-Control-Request-Method': 'POST' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-methods']).toContain('POST');
    expect((await send('OPTIONS', '/c/acme/api/search', { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' })).status).toBe(403);
  });

  it('records each request in the access log and metrics under its route template, with its tenant', async () => {
    await send('GET', '/c/acme/api/docs/doc_missing', { Authorization: `Bearer ${acme.key}` });
    const metrics = await send('GET', '/metrics', {});
    expect(metrics.text).toMatch(/panya_http_requests_total\{method="GET",route="\/c\/:tenantSlug\/api\/docs\/:id",status="404"\} 1/);
    expect(lines.filter((l) => l.msg === 'request').map((l) => l.data)).toContainEqual(expect.objectContaining({ route: '/c/:tenantSlug/api/docs/:id', tenant: 'acme', status: 404 }));
  });

  it("passes what the table does not describe to the app: health, the OpenAPI document, a malformed path", async () => {
    expect((await send('GET', '/healthz', {})).json()).toEqual({ status: 'ok' });
    expect((await send('GET', '/api/openapi.json', {})).json().openapi).toMatch(/^3\./);
    expect((await send('GET', '/c/%E0%A4%A/api/docs', { Authorization: `Bearer ${acme.key}` })).status).toBe(400);
  });

  it('leaves every path on a help host to the help center', async () => {
    const q = json({ query: 'refunds' });
    const onHelp = await send('POST', '/api/search', { Host: HELP, Authorization: `Bearer ${acme.key}`, 'Content-Type': 'application/json', ...withLength(q) }, [q]);
    expect(onHelp.status).toBe(404);
    expect(onHelp.headers['content-type']).toMatch(/text\/html/);
  });
});

describe('mounted in another Express app', () => {
  it("answers under the mount path, Location included, after the outer app's own middleware", async () => {
    const outer = express();
    const seen: string[] = [];
    outer.use((req, _res, next) => {
      seen.push(req.url);
      next();
    });
    outer.use('/kb', createPanyaApp(engine, { helpCenter: { apiHostname: API } }));
    const mounted = await listen(outer);
    try {
      const body = json({ title: 'Warranty', contentMd: 'Two years.' });
      const created = await send('POST', '/kb/c/acme/api/docs', { Authorization: `Bearer ${acme.key}`, 'Content-Type': 'application/json', ...withLength(body) }, [body], mounted);
      expect(created.status).toBe(201);
      expect(created.headers.location).toBe(`/kb/c/acme/api/docs/${created.json().id}`);
      expect(seen).toEqual(['/kb/c/acme/api/docs']);
      expect((await send('GET', '/kb/api/docs', { Authorization: `Bearer ${acme.key}` }, [], mounted)).json().data).toHaveLength(2);
    } finally {
      mounted.closeAllConnections();
      await new Promise((r) => mounted.close(r));
    }
  });
});
