import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setup } from './helpers.js';

type Ctx = Awaited<ReturnType<typeof setup>>;
let t: Ctx;
beforeEach(async () => {
  t = await setup();
});
afterEach(async () => {
  await t.engine.close();
});

const article = { title: 'Returns', contentMd: '# Returns\n\nWithin 30 days.', metadata: { author: 'Nok', tags: ['policy'] } };
const path = (externalId: string) => `/api/docs/by-external-id/${encodeURIComponent(externalId)}`;

describe('PUT /api/docs/by-external-id/{externalId}', () => {
  it('creates (201), then answers unchanged for the same document, then updates what differs', async () => {
    const created = await request(t.app).put(path('guides/returns.md')).set(t.acme.auth).send(article).expect(201);
    expect(created.body).toMatchObject({ sync: 'created', externalId: 'guides/returns.md', metadata: article.metadata, title: 'Returns', status: 'pending' });
    expect(created.headers.location).toBe(`/api/docs/${created.body.id}`);

    // Same content, keys in another order: nothing is written (same updatedAt, no new indexing).
    const same = await request(t.app).put(path('guides/returns.md')).set(t.acme.auth).send({ metadata: { tags: ['policy'], author: 'Nok' }, contentMd: article.contentMd, title: 'Returns' }).expect(200);
    expect(same.body).toMatchObject({ sync: 'unchanged', id: created.body.id, updatedAt: created.body.updatedAt });

    const updated = await request(t.app).put(path('guides/returns.md')).set(t.acme.auth).send({ ...article, contentMd: '# Returns\n\nWithin 14 days.' }).expect(200);
    expect(updated.body).toMatchObject({ sync: 'updated', id: created.body.id, contentMd: '# Returns\n\nWithin 14 days.' });

    const got = await request(t.app).get(path('guides/returns.md')).set(t.acme.auth).expect(200);
    expect(got.body).toMatchObject({ id: created.body.id, externalId: 'guides/returns.md' });
    const list = await request(t.app).get('/api/docs').set(t.acme.auth).expect(200);
    expect(list.body.data).toHaveLength(1);
  });

  it('indexes the upserted content with ?wait=true, so search finds the new text', async () => {
    await request(t.app).put(`${path('faq')}?wait=true`).set(t.acme.auth).send({ title: 'FAQ', contentMd: 'Parcels travel by pigeon.' }).expect(201);
    await request(t.app).put(`${path('faq')}?wait=true`).set(t.acme.auth).send({ title: 'FAQ', contentMd: 'Parcels travel by zeppelin.' }).expect(200);
    const found = await request(t.app).post('/api/search').set(t.acme.auth).send({ query: 'zeppelin' }).expect(200);
    expect(found.body.results).toHaveLength(1);
    const old = await request(t.app).post('/api/search').set(t.acme.auth).send({ query: 'pigeon' }).expect(200);
    expect(old.body.results).toHaveLength(0);
  });

  it('keeps external ids per workspace and per tenant', async () => {
    const a = await request(t.app).put(path('x')).set(t.acme.auth).send(article).expect(201);
    const b = await request(t.app).put(path('x')).set(t.globex.auth).send(article).expect(201);
    expect(a.body.id).not.toBe(b.body.id);
    await request(t.app).post('/api/workspaces').set(t.acme.auth).send({ slug: 'brand-b', name: 'Brand B' }).expect(201);
    const c = await request(t.app).put(`/c/acme/_w/brand-b${path('x')}`).set(t.acme.auth).send(article).expect(201);
    expect(c.body.id).not.toBe(a.body.id);
    await request(t.app).get(path('x')).set(t.globex.auth).expect(200).expect((r) => expect(r.body.id).toBe(b.body.id));
  });

  it('refuses a taken externalId on create and patch (409), bad input (400), and a read-only key (403)', async () => {
    await request(t.app).put(path('taken')).set(t.acme.auth).send(article).expect(201);
    const conflict = await request(t.app).post('/api/docs').set(t.acme.auth).send({ ...article, externalId: 'taken' }).expect(409);
    expect(conflict.body.code).toBe('conflict');
    const other = await request(t.app).post('/api/docs').set(t.acme.auth).send({ ...article, externalId: 'other' }).expect(201);
    await request(t.app).patch(`/api/docs/${other.body.id}`).set(t.acme.auth).send({ externalId: 'taken' }).expect(409);
    const bad = await request(t.app).put(path('y')).set(t.acme.auth).send({ title: 'No content' }).expect(400);
    expect(bad.body.errors[0].path).toBe('contentMd');
    await request(t.app).put(path('y')).set(t.acme.auth).send({ ...article, metadata: 'not an object' }).expect(400);
    await request(t.app).put(path('y')).set(t.acme.auth).send({ ...article, metadata: { big: 'x'.repeat(20_000) } }).expect(400);
    await request(t.app).put(path('y'.repeat(600))).set(t.acme.auth).send(article).expect(400);
    const reader = (await t.engine.apiKeys.create(t.acme.tenant.id, { scopes: ['read'] }))._unsafeUnwrap().key;
    await request(t.app).put(path('y')).set({ Authorization: `Bearer ${reader}` }).send(article).expect(403);
    await request(t.app).get(path('y')).set(t.acme.auth).expect(404);
  });

  it('deletes by external id', async () => {
    const created = await request(t.app).put(path('gone')).set(t.acme.auth).send(article).expect(201);
    await request(t.app).delete(path('gone')).set(t.acme.auth).expect(204);
    await request(t.app).get(`/api/docs/${created.body.id}`).set(t.acme.auth).expect(404);
    await request(t.app).delete(path('gone')).set(t.acme.auth).expect(404);
  });
});
