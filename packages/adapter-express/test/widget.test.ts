import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, parseHelpHost, type Engine } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { createPanyaApp } from '@panya/adapter-express';
import { makeTenant } from './helpers.js';

const SHOP = 'https://shop.acme.example';
let engine: Engine;
let app: ReturnType<typeof createPanyaApp>;

beforeEach(() => {
  engine = createEngine({ store: openSqliteStore({ path: ':memory:' }), helpHost: parseHelpHost('help.panya.example') });
  app = createPanyaApp(engine, { helpCenter: { apiHostname: 'api.panya.example' } });
});
afterEach(() => engine.close());

/** Acme with one published and one internal document, its shop allowed, and two browser keys. */
async function acme() {
  const t = await makeTenant(engine, 'acme');
  await request(app).patch(`/api/workspaces/${t.defaultWorkspace.id}`).set(t.auth).send({ name: 'Acme Support', brandAccent: '#0a7d4f' }).expect(200);
  await request(app).patch('/api/tenant/settings').set(t.auth).send({ allowedOrigins: [SHOP] }).expect(200);
  const published = (await request(app).post('/api/docs?wait=true').set(t.auth).send({ title: 'Refund policy', contentMd: 'Refunds are issued within 14 days of purchase.', publicSurfaces: ['help_center'] }).expect(201)).body;
  const internal = (await request(app).post('/api/docs?wait=true').set(t.auth).send({ title: 'Refund escalation', contentMd: 'Refunds above 10,000 baht need a manager approval within 14 days.' }).expect(201)).body;
  const helpKey = (await engine.apiKeys.create(t.tenant.id, { kind: 'publishable', scopes: ['read'], workspaceSlug: 'default', surface: 'help_center' }))._unsafeUnwrap().key;
  const plainKey = (await engine.apiKeys.create(t.tenant.id, { kind: 'publishable', scopes: ['read'], workspaceSlug: 'default' }))._unsafeUnwrap().key;
  return { ...t, published, internal, helpKey, plainKey };
}

const fromShop = (key: string, origin = SHOP) => ({ Authorization: `Bearer ${key}`, Origin: origin });

describe('GET /widget.js', () => {
  it('serves a small script, gzipped when accepted, cached for an hour and revalidated by ETag', async () => {
    const plain = await request(app).get('/widget.js').set('Accept-Encoding', 'identity').expect(200).expect('Content-Type', /text\/javascript/);
    expect(plain.headers['cache-control']).toBe('public, max-age=3600');
    expect(plain.headers['x-content-type-options']).toBe('nosniff');
    expect(plain.text).toContain('attachShadow');
    // supertest inflates the body; the length on the wire is the header's.
    const zipped = await request(app).get('/widget.js').set('Accept-Encoding', 'gzip').expect(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(Number(zipped.headers['content-length'])).toBeLessThan(5 * 1024);
    expect(Number(zipped.headers['content-length'])).toBeLessThan(plain.text.length / 2);
    expect(zipped.text).toBe(plain.text);
    await request(app).get('/widget.js').set('If-None-Match', plain.headers.etag!).expect(304);
  });

  it('is not served on the help host', async () => {
    await request(app).get('/widget.js').set('Host', 'help.panya.example').expect(404);
  });
});

describe('GET /api/widget', () => {
  it("gives a publishable key the workspace's name and accent; citations link to help-center articles (a publishable key cites only published ones)", async () => {
    const t = await acme();
    const restricted = await request(app).get('/api/widget').set(fromShop(t.helpKey)).expect(200);
    expect(restricted.headers['access-control-allow-origin']).toBe(SHOP);
    expect(restricted.body).toEqual({ name: 'Acme Support', brandAccent: '#0a7d4f', helpCenterUrl: 'https://help.panya.example/acme/', articleUrl: 'https://help.panya.example/acme/articles/{documentId}' });
    const plain = await request(app).get('/api/widget').set(fromShop(t.plainKey)).expect(200);
    expect(plain.body).toEqual(restricted.body);
  });

  it('refuses a page on another origin, and a publishable key without a browser origin', async () => {
    const t = await acme();
    await request(app).get('/api/widget').set(fromShop(t.helpKey, 'https://evil.example')).expect(403);
    await request(app).get('/api/widget').set({ Authorization: `Bearer ${t.helpKey}` }).expect(403);
    const preflight = await request(app).options('/api/chat').set({ Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('chat through a key restricted to the help center', () => {
  it('streams an answer grounded in published documents only', async () => {
    const t = await acme();
    const restricted = await request(app).post('/api/chat').set(fromShop(t.helpKey)).send({ query: 'Refunds manager approval within 14 days?' }).expect(200);
    expect(restricted.headers['content-type']).toMatch(/text\/event-stream/);
    expect(restricted.text).toContain('event: citation');
    expect(restricted.text).toContain(t.published.id);
    expect(restricted.text).not.toContain(t.internal.id);
    // Any publishable key is public: it never reaches the internal document either, whatever page it is sent from.
    const plain = await request(app).post('/api/chat').set(fromShop(t.plainKey)).send({ query: 'Refunds manager approval within 14 days?' }).expect(200);
    expect(plain.text).toContain(t.published.id);
    expect(plain.text).not.toContain(t.internal.id);
  });

  it('a publishable key cannot continue a conversation a secret key started, nor see its earlier question', async () => {
    const t = await acme();
    const question = 'Internal: may I skip the MANAGER-APPROVAL-4471 step for refunds?';
    const started = await request(app).post('/api/chat').set(t.auth).send({ query: question }).expect(200);
    const conversationId = /"conversationId":"([^"]+)"/.exec(started.text)![1]!;
    for (const key of [t.helpKey, t.plainKey]) {
      const refused = await request(app).post('/api/chat').set(fromShop(key)).send({ query: 'And the step before?', conversationId }).expect(404);
      expect(refused.text).not.toContain('MANAGER-APPROVAL-4471');
      // Exactly the answer for a conversation that does not exist.
      const missing = await request(app).post('/api/chat').set(fromShop(key)).send({ query: 'And the step before?', conversationId: `${conversationId.slice(0, -1)}${conversationId.endsWith('A') ? 'B' : 'A'}` }).expect(404);
      expect(refused.body.detail).toBe(missing.body.detail);
    }
    // The conversation kept only its own turns.
    const messages = (await request(app).get(`/api/conversations/${conversationId}/messages`).set(t.auth).expect(200)).body.data;
    expect(messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);

    // A visitor's own conversation continues with its key; the tenant's secret key may continue it too.
    const own = await request(app).post('/api/chat').set(fromShop(t.helpKey)).send({ query: 'How long do refunds take?' }).expect(200);
    const ownId = /"conversationId":"([^"]+)"/.exec(own.text)![1]!;
    await request(app).post('/api/chat').set(fromShop(t.helpKey)).send({ query: 'And for gift cards?', conversationId: ownId }).expect(200);
    await request(app).post('/api/chat').set(fromShop(t.plainKey)).send({ query: 'And for vouchers?', conversationId: ownId }).expect(200);
    await request(app).post('/api/chat').set(t.auth).send({ query: 'Agent follow-up', conversationId: ownId }).expect(200);
  });

  it('only a publishable key is restricted to a surface', async () => {
    const t = await acme();
    const refused = await engine.apiKeys.create(t.tenant.id, { scopes: ['read'], surface: 'help_center' });
    expect(refused._unsafeUnwrapErr().code).toBe('invalid_request');
  });
});
