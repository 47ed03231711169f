import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, parseHelpHost, PUBLIC_BUDGETS, silentLogger, type Clock, type Engine } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { createPanyaApp } from '@panya/adapter-express';
import { directRoutes } from '../src/direct-routes.js';
import { createMetrics } from '../src/observability.js';
import { makeTenant } from './helpers.js';
import { engineInternals } from '@panya/core/testing';

const HELP = 'help.panya.example';
const API = 'api.panya.example';
const SHOP = 'https://shop.example';

let engine: Engine;
let acme: Awaited<ReturnType<typeof makeTenant>>;
beforeEach(async () => {
  const clock: Clock = { now: () => new Date('2026-11-21T10:15:00Z') };
  engine = createEngine({ store: openSqliteStore({ path: ':memory:' }), clock, helpHost: parseHelpHost(HELP) });
  acme = await makeTenant(engine, 'acme', undefined, 'business');
  const doc = { title: 'Refunds', contentMd: '# Refunds\n\nRefunds go back to the original payment method within 7 business days.' };
  const app = createPanyaApp(engine);
  await request(app).post('/api/docs?wait=true').set(acme.auth).send(doc).expect(201);
  await request(app).patch('/api/tenant/settings').set(acme.auth).send({ allowedOrigins: [SHOP] }).expect(200);
});
afterEach(() => engine.close());

type Sent = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

/** Sends raw bytes (no client-side defaults) and reads the whole response. */
function send(server: Server, method: string, path: string, headers: Record<string, string>, body?: string | Buffer): Promise<Sent> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function listen(handler: Parameters<typeof createServer>[1]): Promise<Server> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return server;
}

describe('direct routes: which requests skip Express', () => {
  let server: Server;
  beforeEach(async () => {
    const direct = directRoutes({ engine, logger: silentLogger, metrics: createMetrics(engine), jsonLimit: 1_000, bodyTimeoutMs: 5_000, helpCenter: { apiHostname: API } });
    // What the lane leaves is answered 418 here, where the app would hand it to Express.
    server = await listen((req, res) => {
      if (!direct(req, res)) res.writeHead(418).end('express');
    });
  });
  afterEach(() => new Promise<void>((r) => server.close(() => r())));

  const body = JSON.stringify({ query: 'refund' });
  const plain = () => ({ Authorization: `Bearer ${acme.key}`, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) });

  it('answers a plain search and a plain answer on the API host', async () => {
    const found = await send(server, 'POST', '/api/search', plain(), body);
    expect(found.status).toBe(200);
    expect(JSON.parse(found.body).results[0].title).toBe('Refunds');
    expect(found.headers).toMatchObject({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'panya-api-version': '1', 'ratelimit-limit': '60' });
    expect(found.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect((await send(server, 'POST', '/api/search', { ...plain(), 'Content-Type': 'application/json; charset=UTF-8', Host: `${API}:443` }, body)).status).toBe(200);
    expect((await send(server, 'POST', '/api/answer', plain(), body)).status).toBe(200);
    // A browser's request carries CORS headers as on every API route.
    const browser = await send(server, 'POST', '/api/search', { ...plain(), Origin: SHOP }, body);
    expect(browser.headers).toMatchObject({ 'access-control-allow-origin': SHOP, vary: 'Origin' });
    expect(browser.headers['access-control-expose-headers']).toContain('RateLimit-Remaining');
    const stranger = await send(server, 'POST', '/api/search', { ...plain(), Origin: 'https://elsewhere.example' }, body);
    // Core refuses a key from an origin the tenant did not allow; CORS still says so to the browser.
    expect(stranger.status).toBe(403);
    expect(stranger.headers['access-control-allow-origin']).toBeUndefined();
    expect(stranger.headers.vary).toBe('Origin');
  });

  it('leaves to Express every request that asks for more than a key, a JSON body and an answer', async () => {
    const cases: Array<[string, string, string, Record<string, string>, string?]> = [
      ['another method', 'GET', '/api/search', {}],
      ['another route', 'POST', '/api/docs', {}],
      ['a query string', 'POST', '/api/search?x=1', {}],
      ['a tenant path', 'POST', '/c/acme/api/search', {}],
      ['a session cookie', 'POST', '/api/search', { Cookie: 'panya_session=x' }],
      ['a content encoding', 'POST', '/api/search', { 'Content-Encoding': 'identity' }],
      ['a forwarded host', 'POST', '/api/search', { 'X-Forwarded-Host': API }],
      ['form encoding', 'POST', '/api/search', { 'Content-Type': 'application/x-www-form-urlencoded' }],
      ['another charset', 'POST', '/api/search', { 'Content-Type': 'application/json; charset=latin1' }],
      ['a +json type', 'POST', '/api/search', { 'Content-Type': 'application/merge-patch+json' }],
      ['the help host', 'POST', '/api/search', { Host: HELP }],
      ['a host that may be a custom hostname', 'POST', '/api/search', { Host: 'help.shop.example' }],
      ['a body over the JSON limit', 'POST', '/api/search', { 'Content-Length': '1001' }, 'x'.repeat(1001)],
    ];
    for (const [what, method, path, extra, payload] of cases) {
      const res = await send(server, method, path, { ...plain(), ...extra }, payload ?? body);
      expect(res.body, what).toBe('express');
    }
    // A chunked body declares no length.
    const { 'Content-Length': _length, ...chunked } = plain();
    expect((await send(server, 'POST', '/api/search', { ...chunked, 'Transfer-Encoding': 'chunked' }, body)).body).toBe('express');
  });
});

describe('direct routes answer as the Express routes do', () => {
  let direct: Server;
  let viaExpress: Server;
  beforeEach(async () => {
    direct = await listen(createPanyaApp(engine, { helpCenter: { apiHostname: API } }));
    viaExpress = await listen(createPanyaApp(engine, { helpCenter: { apiHostname: API }, directRoutes: false }));
  });
  afterEach(async () => {
    await new Promise<void>((r) => direct.close(() => r()));
    await new Promise<void>((r) => viaExpress.close(() => r()));
  });

  /** A response without what differs per connection and moment (the time a search took, and so the length). */
  const comparable = (res: Sent) => {
    const { date: _date, connection: _connection, 'keep-alive': _keepAlive, 'content-length': length, ...headers } = res.headers;
    expect(Number(length)).toBe(Buffer.byteLength(res.body));
    return { status: res.status, headers, body: res.body.replace(/"tookMs":[0-9.e-]+/, '"tookMs":0') };
  };

  it('gives the same status, headers and body for answers and for every kind of refusal', async () => {
    const json = (value: unknown) => JSON.stringify(value);
    const publishable = (await engine.apiKeys.create(acme.tenant.id, { kind: 'publishable', scopes: ['read'], workspaceSlug: 'default' }))._unsafeUnwrap().key;
    const writeOnly = (await engine.apiKeys.create(acme.tenant.id, { scopes: ['write'] }))._unsafeUnwrap().key;
    const cases: Array<[string, string, Record<string, string>, string | Buffer]> = [
      ['a search', '/api/search', {}, json({ query: 'refund', topK: 3 })],
      ['an answer', '/api/answer', {}, json({ query: 'how long does a refund take?' })],
      ['a publishable key', '/api/search', { Authorization: `Bearer ${publishable}` }, json({ query: 'refund' })],
      ['a publishable key from an allowed origin', '/api/search', { Authorization: `Bearer ${publishable}`, Origin: SHOP }, json({ query: 'refund' })],
      ['a publishable key from another origin', '/api/search', { Authorization: `Bearer ${publishable}`, Origin: 'https://elsewhere.example' }, json({ query: 'refund' })],
      ['a secret key from an allowed origin', '/api/answer', { Origin: SHOP }, json({ query: 'refund' })],
      ['a key without the read scope', '/api/search', { Authorization: `Bearer ${writeOnly}` }, json({ query: 'refund' })],
      ['no key', '/api/search', { Authorization: '' }, json({ query: 'refund' })],
      ['an unknown key', '/api/search', { Authorization: 'Bearer svc_live_unknown' }, json({ query: 'refund' })],
      ['an invalid field, in Thai', '/api/search', {}, json({ query: 'คืนเงิน', topK: 0 })],
      ['a missing field', '/api/search', { 'Accept-Language': 'th' }, json({ topK: 3 })],
      ['a JSON array', '/api/search', {}, '[1]'],
      ['a UTF-8 BOM', '/api/search', {}, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(json({ query: 'refund' }))])],
    ];
    for (const [what, path, extra, body] of cases) {
      const headers = { Authorization: `Bearer ${acme.key}`, 'Content-Type': 'application/json', 'X-Request-Id': 'req-1', ...extra, 'Content-Length': String(Buffer.byteLength(body)) };
      if (headers.Authorization === '') delete (headers as Partial<typeof headers>).Authorization;
      // Each pair is asked in turn, so both see the same count against the key's limit.
      const a = await send(direct, 'POST', path, headers, body);
      const b = await send(viaExpress, 'POST', path, headers, body);
      expect(comparable(a), what).toEqual({ ...comparable(b), headers: { ...comparable(b).headers, 'ratelimit-remaining': a.headers['ratelimit-remaining'] } });
    }
  });

  it('refuses a body that is not JSON, or not an object, as the JSON parser does', async () => {
    for (const body of ['{"query": "refund"', '"refund"', '42']) {
      const headers = { Authorization: `Bearer ${acme.key}`, 'Content-Type': 'application/json', 'X-Request-Id': 'req-1', 'Content-Length': String(Buffer.byteLength(body)) };
      const a = await send(direct, 'POST', '/api/search', headers, body);
      const b = await send(viaExpress, 'POST', '/api/search', headers, body);
      expect(a.status, body).toBe(400);
      const [pa, pb] = [JSON.parse(a.body), JSON.parse(b.body)];
      // The parser's own wording of the syntax error may differ; the problem does not.
      expect({ ...pa, errors: undefined }).toEqual({ ...pb, errors: undefined });
      expect(pa.errors).toHaveLength(1);
      expect(comparable(a).headers).toEqual(comparable(b).headers);
    }
  });

  it('keeps nothing under an Idempotency-Key for a search, exactly as the Express route does', async () => {
    const ask = (server: Server, key: string, query = 'refund') => {
      const body = JSON.stringify({ query });
      return send(server, 'POST', '/api/search', { Authorization: `Bearer ${acme.key}`, 'Content-Type': 'application/json', 'X-Request-Id': 'req-1', 'Idempotency-Key': key, 'Content-Length': String(Buffer.byteLength(body)) }, body);
    };
    const [first, firstViaExpress] = [await ask(direct, 'k-direct'), await ask(viaExpress, 'k-express')];
    expect(first.status).toBe(200);
    expect(comparable(first)).toEqual({ ...comparable(firstViaExpress), headers: { ...comparable(firstViaExpress).headers, 'ratelimit-remaining': first.headers['ratelimit-remaining'] } });
    // A search only reads: asked again with the same key, or another query under it, it simply runs again.
    for (const key of ['k-direct', 'k-express']) {
      const [a, b] = [await ask(direct, key, 'shipping'), await ask(viaExpress, key, 'shipping')];
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(a.headers['idempotent-replayed']).toBeUndefined();
      expect(b.headers['idempotent-replayed']).toBeUndefined();
      expect(Number(a.headers['ratelimit-remaining'])).toBeLessThan(Number(first.headers['ratelimit-remaining']));
    }
    const { store } = engineInternals(engine);
    expect((store as unknown as { db: { prepare(q: string): { get(): { n: number } } } }).db.prepare('SELECT count(*) AS n FROM idempotency_keys').get().n).toBe(0);
  });

  it("counts a publishable key's searches per visitor as the Express route does, from the same budget", async () => {
    const [directBehindProxy, expressBehindProxy] = [await listen(createPanyaApp(engine, { helpCenter: { apiHostname: API }, trustProxy: 1 })), await listen(createPanyaApp(engine, { helpCenter: { apiHostname: API }, trustProxy: 1, directRoutes: false }))];
    const publishable = (await engine.apiKeys.create(acme.tenant.id, { kind: 'publishable', scopes: ['read'], workspaceSlug: 'default' }))._unsafeUnwrap().key;
    const search = (server: Server, ip: string, visitor = 'v-1') => {
      const text = JSON.stringify({ query: 'refund' });
      return send(server, 'POST', '/api/search', { Authorization: `Bearer ${publishable}`, Origin: SHOP, 'X-Forwarded-For': ip, 'X-Panya-Visitor': visitor, 'X-Request-Id': 'req-1', 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)) }, text);
    };
    try {
      const perVisitor = PUBLIC_BUDGETS.business.visitorPerHour!;
      // Half through each path: one visitor, one budget.
      for (let i = 0; i < perVisitor; i++) expect((await search(i % 2 ? directBehindProxy : expressBehindProxy, '198.51.100.1')).status).toBe(200);
      const [a, b] = [await search(directBehindProxy, '198.51.100.1'), await search(expressBehindProxy, '198.51.100.1')];
      expect([a.status, b.status]).toEqual([429, 429]);
      expect(comparable(a)).toEqual(comparable(b));
      // Another visitor, and the tenant's server key, are not refused.
      expect((await search(directBehindProxy, '198.51.100.2')).status).toBe(200);
      expect((await search(directBehindProxy, '198.51.100.1', 'v-2')).status).toBe(200);
      const text = JSON.stringify({ query: 'refund' });
      const server = await send(directBehindProxy, 'POST', '/api/search', { Authorization: `Bearer ${acme.key}`, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)) }, text);
      expect(server.status).toBe(200);
    } finally {
      await new Promise<void>((r) => directBehindProxy.close(() => r()));
      await new Promise<void>((r) => expressBehindProxy.close(() => r()));
    }
  });

  it('refuses the search over the rate limit with the same 429 and headers', async () => {
    const search = (server: Server) => send(server, 'POST', '/api/search', { Authorization: `Bearer ${acme.key}`, 'Content-Type': 'application/json', 'X-Request-Id': 'req-1', 'Content-Length': '18' }, '{"query":"refund"}');
    for (let i = 0; i < 60; i++) expect((await search(direct)).status).toBe(200);
    const [a, b] = [await search(direct), await search(viaExpress)];
    expect(a.status).toBe(429);
    expect(comparable(a)).toEqual(comparable(b));
    expect(a.headers['retry-after']).toBeDefined();
  });

  it('counts and logs a direct request under its route, like every other', async () => {
    const app = createPanyaApp(engine);
    await request(app).post('/api/search').set(acme.auth).send({ query: 'refund' }).expect(200);
    await request(app).post('/api/search').set(acme.auth).send({ query: 'refund', topK: 0 }).expect(400);
    const metrics = await request(app).get('/metrics').expect(200);
    expect(metrics.text).toContain('panya_http_requests_total{method="POST",route="/api/search",status="200"} 1\n');
    expect(metrics.text).toContain('panya_http_requests_total{method="POST",route="/api/search",status="400"} 1\n');
  });
});
