/**
 * Signed visitor identity: the workspace's key settings (admin only, masked in reads), the
 * tokens refused — each a 401 problem naming why, changing nothing — and the verified id as the
 * visitor's counting key.
 */
import { generateKeyPairSync } from 'node:crypto';
import { SignJWT, importPKCS8 } from 'jose';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, parseHelpHost, type Engine } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { createPanyaApp } from '@panya/adapter-express';
import { makeTenant } from './helpers.js';

const HELP = 'help.panya.example';
const ORIGIN = 'https://shop.acme.example';
const SECRET = 'acme-default-secret-0123456789-abcdef';
const BRAND_SECRET = 'acme-brand-b-secret-0123456789-abcdef';
const ISSUER = 'https://shop.acme.example';

let engine: Engine;
let app: ReturnType<typeof createPanyaApp>;
let acme: Awaited<ReturnType<typeof makeTenant>>;
let pub: string;
let brandPub: string;
let defaultId: string;
let brandId: string;

const hs = (secret: string) => new TextEncoder().encode(secret);

/** A token as a tenant's backend signs it, changed where a case needs. */
async function signed(options: { email?: string; sub?: string; secret?: string; aud?: string; iss?: string; exp?: number | string; iat?: number; segments?: unknown } = {}) {
  const jwt = new SignJWT({ email: options.email ?? 'Ann@Example.com', name: 'Ann', locale: 'th', segments: options.segments ?? ['partner-th'] })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(options.sub ?? 'customer-7')
    .setAudience(options.aud ?? defaultId)
    .setIssuer(options.iss ?? ISSUER)
    .setIssuedAt(options.iat)
    .setExpirationTime(options.exp ?? '5m');
  return jwt.sign(hs(options.secret ?? SECRET));
}

/** A token with `alg: none` (no signature), as an attacker writes it. */
function unsigned(claims: Record<string, unknown>): string {
  const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.`;
}

const widget = (token: string | null, key = pub, extra: Record<string, string> = {}) =>
  request(app)
    .post('/api/search')
    .set({ Authorization: `Bearer ${key}`, Origin: ORIGIN, ...(token === null ? {} : { 'X-Panya-Visitor-Token': token }), ...extra })
    .send({ query: 'refunds' });

beforeAll(async () => {
  engine = createEngine({ store: openSqliteStore({ path: ':memory:' }), helpHost: parseHelpHost(HELP) });
  app = createPanyaApp(engine);
  acme = await makeTenant(engine, 'acme');
  await request(app).patch('/api/tenant/settings').set(acme.auth).send({ allowedOrigins: [ORIGIN] }).expect(200);
  defaultId = (await request(app).get('/api/workspaces').set(acme.auth).expect(200)).body.data[0].id;
  brandId = (await request(app).post('/api/workspaces').set(acme.auth).send({ slug: 'brand-b', name: 'Brand B' }).expect(201)).body.id;
  pub = (await engine.apiKeys.create(acme.tenant.id, { kind: 'publishable', scopes: ['read'], workspaceSlug: 'default' }))._unsafeUnwrap().key;
  brandPub = (await engine.apiKeys.create(acme.tenant.id, { kind: 'publishable', scopes: ['read'], workspaceSlug: 'brand-b' }))._unsafeUnwrap().key;
  await request(app).post('/api/docs?wait=true').set(acme.auth).send({ title: 'Refunds', contentMd: 'Refunds take seven days.', publicSurfaces: ['help_center'] }).expect(201);
}, 60_000);

afterAll(async () => {
  await engine?.close();
});

describe('visitor identity settings', () => {
  it('an admin sets the key; reads show it masked; a key that cannot verify is refused naming it', async () => {
    const short = await request(app).put(`/api/workspaces/${defaultId}/visitor-identity`).set(acme.auth).send({ algorithm: 'HS256', key: 'too-short' }).expect(400);
    expect(short.body.errors).toEqual([expect.objectContaining({ path: 'key' })]);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect((await request(app).put(`/api/workspaces/${defaultId}/visitor-identity`).set(acme.auth).send({ algorithm: 'EdDSA', key: rsa }).expect(400)).body.errors[0].path).toBe('key');
    await request(app).get(`/api/workspaces/${defaultId}/visitor-identity`).set(acme.auth).expect(404);

    const put = await request(app).put(`/api/workspaces/${defaultId}/visitor-identity`).set(acme.auth).send({ algorithm: 'HS256', key: SECRET, issuer: ISSUER }).expect(200);
    const read = await request(app).get(`/api/workspaces/${defaultId}/visitor-identity`).set(acme.auth).expect(200);
    for (const body of [put.body, read.body]) {
      expect(body).toEqual({ algorithm: 'HS256', keyHint: `…${SECRET.slice(-4)}`, issuer: ISSUER, audience: defaultId, updatedAt: expect.any(String) });
      expect(JSON.stringify(body)).not.toContain(SECRET.slice(0, 12));
    }
    await request(app).put(`/api/workspaces/${brandId}/visitor-identity`).set(acme.auth).send({ algorithm: 'HS256', key: BRAND_SECRET }).expect(200);
  });

  it('a publishable key, another tenant and an unknown workspace cannot read or change it', async () => {
    const globex = await makeTenant(engine, 'globex');
    await request(app).get(`/api/workspaces/${defaultId}/visitor-identity`).set({ Authorization: `Bearer ${pub}`, Origin: ORIGIN }).expect(403);
    await request(app).put(`/api/workspaces/${defaultId}/visitor-identity`).set(globex.auth).send({ algorithm: 'HS256', key: BRAND_SECRET }).expect(404);
    await request(app).get(`/api/workspaces/${defaultId}/visitor-identity`).set(globex.auth).expect(404);
    expect((await request(app).get(`/api/workspaces/${defaultId}/visitor-identity`).set(acme.auth).expect(200)).body.keyHint).toBe(`…${SECRET.slice(-4)}`);
  });
});

describe('visitor tokens', () => {
  it('a valid token is accepted; without one the visitor is anonymous', async () => {
    await widget(await signed()).expect(200);
    await widget(null).expect(200);
  });

  it.each([
    ['expired', () => signed({ iat: Math.floor(Date.now() / 1000) - 3600, exp: Math.floor(Date.now() / 1000) - 600 }), /expired/],
    ['for another audience', () => signed({ aud: 'ws_someone_else' }), /audience/],
    ['from another issuer', () => signed({ iss: 'https://evil.example' }), /issuer/],
    ['unsigned (alg: none)', async () => unsigned({ sub: 'customer-7', aud: defaultId, iss: ISSUER, exp: Math.floor(Date.now() / 1000) + 300, segments: ['enterprise'] }), /algorithm|well-formed/],
    ["signed with another workspace's key", () => signed({ secret: BRAND_SECRET }), /signature/],
    ['living longer than a day', () => signed({ exp: '3d' }), /lifetime/],
    ['with malformed segments', () => signed({ segments: ['Not A Segment'] }), /segments/],
    ['not a JWT', async () => 'garbage', /well-formed/],
  ])('a token %s is a 401 problem naming why', async (_name, make, why) => {
    const res = await widget(await make()).expect(401);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 401, code: 'unauthorized' });
    expect(res.body.detail).toMatch(why);
  });

  it("a workspace's token is refused by another workspace's key, and by one without a key", async () => {
    // brand-b has its own key: a default-workspace token (its audience and key) does not pass there.
    expect((await widget(await signed(), brandPub).expect(401)).body.detail).toMatch(/audience|signature/);
    expect((await widget(await signed({ aud: brandId }), brandPub).expect(401)).body.detail).toMatch(/signature/);
    await widget(await signed({ aud: brandId, secret: BRAND_SECRET, iss: ISSUER }), brandPub).expect(200);
    await request(app).delete(`/api/workspaces/${brandId}/visitor-identity`).set(acme.auth).expect(200);
    expect((await widget(await signed({ aud: brandId, secret: BRAND_SECRET }), brandPub).expect(401)).body.detail).toMatch(/no visitor identity key/);
  });

  it('EdDSA: a token signed with the private key passes; an HS256 token keyed with the public key text does not', async () => {
    const pair = generateKeyPairSync('ed25519');
    const publicPem = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    await request(app).put(`/api/workspaces/${brandId}/visitor-identity`).set(acme.auth).send({ algorithm: 'EdDSA', key: publicPem }).expect(200);
    const privateKey = await importPKCS8(pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), 'EdDSA');
    const good = await new SignJWT({ segments: [] }).setProtectedHeader({ alg: 'EdDSA' }).setSubject('v1').setAudience(brandId).setExpirationTime('5m').sign(privateKey);
    await widget(good, brandPub).expect(200);
    const confused = await new SignJWT({ segments: ['enterprise'] }).setProtectedHeader({ alg: 'HS256' }).setSubject('v1').setAudience(brandId).setExpirationTime('5m').sign(hs(publicPem));
    expect((await widget(confused, brandPub).expect(401)).body.detail).toMatch(/algorithm/);
  });

  it('the help center refuses a bad token with a 401 page and forgets it; a link hands a token in as a cookie', async () => {
    const bad = await request(app).get('/acme/').set({ Host: HELP, Cookie: `panya_vt=${await signed({ secret: BRAND_SECRET })}` }).expect(401);
    expect(String(bad.headers['set-cookie'])).toMatch(/panya_vt=;/);
    const handed = await request(app).get(`/acme/?visitor_token=${await signed()}`).set('Host', HELP).expect(303);
    expect(handed.headers.location).toBe('/acme/');
    expect(String(handed.headers['set-cookie'])).toMatch(/panya_vt=.+HttpOnly/);
  });

  it("a verified visitor's chats are filed under one visitor record with the token's e-mail, and no one else continues them", async () => {
    const token = await signed({ sub: 'chatting-visitor', segments: [] });
    const chat = (headers: Record<string, string>, body: Record<string, unknown>) => request(app).post('/api/chat').set({ Authorization: `Bearer ${pub}`, Origin: ORIGIN, ...headers }).send(body);
    const conversationOf = (text: string) => /"conversationId":"(conv_[^"]+)"/.exec(text)![1]!;
    const first = conversationOf((await chat({ 'X-Panya-Visitor-Token': token }, { query: 'refunds?' }).expect(200)).text);
    const second = conversationOf((await chat({ 'X-Panya-Visitor-Token': token }, { query: 'how long do refunds take?' }).expect(200)).text);
    const visitorOf = async (id: string) => (await request(app).get(`/api/conversations/${id}`).set(acme.auth).expect(200)).body.visitorId as string;
    const visitorId = await visitorOf(first);
    expect(visitorId).toMatch(/^vis_/);
    expect(await visitorOf(second)).toBe(visitorId);
    expect((await request(app).get(`/api/visitors/${visitorId}`).set(acme.auth).expect(200)).body).toMatchObject({ email: 'ann@example.com', name: 'Ann' });
    // The conversation id alone does not let an anonymous visitor, or another signed one, continue it.
    await chat({}, { query: 'and then?', conversationId: first }).expect(404);
    await chat({ 'X-Panya-Visitor-Token': await signed({ sub: 'someone-else', email: 'bob@example.com', segments: [] }) }, { query: 'and then?', conversationId: first }).expect(404);
    await chat({ 'X-Panya-Visitor-Token': token }, { query: 'and then?', conversationId: first }).expect(200);
  });

  it('a verified visitor is counted by their signed id, whatever browser id or address they send', async () => {
    (await engine.tenancy.update('acme', { quotas: { publicVisitorPerHour: 2 } }))._unsafeUnwrap();
    try {
      const token = await signed({ sub: 'counted-visitor', segments: [] });
      await widget(token, pub, { 'X-Panya-Visitor': 'browser-1' }).expect(200);
      await widget(token, pub, { 'X-Panya-Visitor': 'browser-2' }).expect(200);
      expect((await widget(token, pub, { 'X-Panya-Visitor': 'browser-3' }).expect(429)).body.code).toBe('rate_limited');
      // Anonymous visitors are told apart by their browser ids: each has their own budget.
      for (const id of ['anon-1', 'anon-2', 'anon-3']) await widget(null, pub, { 'X-Panya-Visitor': id }).expect(200);
    } finally {
      (await engine.tenancy.update('acme', { quotas: { publicVisitorPerHour: null } }))._unsafeUnwrap();
    }
  });
});
