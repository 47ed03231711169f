import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, HashEmbedder, lexicalFields, type Engine } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { createPanyaApp } from '@panya/adapter-express';
import { makeTenant } from './helpers.js';
import { engineInternals } from '@panya/core/testing';

const SECRET = 'cron-secret-for-tests';
let engine: Engine;
afterEach(async () => engine?.close());

async function setup() {
  engine = createEngine({ store: openSqliteStore({ path: ':memory:' }) });
  const app = createPanyaApp(engine, { cronSecret: SECRET, secureCookies: false });
  return app;
}

const JOBS = ['sla-breach', 'resolutions', 'retention', 'workspace-cleanup', 'usage-reporter', 'vectorize-reindex', 'hostname-poll'];

async function login(app: ReturnType<typeof createPanyaApp>, email: string, password: string) {
  const agent = request.agent(app);
  await agent.post('/api/auth/login').send({ email, password }).expect(200);
  return agent;
}

describe('cron endpoints', () => {
  it.each(JOBS)('GET /api/cron/%s without authorization is 403, with the secret a JSON summary', async (job) => {
    const app = await setup();
    const none = await request(app).get(`/api/cron/${job}`).expect(403);
    expect(none.body.code).toBe('forbidden');
    await request(app).get(`/api/cron/${job}`).set('Authorization', 'Bearer wrong').expect(403);
    const acme = await makeTenant(engine, 'acme');
    await request(app).get(`/api/cron/${job}`).set(acme.auth).expect(403); // an API key is not the cron secret
    const res = await request(app).get(`/api/cron/${job}`).set('Authorization', `Bearer ${SECRET}`).expect(200);
    expect(res.body).toMatchObject({ job, ran: true });
  });

  it('answers an unknown job with 404 and a bad budget with 400', async () => {
    const app = await setup();
    await request(app).get('/api/cron/nope').set('Authorization', `Bearer ${SECRET}`).expect(404);
    await request(app).get('/api/cron/vectorize-reindex?budgetMs=-5').set('Authorization', `Bearer ${SECRET}`).expect(400);
  });

  it('reports the usage-reporter summary shape and idles without meter event names', async () => {
    const app = await setup();
    const res = await request(app).get('/api/cron/usage-reporter').set('Authorization', `Bearer ${SECRET}`).expect(200);
    expect(res.body).toMatchObject({ job: 'usage-reporter', ran: true, scanned: 0, reported: 0, skipped: 0, outcomes: [] });
  });

  it('runs usage-reporter in admin mode for a tenant owner session, scoped to that tenant', async () => {
    const app = await setup();
    const acme = await makeTenant(engine, 'acme');
    await makeTenant(engine, 'globex');
    (await engine.users.createUser({ email: 'owner@acme.test', password: 'correct horse battery', tenantSlug: 'acme', role: 'owner' }))._unsafeUnwrap();
    (await engine.users.createUser({ email: 'editor@acme.test', password: 'correct horse battery', tenantSlug: 'acme', role: 'editor' }))._unsafeUnwrap();
    const owner = await login(app, 'owner@acme.test', 'correct horse battery');
    // The cookie alone (a cross-site link or image) runs nothing: a job run is a state change.
    const csrf = await owner.get('/c/acme/api/cron/usage-reporter').expect(403);
    expect(csrf.body.detail).toMatch(/X-Requested-With/);
    const res = await owner.get('/c/acme/api/cron/usage-reporter').set('X-Requested-With', 'panya').expect(200);
    expect(res.body).toMatchObject({ job: 'usage-reporter', ran: true, tenantId: acme.tenant.id, scanned: 0 });
    await owner.get('/c/globex/api/cron/usage-reporter').set('X-Requested-With', 'panya').expect(403);
    await owner.get('/api/cron/usage-reporter').set('X-Requested-With', 'panya').expect(403); // global runs need the secret
    await owner.get('/c/acme/api/cron/retention').set('X-Requested-With', 'panya').expect(403); // only usage-reporter has an admin mode
    const editor = await login(app, 'editor@acme.test', 'correct horse battery');
    await editor.get('/c/acme/api/cron/usage-reporter').set('X-Requested-With', 'panya').expect(403);
    await request(app).get('/c/acme/api/cron/usage-reporter').expect(403);
  });

  it('runs a job once when two callers fire at the same moment (lease)', async () => {
    const app = await setup();
    await engineInternals(engine).store.jobs.acquireLease('retention', 'another-node', new Date().toISOString(), new Date(Date.now() + 60_000).toISOString());
    const res = await request(app).get('/api/cron/retention').set('Authorization', `Bearer ${SECRET}`).expect(200);
    expect(res.body).toEqual({ job: 'retention', ran: false, reason: 'running_elsewhere' });
  });
});

describe('vectorize-reindex', () => {
  it('re-embeds legacy vectors with workspace metadata, time-bounded and resumable', async () => {
    const app = await setup();
    const acme = await makeTenant(engine, 'acme');
    const { makeWorkspace } = await import('@panya/core/testing');
    const second = makeWorkspace(acme.tenant.id, 'second');
    await engineInternals(engine).store.workspaces.insert(second);
    await engine.ingest.ensureIndexInfo();
    const embedder = new HashEmbedder();
    // 150 legacy chunks of documents in the "second" workspace, plus one whose document is gone.
    const docs = [];
    for (let i = 0; i < 150; i++) {
      const doc = (await engine.documents.create((await engine.access.system('acme', 'second'))._unsafeUnwrap(), { title: `Policy ${i}`, contentMd: `Legacy policy number ${i}` }))._unsafeUnwrap();
      docs.push(doc);
      const text = `Legacy policy number ${i}`;
      await engineInternals(engine).store.search.insertLegacyChunk(acme.tenant.id, doc.id, { id: `chk_legacy${i}`, documentId: doc.id, ordinal: 0, title: doc.title, headingPath: [], text, ...lexicalFields(doc.title, [], text), vector: (await embedder.embedDocuments([text])).embeddings[0]! });
    }
    await engineInternals(engine).store.search.insertLegacyChunk(acme.tenant.id, 'doc_gone', { id: 'chk_orphan', documentId: 'doc_gone', ordinal: 0, title: 'Gone', headingPath: [], text: 'Legacy orphan', ...lexicalFields('Gone', [], 'Legacy orphan'), vector: (await embedder.embedDocuments(['x'])).embeddings[0]! });
    const inDefault = async () => (await request(app).post('/api/search').set(acme.auth).send({ query: 'legacy policy', topK: 50 }).expect(200)).body.results.length;
    expect(await inDefault()).toBeGreaterThan(0); // legacy chunks match every workspace of the tenant

    // A 1 ms budget still processes one batch, then stops and stores its cursor.
    const first = await request(app).get('/api/cron/vectorize-reindex?budgetMs=1').set('Authorization', `Bearer ${SECRET}`).expect(200);
    expect(first.body).toMatchObject({ ran: true, processed: 64, adopted: 64, done: false });
    const second_ = await request(app).get('/api/cron/vectorize-reindex?budgetMs=1').set('Authorization', `Bearer ${SECRET}`).expect(200);
    expect(second_.body).toMatchObject({ processed: 64, done: false });
    expect(second_.body.cursor).toBeGreaterThan(first.body.cursor);
    const rest = await request(app).get('/api/cron/vectorize-reindex').set('Authorization', `Bearer ${SECRET}`).expect(200);
    expect(rest.body).toMatchObject({ processed: 23, adopted: 22, removed: 1, done: true });
    expect(first.body.adopted + second_.body.adopted + rest.body.adopted).toBe(150);

    expect(await inDefault()).toBe(0);
    const inSecond = await request(app).post('/c/acme/_w/second/api/search').set(acme.auth).send({ query: 'legacy policy', topK: 50 }).expect(200);
    expect(inSecond.body.results.length).toBe(50);
    expect((await engineInternals(engine).store.search.listLegacyChunks(0, 10)).length).toBe(0);
    const again = await request(app).get('/api/cron/vectorize-reindex').set('Authorization', `Bearer ${SECRET}`).expect(200);
    expect(again.body).toMatchObject({ processed: 0, done: true });
  });
});

describe('sessions and memberships', () => {
  it('logs in with an HttpOnly signed cookie, acts by role, and logs out', async () => {
    const app = await setup();
    await makeTenant(engine, 'acme');
    (await engine.users.createUser({ email: 'Viewer@Acme.test', password: 'correct horse battery', tenantSlug: 'acme', role: 'viewer' }))._unsafeUnwrap();
    await request(app).post('/api/auth/login').send({ email: 'viewer@acme.test', password: 'wrong password' }).expect(401);
    await request(app).post('/api/auth/login').send({ email: 'nobody@acme.test', password: 'whatever' }).expect(401);
    const res = await request(app).post('/api/auth/login').send({ email: 'viewer@acme.test', password: 'correct horse battery' }).expect(200);
    const cookie = res.headers['set-cookie']![0]!;
    expect(cookie).toMatch(/^panya_session=s%3A/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    const agent = request.agent(app);
    await agent.post('/api/auth/login').send({ email: 'viewer@acme.test', password: 'correct horse battery' }).expect(200);
    await agent.get('/c/acme/api/docs').expect(200);
    await agent.post('/c/acme/api/docs').set('X-Requested-With', 'panya').send({ title: 't', contentMd: 'x' }).expect(403); // viewer: read only
    await agent.get('/api/docs').expect(401); // sessions act on tenant paths only
    await agent.post('/api/auth/logout').expect(403); // no X-Requested-With: the cookie stays
    await agent.get('/c/acme/api/docs').expect(200);
    await agent.post('/api/auth/logout').set('X-Requested-With', 'panya').expect(204);
    await agent.get('/c/acme/api/docs').expect(401);
  });

  it('lets an editor re-index a document and refuses a viewer (reindex needs the editor role)', async () => {
    const app = await setup();
    const acme = await makeTenant(engine, 'acme');
    const doc = (await request(app).post('/api/docs').set(acme.auth).send({ title: 'T', contentMd: 'x' }).expect(201)).body;
    const pw = 'correct horse battery';
    (await engine.users.createUser({ email: 'editor@acme.test', password: pw, tenantSlug: 'acme', role: 'editor' }))._unsafeUnwrap();
    (await engine.users.createUser({ email: 'viewer@acme.test', password: pw, tenantSlug: 'acme', role: 'viewer' }))._unsafeUnwrap();
    const viewer = await login(app, 'viewer@acme.test', pw);
    const refused = await viewer.post(`/c/acme/api/docs/${doc.id}/reindex`).set('X-Requested-With', 'x').expect(403);
    expect(refused.body.requiredScope).toBe('write');
    const editor = await login(app, 'editor@acme.test', pw);
    await editor.post(`/c/acme/api/docs/${doc.id}/reindex`).set('X-Requested-With', 'x').expect(202);
    const audit = await engineInternals(engine).store.audit.list(acme.tenant.id, { type: 'doc.reindex' });
    expect(audit.map((e) => e.actor)).toEqual([(await engineInternals(engine).store.users.getByEmail('editor@acme.test'))!.id]);
  });

  it('prefers the tenant-wide membership, and a workspace-scoped user loses the role in another workspace', async () => {
    const app = await setup();
    const acme = await makeTenant(engine, 'acme');
    const { makeWorkspace } = await import('@panya/core/testing');
    await engineInternals(engine).store.workspaces.insert(makeWorkspace(acme.tenant.id, 'brand-b'));
    const pw = 'correct horse battery';
    (await engine.users.createUser({ email: 'both@acme.test', password: pw, tenantSlug: 'acme', workspaceSlug: 'brand-b', role: 'viewer' }))._unsafeUnwrap();
    (await engine.users.createUser({ email: 'both@acme.test', password: pw, tenantSlug: 'acme', role: 'editor' }))._unsafeUnwrap();
    (await engine.users.createUser({ email: 'scoped@acme.test', password: pw, tenantSlug: 'acme', workspaceSlug: 'brand-b', role: 'editor' }))._unsafeUnwrap();

    const both = await login(app, 'both@acme.test', pw);
    // Tenant-wide editor row wins over the workspace viewer row, in brand-b too.
    await both.post('/c/acme/_w/brand-b/api/docs').set('X-Requested-With', 'x').send({ title: 'B', contentMd: 'b' }).expect(201);

    const scoped = await login(app, 'scoped@acme.test', pw);
    await scoped.post('/c/acme/_w/brand-b/api/docs').set('X-Requested-With', 'x').send({ title: 'B2', contentMd: 'b' }).expect(201);
    // The default workspace: no role there, answered like a workspace that does not exist.
    const sibling = await scoped.get('/c/acme/api/docs').expect(404);
    const missing = await scoped.get('/c/acme/_w/no-such-workspace/api/docs').expect(404);
    expect(sibling.body.detail).toBe(missing.body.detail);
    await scoped.get('/c/acme/_w/default/api/docs').expect(404);
    await scoped.post('/c/acme/_w/brand-b/api/docs').send({ title: 'no csrf header', contentMd: 'b' }).expect(403);
  });
});
