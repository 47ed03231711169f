import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTenant, setup } from './helpers.js';
import { engineInternals } from '@panya/core/testing';

type Ctx = Awaited<ReturnType<typeof setup>>;
let t: Ctx;
beforeEach(async () => {
  t = await setup();
});
afterEach(async () => {
  await t.engine.close();
});

const article = { title: 'Reset your password', contentMd: '# Reset\n\nOpen settings.', publicSurfaces: ['help_center'] };

describe('documents CRUD', () => {
  it('creates, reads, lists, updates and deletes a document', async () => {
    const created = await request(t.app).post('/api/docs').set(t.acme.auth).send(article).expect(201);
    expect(created.body).toMatchObject({ title: article.title, contentMd: article.contentMd, publicSurfaces: ['help_center'], status: 'pending', error: null, workspaceId: t.acme.defaultWorkspace.id });
    expect(created.body.id).toMatch(/^doc_/);
    expect(created.body).not.toHaveProperty('tenantId');
    expect(created.headers.location).toBe(`/api/docs/${created.body.id}`);

    const got = await request(t.app).get(`/api/docs/${created.body.id}`).set(t.acme.auth).expect(200);
    expect(got.body).toEqual(created.body);

    const list = await request(t.app).get('/api/docs').set(t.acme.auth).expect(200);
    const { contentMd: _content, ...summary } = created.body;
    expect(list.body).toEqual({ data: [summary], hasMore: false, nextCursor: null }); // lists leave out contentMd

    const patched = await request(t.app).patch(`/api/docs/${created.body.id}`).set(t.acme.auth).send({ title: 'New title' }).expect(200);
    expect(patched.body).toMatchObject({ title: 'New title', contentMd: article.contentMd });

    await request(t.app).delete(`/api/docs/${created.body.id}`).set(t.acme.auth).expect(204);
    await request(t.app).get(`/api/docs/${created.body.id}`).set(t.acme.auth).expect(404);
  });

  it('paginates with an opaque cursor', async () => {
    for (let i = 0; i < 5; i++) await request(t.app).post('/api/docs').set(t.acme.auth).send({ title: `Doc ${i}`, contentMd: 'x' }).expect(201);
    const first = await request(t.app).get('/api/docs?limit=3').set(t.acme.auth).expect(200);
    expect(first.body.data.map((d: { title: string }) => d.title)).toEqual(['Doc 4', 'Doc 3', 'Doc 2']);
    expect(first.body.hasMore).toBe(true);
    const second = await request(t.app).get(`/api/docs?limit=3&cursor=${first.body.nextCursor}`).set(t.acme.auth).expect(200);
    expect(second.body.data.map((d: { title: string }) => d.title)).toEqual(['Doc 1', 'Doc 0']);
    expect(second.body.hasMore).toBe(false);
    const bad = await request(t.app).get('/api/docs?limit=0').set(t.acme.auth).expect(400);
    expect(bad.body.errors[0].path).toBe('limit');
  });
});

describe('bad input', () => {
  it('answers a bad body with 400 problem JSON naming the fields, and writes nothing', async () => {
    const res = await request(t.app).post('/api/docs').set(t.acme.auth).send({ title: '', contentMd: 5, extra: true }).expect(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ type: 'urn:panya:problem:invalid_request', status: 400, code: 'invalid_request', title: 'Invalid request' });
    expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['', 'contentMd', 'title']);
    expect((await request(t.app).get('/api/docs').set(t.acme.auth)).body.data).toEqual([]);
  });

  it('answers malformed JSON with 400 and oversized bodies with 413', async () => {
    const malformed = await request(t.app).post('/api/docs').set(t.acme.auth).set('Content-Type', 'application/json').send('{"title":').expect(400);
    expect(malformed.body.code).toBe('invalid_request');
    const huge = await request(t.app).post('/api/docs').set(t.acme.auth).send({ title: 'big', contentMd: 'x'.repeat(1024 * 1024 + 10) }).expect(413);
    expect(huge.body.code).toBe('payload_too_large');
    expect((await request(t.app).get('/api/docs').set(t.acme.auth)).body.data).toEqual([]);
  });

  it('refuses an empty PATCH', async () => {
    const doc = await request(t.app).post('/api/docs').set(t.acme.auth).send(article).expect(201);
    await request(t.app).patch(`/api/docs/${doc.body.id}`).set(t.acme.auth).send({}).expect(400);
  });
});

describe('authentication and scopes', () => {
  it('answers a missing or unknown key with 401 and WWW-Authenticate', async () => {
    const none = await request(t.app).get('/api/docs').expect(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(none.body.code).toBe('unauthorized');
    await request(t.app).get('/api/docs').set('Authorization', `Bearer svc_live_${'a'.repeat(32)}`).expect(401);
    await request(t.app).get('/api/docs').set('Authorization', 'Basic abc').expect(401);
  });

  it('answers a revoked key with 401', async () => {
    const keys = await t.engine.apiKeys.list(t.acme.tenant.id);
    await t.engine.apiKeys.revoke(t.acme.tenant.id, keys[0]!.id);
    await request(t.app).get('/api/docs').set(t.acme.auth).expect(401);
  });

  it('answers a key without the needed scope with 403', async () => {
    const readOnly = (await t.engine.apiKeys.create(t.acme.tenant.id, { scopes: ['read'] }))._unsafeUnwrap().key;
    const res = await request(t.app).post('/api/docs').set('Authorization', `Bearer ${readOnly}`).send(article).expect(403);
    expect(res.body).toMatchObject({ code: 'forbidden', requiredScope: 'write' });
    await request(t.app).get('/api/docs').set('Authorization', `Bearer ${readOnly}`).expect(200);
  });

  it('sets a request id on every response and echoes a sane incoming one', async () => {
    const res = await request(t.app).get('/healthz').set('X-Request-Id', 'abc-123').expect(200);
    expect(res.headers['x-request-id']).toBe('abc-123');
    expect((await request(t.app).get('/healthz')).headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('tenant isolation', () => {
  it('never lets another tenant read, change or delete a document: 404', async () => {
    const doc = await request(t.app).post('/api/docs').set(t.acme.auth).send(article).expect(201);
    const id = doc.body.id;
    const other = t.globex.auth;
    const get = await request(t.app).get(`/api/docs/${id}`).set(other).expect(404);
    expect(get.body.code).toBe('not_found');
    await request(t.app).patch(`/api/docs/${id}`).set(other).send({ title: 'pwned' }).expect(404);
    await request(t.app).delete(`/api/docs/${id}`).set(other).expect(404);
    await request(t.app).post('/api/docs/bulk').set(other).send({ delete: [id] }).expect(404);
    expect((await request(t.app).get('/api/docs').set(other)).body.data).toEqual([]);
    expect((await request(t.app).get(`/api/docs/${id}`).set(t.acme.auth).expect(200)).body.title).toBe(article.title);
  });

  it('answers /c/{other tenant}/api with 404, never data', async () => {
    await request(t.app).post('/api/docs').set(t.acme.auth).send(article).expect(201);
    const res = await request(t.app).get('/c/acme/api/docs').set(t.globex.auth).expect(404);
    expect(res.body.data).toBeUndefined();
    await request(t.app).get('/c/acme/_w/default/api/docs').set(t.globex.auth).expect(404);
    await request(t.app).get('/c/nobody/api/docs').set(t.globex.auth).expect(404);
  });
});

describe('routing shape', () => {
  it('serves the same API at /api, /c/{tenant}/api and /c/{tenant}/_w/{workspace}/api', async () => {
    const second = { id: '', slug: 'second' };
    const ws = await engineInternals(t.engine).store.workspaces.getDefault(t.acme.tenant.id);
    // A second workspace written through the store until workspace endpoints exist.
    const { makeWorkspace } = await import('@panya/core/testing');
    const w2 = makeWorkspace(t.acme.tenant.id, 'second');
    await engineInternals(t.engine).store.workspaces.insert(w2);
    second.id = w2.id;

    const inDefault = await request(t.app).post('/c/acme/api/docs').set(t.acme.auth).send({ title: 'Default doc', contentMd: 'a' }).expect(201);
    expect(inDefault.body.workspaceId).toBe(ws!.id);
    const inSecond = await request(t.app).post('/c/acme/_w/second/api/docs').set(t.acme.auth).send({ title: 'Second doc', contentMd: 'b' }).expect(201);
    expect(inSecond.body.workspaceId).toBe(second.id);

    const titles = async (path: string) => (await request(t.app).get(path).set(t.acme.auth).expect(200)).body.data.map((d: { title: string }) => d.title);
    expect(await titles('/api/docs')).toEqual(['Default doc']);
    expect(await titles('/c/acme/api/docs')).toEqual(['Default doc']);
    expect(await titles('/c/acme/_w/default/api/docs')).toEqual(['Default doc']);
    expect(await titles('/c/acme/_w/second/api/docs')).toEqual(['Second doc']);
    await request(t.app).get(`/c/acme/_w/second/api/docs/${inDefault.body.id}`).set(t.acme.auth).expect(404);
    await request(t.app).get('/c/acme/_w/missing/api/docs').set(t.acme.auth).expect(404);
  });

  it('confines a workspace-bound key to its workspace', async () => {
    const { makeWorkspace } = await import('@panya/core/testing');
    await engineInternals(t.engine).store.workspaces.insert(makeWorkspace(t.acme.tenant.id, 'second'));
    const bound = (await t.engine.apiKeys.create(t.acme.tenant.id, { scopes: ['read', 'write'], workspaceSlug: 'second' }))._unsafeUnwrap().key;
    const auth = { Authorization: `Bearer ${bound}` };
    const doc = await request(t.app).post('/api/docs').set(auth).send(article).expect(201);
    expect((await request(t.app).get('/c/acme/_w/second/api/docs').set(auth).expect(200)).body.data).toHaveLength(1);
    // Another workspace of the tenant answers like one that does not exist.
    await request(t.app).get('/c/acme/api/docs').set(auth).expect(404);
    await request(t.app).get(`/c/acme/_w/default/api/docs/${doc.body.id}`).set(t.acme.auth).expect(404);
  });
});

describe('bulk', () => {
  it('applies create, update and delete in one request with a result per item', async () => {
    const a = (await request(t.app).post('/api/docs').set(t.acme.auth).send(article)).body;
    const b = (await request(t.app).post('/api/docs').set(t.acme.auth).send(article)).body;
    const res = await request(t.app)
      .post('/api/docs/bulk')
      .set(t.acme.auth)
      .send({ create: [{ title: 'New', contentMd: 'n' }], update: [{ id: a.id, title: 'Changed' }], delete: [b.id] })
      .expect(200);
    expect(res.body.results).toEqual([
      { op: 'create', index: 0, id: expect.stringMatching(/^doc_/), status: 'created' },
      { op: 'update', index: 0, id: a.id, status: 'updated' },
      { op: 'delete', index: 0, id: b.id, status: 'deleted' },
    ]);
    const titles = (await request(t.app).get('/api/docs').set(t.acme.auth)).body.data.map((d: { title: string }) => d.title).sort();
    expect(titles).toEqual(['Changed', 'New']);
  });

  it('rejects the whole batch naming each bad item, and writes nothing', async () => {
    const a = (await request(t.app).post('/api/docs').set(t.acme.auth).send(article)).body;
    const res = await request(t.app)
      .post('/api/docs/bulk')
      .set(t.acme.auth)
      .send({ create: [{ title: 'ok', contentMd: 'x' }, { title: '', contentMd: 'x' }, { contentMd: 'x' }], update: [{ id: a.id, title: 'Changed' }], delete: ['nope'] })
      .expect(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['create[1].title', 'create[2].title', 'delete[0]']);
    const docs = (await request(t.app).get('/api/docs').set(t.acme.auth)).body.data;
    expect(docs.map((d: { title: string }) => d.title)).toEqual([article.title]);
  });

  it('rolls back everything when an id is unknown in the workspace', async () => {
    const a = (await request(t.app).post('/api/docs').set(t.acme.auth).send(article)).body;
    const other = await makeTenant(t.engine, 'initech');
    const foreign = (await request(t.app).post('/api/docs').set(other.auth).send(article)).body;
    const res = await request(t.app)
      .post('/api/docs/bulk')
      .set(t.acme.auth)
      .send({ create: [{ title: 'New', contentMd: 'n' }], delete: [a.id, foreign.id] })
      .expect(404);
    expect(res.body.errors).toEqual([{ path: 'delete[1]', message: `document ${foreign.id} not found` }]);
    const docs = (await request(t.app).get('/api/docs').set(t.acme.auth)).body.data;
    expect(docs.map((d: { id: string }) => d.id)).toEqual([a.id]);
  });

  it('an import (creates only) is all or none: an external id already taken is 409 and nothing is written', async () => {
    await request(t.app).post('/api/docs').set(t.acme.auth).send({ ...article, externalId: 'kb-1' }).expect(201);
    const res = await request(t.app)
      .post('/api/docs/bulk')
      .set(t.acme.auth)
      .send({ create: [{ title: 'New', contentMd: 'n', externalId: 'kb-2' }, { title: 'Again', contentMd: 'a', externalId: 'kb-1' }] })
      .expect(409);
    expect(res.body.code).toBe('conflict');
    expect(res.body.detail).toMatch(/externalId/);
    const docs = (await request(t.app).get('/api/docs').set(t.acme.auth)).body.data;
    expect(docs.map((d: { title: string }) => d.title)).toEqual([article.title]);
    const imported = await request(t.app).post('/api/docs/bulk').set(t.acme.auth).send({ create: [{ title: 'New', contentMd: 'n', externalId: 'kb-2' }] }).expect(200);
    expect(imported.body.results).toEqual([{ op: 'create', index: 0, id: expect.stringMatching(/^doc_/), status: 'created' }]);
  });
});

describe('document lists', () => {
  it('omit contentMd unless ?fields= asks for it, and refuse unknown fields', async () => {
    const created = (await request(t.app).post('/api/docs').set(t.acme.auth).send(article).expect(201)).body;
    const plain = (await request(t.app).get('/api/docs').set(t.acme.auth).expect(200)).body.data[0];
    expect(plain).not.toHaveProperty('contentMd');
    expect(plain).toMatchObject({ id: created.id, title: article.title, status: 'pending', publicSurfaces: ['help_center'] });

    const chosen = (await request(t.app).get('/api/docs?fields=title,contentMd').set(t.acme.auth).expect(200)).body.data[0];
    expect(chosen).toEqual({ id: created.id, title: article.title, contentMd: article.contentMd });
    const spaced = (await request(t.app).get('/c/acme/api/docs?fields=%20status%20').set(t.acme.auth).expect(200)).body.data[0];
    expect(spaced).toEqual({ id: created.id, status: 'pending' });

    const bad = await request(t.app).get('/api/docs?fields=title,secret').set(t.acme.auth).expect(400);
    expect(bad.body.errors[0].path).toMatch(/^fields/);
    expect(bad.body.errors[0].message).toContain('contentMd');
    await request(t.app).get('/api/docs?fields=').set(t.acme.auth).expect(400);
    // A single document keeps its content.
    expect((await request(t.app).get(`/api/docs/${created.id}`).set(t.acme.auth).expect(200)).body.contentMd).toBe(article.contentMd);
  });
});

describe('unknown routes', () => {
  it('answers 404 problem JSON', async () => {
    const res = await request(t.app).get('/api/nothing-here').set(t.acme.auth).expect(404);
    expect(res.body.code).toBe('not_found');
    await request(t.app).get('/nowhere').expect(404);
  });
});
