import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '@panya/core';
import type { Express } from 'express';
import { setup } from './helpers.js';

const ALLOWED = 'https://help.acme.example';
const OTHER = 'https://evil.example';

let engine: Engine;
let app: Express;
let acme: Awaited<ReturnType<typeof setup>>['acme'];
let globex: Awaited<ReturnType<typeof setup>>['globex'];
let pub: string;

const sse = (req: request.Test) =>
  req.buffer(true).parse((res, done) => {
    let text = '';
    res.on('data', (c: Buffer) => (text += c.toString()));
    res.on('end', () => done(null, text));
  });

beforeEach(async () => {
  ({ engine, app, acme, globex } = await setup());
  await request(app).patch('/api/tenant/settings').set(acme.auth).send({ allowedOrigins: [ALLOWED] }).expect(200);
  await request(app).post('/api/docs?wait=true').set(acme.auth).send({ title: 'Refunds', contentMd: 'Refunds are paid back within 14 days of the request.', publicSurfaces: ['help_center'] }).expect(201);
  await request(app).post('/api/workspaces').set(acme.auth).send({ slug: 'brand-two', name: 'Brand two' }).expect(201);
  const created = await engine.apiKeys.create(acme.tenant.id, { kind: 'publishable', scopes: ['read'], workspaceSlug: acme.defaultWorkspace.slug });
  pub = created._unsafeUnwrap().key;
  expect(created._unsafeUnwrap().record).toMatchObject({ kind: 'publishable', prefix: expect.stringMatching(/^svc_pub_/) });
});

describe('CORS preflight', () => {
  it('answers a preflight from an allowed origin with the allow headers, on /api and on the tenant path', async () => {
    for (const path of ['/api/search', '/c/acme/api/search']) {
      const res = await request(app).options(path).set('Origin', ALLOWED).set('Access-Control-Request-Method', 'POST').set('Access-Control-Request-Headers', 'authorization,content-type').expect(204);
      expect(res.headers['access-control-allow-origin']).toBe(ALLOWED);
      expect(res.headers['access-control-allow-methods']).toContain('POST');
      expect(res.headers['access-control-allow-headers']?.toLowerCase()).toContain('authorization');
      // A page's retried POST carries the key that makes the retry safe.
      expect(res.headers['access-control-allow-headers']?.toLowerCase().split(',')).toContain('idempotency-key');
      expect(res.headers.vary).toMatch(/Origin/);
    }
  });

  it('refuses a preflight from another origin, or from an origin another tenant allows on that tenant path', async () => {
    const res = await request(app).options('/api/search').set('Origin', OTHER).set('Access-Control-Request-Method', 'POST').expect(403);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.body.code).toBe('forbidden');
    const globexPath = await request(app).options('/c/globex/api/search').set('Origin', ALLOWED).set('Access-Control-Request-Method', 'POST').expect(403);
    expect(globexPath.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('sets Access-Control-Allow-Origin on responses only for allowed origins', async () => {
    const ok = await request(app).post('/api/search').set('Origin', ALLOWED).set('Authorization', `Bearer ${pub}`).send({ query: 'refunds' }).expect(200);
    expect(ok.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(ok.headers.vary).toMatch(/Origin/);
    const other = await request(app).post('/api/search').set('Origin', OTHER).set(acme.auth).send({ query: 'refunds' }).expect(403);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('publishable keys', () => {
  const asPage = (req: request.Test, origin = ALLOWED) => req.set('Origin', origin).set('Authorization', `Bearer ${pub}`);

  it('search, answer and chat work from an allowed origin', async () => {
    const found = await asPage(request(app).post('/api/search')).send({ query: 'refunds' }).expect(200);
    expect(found.body.results.length).toBeGreaterThan(0);
    await asPage(request(app).post('/api/answer')).send({ query: 'How long do refunds take?' }).expect(200);
    const chat = await sse(asPage(request(app).post('/api/chat')).set('Content-Type', 'application/json').send({ query: 'How long do refunds take?' })).expect(200);
    expect(String(chat.body)).toContain('event: done');
  });

  it('is refused from another origin and without an Origin', async () => {
    const other = await asPage(request(app).post('/api/search'), OTHER).send({ query: 'refunds' }).expect(403);
    expect(other.body.detail).toContain(OTHER);
    const server = await request(app).post('/api/search').set('Authorization', `Bearer ${pub}`).send({ query: 'refunds' }).expect(403);
    expect(server.body.detail).toContain('browser');
  });

  it('is refused on write routes and on read routes other than search, answer and chat', async () => {
    await asPage(request(app).post('/api/docs')).send({ title: 'x', contentMd: 'y' }).expect(403);
    await asPage(request(app).get('/api/docs')).expect(403);
    await asPage(request(app).get('/api/conversations')).expect(403);
    await asPage(request(app).get('/api/visitors')).expect(403);
    await asPage(request(app).get('/api/tenant/settings')).expect(403);
    expect((await request(app).get('/api/docs').set(acme.auth).expect(200)).body.data).toHaveLength(1);
  });

  it('reads only documents published to a public surface, whatever the Origin says', async () => {
    const internal = 'Internal refund escalation: approve refunds over 9000 baht with code ZEBRA-7731.';
    await request(app).post('/api/docs?wait=true').set(acme.auth).send({ title: 'Refund escalation (internal)', contentMd: internal }).expect(201);
    // The secret key (a server) sees it.
    const server = await request(app).post('/api/search').set(acme.auth).send({ query: 'refund escalation ZEBRA-7731' }).expect(200);
    expect(JSON.stringify(server.body)).toContain('ZEBRA-7731');
    // The publishable key, from the allowed origin as any curl can claim, never does.
    const found = await asPage(request(app).post('/api/search')).send({ query: 'refund escalation ZEBRA-7731', topK: 50 }).expect(200);
    expect(found.body.results.length).toBeGreaterThan(0);
    expect(found.body.results.every((r: { title: string }) => r.title === 'Refunds')).toBe(true);
    expect(JSON.stringify(found.body)).not.toContain('ZEBRA');
    const answered = await asPage(request(app).post('/api/answer')).send({ query: 'What code approves refund escalation ZEBRA-7731?' }).expect(200);
    expect(JSON.stringify(answered.body)).not.toContain('ZEBRA');
    const chat = await sse(asPage(request(app).post('/api/chat')).set('Content-Type', 'application/json').send({ query: 'What code approves refund escalation ZEBRA-7731?' })).expect(200);
    expect(String(chat.body).replace(/"query":"[^"]*"/g, '')).not.toContain('ZEBRA');
  });

  it('is bound to its workspace', async () => {
    const res = await asPage(request(app).post('/c/acme/_w/brand-two/api/search')).send({ query: 'refunds' });
    expect([403, 404]).toContain(res.status);
    await asPage(request(app).post(`/c/acme/_w/${acme.defaultWorkspace.slug}/api/search`)).send({ query: 'refunds' }).expect(200);
    const otherTenant = await asPage(request(app).post('/c/globex/api/search')).send({ query: 'refunds' });
    expect([403, 404]).toContain(otherTenant.status);
  });

  it('is never accepted on MCP', async () => {
    const res = await request(app).post('/api/mcp').set('Authorization', `Bearer ${pub}`).set('Accept', 'application/json, text/event-stream').send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(res.status).toBe(403);
  });

  it('must be created read-only and bound to one workspace', async () => {
    expect((await engine.apiKeys.create(acme.tenant.id, { kind: 'publishable', scopes: ['read'] }))._unsafeUnwrapErr().code).toBe('invalid_request');
    expect((await engine.apiKeys.create(acme.tenant.id, { kind: 'publishable', scopes: ['read', 'write'], workspaceSlug: 'brand-two' }))._unsafeUnwrapErr().code).toBe('invalid_request');
  });
});

describe('secret keys from browsers', () => {
  it('are refused from an origin the tenant does not allow, accepted from an allowed one and from servers', async () => {
    const refused = await request(app).get('/api/docs').set('Origin', OTHER).set(acme.auth).expect(403);
    expect(refused.body.detail).toContain('Secret keys');
    await request(app).get('/api/docs').set('Origin', ALLOWED).set(acme.auth).expect(200);
    await request(app).get('/api/docs').set(acme.auth).expect(200);
    // An origin allowed by acme is not allowed for globex's key.
    await request(app).get('/api/docs').set('Origin', ALLOWED).set(globex.auth).expect(403);
  });
});
