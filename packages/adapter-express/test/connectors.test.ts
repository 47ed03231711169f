import { signWebhook } from '@panya/core';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setup } from './helpers.js';

type Ctx = Awaited<ReturnType<typeof setup>>;
let t: Ctx;
let secret: string;
beforeEach(async () => {
  t = await setup();
  const rotated = await request(t.app).post('/api/tenant/connectors/secret').set(t.acme.auth).expect(201);
  secret = rotated.body.secret;
});
afterEach(async () => {
  await t.engine.close();
});

const upsert = (id: string, contentMd = 'Parcels travel by zeppelin.') => JSON.stringify({ id, type: 'document.upsert', externalId: 'cms/42', document: { title: 'Shipping', contentMd, metadata: { cms: 42 } } });
const now = () => Math.floor(Date.now() / 1000);

function deliver(body: string, options: { signature?: string; tenant?: string; path?: string } = {}) {
  return request(t.app)
    .post(options.path ?? '/api/connectors/webhook')
    .set('Content-Type', 'application/json')
    .set('Panya-Tenant', options.tenant ?? 'acme')
    .set('Panya-Signature', options.signature ?? signWebhook(secret, body, now()))
    .send(body);
}
const docs = async (auth = t.acme.auth) => (await request(t.app).get('/api/docs').set(auth).expect(200)).body.data;

describe('POST /api/connectors/webhook', () => {
  it('applies a signed upsert, then a delete, by external id', async () => {
    const created = await deliver(upsert('evt_1')).expect(200);
    expect(created.body).toMatchObject({ received: true, duplicate: false, outcome: 'created', eventId: 'evt_1' });
    const got = await request(t.app).get('/api/docs/by-external-id/cms%2F42').set(t.acme.auth).expect(200);
    expect(got.body).toMatchObject({ title: 'Shipping', metadata: { cms: 42 } });
    const deleted = await deliver(JSON.stringify({ id: 'evt_2', type: 'document.delete', externalId: 'cms/42' })).expect(200);
    expect(deleted.body).toMatchObject({ outcome: 'deleted', documentId: got.body.id });
    expect(await docs()).toEqual([]);
  });

  it('refuses a bad signature with 401 and writes nothing', async () => {
    const body = upsert('evt_1');
    const wrong = await deliver(body, { signature: signWebhook('pcs_not-the-secret', body, now()) }).expect(401);
    expect(wrong.body.code).toBe('unauthorized');
    // Signed for another body: the signature covers the raw bytes.
    await deliver(body, { signature: signWebhook(secret, upsert('evt_1', 'other'), now()) }).expect(401);
    await deliver(body, { signature: 'garbage' }).expect(401);
    // Another tenant's delivery signed with acme's secret.
    await deliver(body, { tenant: 'globex' }).expect(401);
    expect(await docs()).toEqual([]);
    expect(await docs(t.globex.auth)).toEqual([]);
    // The event id was not used up: the genuine delivery still applies.
    await deliver(body).expect(200).expect((r) => expect(r.body.outcome).toBe('created'));
  });

  it('refuses a stale or future timestamp', async () => {
    const body = upsert('evt_1');
    const stale = await deliver(body, { signature: signWebhook(secret, body, now() - 301) }).expect(401);
    expect(stale.body.detail).toMatch(/300 s/);
    await deliver(body, { signature: signWebhook(secret, body, now() + 301) }).expect(401);
    expect(await docs()).toEqual([]);
  });

  it('treats a replayed event id as a no-op, even after the document changed', async () => {
    await deliver(upsert('evt_1', 'First.')).expect(200);
    await deliver(upsert('evt_2', 'Second.')).expect(200).expect((r) => expect(r.body.outcome).toBe('updated'));
    const replay = await deliver(upsert('evt_1', 'First.')).expect(200);
    expect(replay.body).toMatchObject({ received: true, duplicate: true, outcome: null });
    const [doc] = await docs();
    expect((await request(t.app).get(`/api/docs/${doc.id}`).set(t.acme.auth).expect(200)).body.contentMd).toBe('Second.');
  });

  it('rotating the secret stops the old one; a new tenant has none; a bad event is 400', async () => {
    const body = upsert('evt_1');
    const old = secret;
    secret = (await request(t.app).post('/api/tenant/connectors/secret').set(t.acme.auth).expect(201)).body.secret;
    await deliver(body, { signature: signWebhook(old, body, now()) }).expect(401);
    await deliver(body, { tenant: 'globex', signature: signWebhook(secret, body, now()) }).expect(401);
    await deliver(JSON.stringify({ id: 'evt_9', type: 'document.upsert', externalId: 'x' })).expect(400);
    await deliver('{not json').expect(400);
    await request(t.app).post('/api/connectors/webhook').set('Panya-Signature', signWebhook(secret, body, now())).set('Content-Type', 'application/json').send(body).expect(400);
    const settings = await request(t.app).get('/api/tenant/settings').set(t.acme.auth).expect(200);
    expect(settings.body.connectorWebhook).toMatchObject({ secretSet: true });
    expect(JSON.stringify(settings.body)).not.toContain(secret);
  });

  it('writes into the workspace its address names', async () => {
    await request(t.app).post('/api/workspaces').set(t.acme.auth).send({ slug: 'brand-b', name: 'Brand B' }).expect(201);
    await deliver(upsert('evt_1'), { path: '/c/acme/_w/brand-b/api/connectors/webhook' }).expect(200);
    expect(await docs()).toEqual([]);
    expect((await request(t.app).get('/c/acme/_w/brand-b/api/docs').set(t.acme.auth).expect(200)).body.data).toHaveLength(1);
  });

  it('secret rotation and settings need a tenant-wide admin key', async () => {
    const reader = (await t.engine.apiKeys.create(t.acme.tenant.id, { scopes: ['read', 'write'] }))._unsafeUnwrap().key;
    await request(t.app).post('/api/tenant/connectors/secret').set({ Authorization: `Bearer ${reader}` }).expect(403);
    await request(t.app).get('/api/tenant/settings').set({ Authorization: `Bearer ${reader}` }).expect(403);
  });
});
