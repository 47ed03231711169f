import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '@panya/core';
import { openSqliteStore, type SqliteStore } from '@panya/store-sqlite';
import { createPanyaApp } from '@panya/adapter-express';
import { makeTenant } from './helpers.js';

const SECRET = 'cron-secret-for-tests';
const DAY = 86_400_000;

let now: number;
let store: SqliteStore;
let engine: Engine;
let app: ReturnType<typeof createPanyaApp>;

beforeEach(() => {
  now = Date.parse('2030-03-01T09:00:00.000Z');
  store = openSqliteStore({ path: ':memory:' });
  engine = createEngine({ store, clock: { now: () => new Date(now) } });
  app = createPanyaApp(engine, { cronSecret: SECRET, secureCookies: false });
});
afterEach(async () => {
  await engine.close();
});

/** Rows of every workspace-scoped table that belong to the workspace. */
async function rowsUnder(workspaceId: string): Promise<Record<string, number>> {
  // The tenant's audit chain keeps a workspace's entries past its hard delete (checked below).
  const tables = (await store.workspaceScopedTables()).filter((t) => t !== 'audit_events');
  return Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await store.countWorkspaceRows(t, workspaceId)])));
}

const article = (title: string, body: string) => ({ title, contentMd: `# ${title}\n\n${body}` });

describe('workspace lifecycle over HTTP', () => {
  it('refuses a Free tenant its second workspace with 403 quota_exceeded naming the plan that lifts the cap', async () => {
    const free = await makeTenant(engine, 'tiny', undefined, 'free');
    const res = await request(app).post('/api/workspaces').set(free.auth).send({ slug: 'brand-two', name: 'Brand two' }).expect(403);
    expect(res.body).toMatchObject({ code: 'quota_exceeded', limit: 1, plan: 'Business' });
    expect(res.body.detail).toMatch(/Free plan allows 1 workspace; upgrade to Business/);
    const team = await makeTenant(engine, 'teamco', undefined, 'team');
    const teamRes = await request(app).post('/api/workspaces').set(team.auth).send({ slug: 'brand-two', name: 'Brand two' }).expect(403);
    expect(teamRes.body.detail).toMatch(/Team plan allows 1 workspace; upgrade to Business for up to 5 workspaces/);
    const list = (await request(app).get('/api/workspaces').set(free.auth).expect(200)).body;
    expect(list.data.map((w: { slug: string }) => w.slug)).toEqual(['default']);
    // An Enterprise flag, stored but not implemented: the API says so.
    expect(list.crossWorkspaceVisitorLinking).toEqual({ enabled: false, implemented: false });
  });

  it('creates, edits, serves, soft-deletes with a countdown, restores, and hard-deletes 30 days later', async () => {
    const acme = await makeTenant(engine, 'acme'); // Business: 5 workspaces
    const other = await makeTenant(engine, 'globex');

    const created = await request(app).post('/api/workspaces').set(acme.auth).send({ slug: 'brand-b', name: 'Brand B', brandAccent: '#AABBCC' }).expect(201);
    const ws = created.body;
    expect(ws).toMatchObject({ slug: 'brand-b', name: 'Brand B', brandAccent: '#aabbcc', isDefault: false, deletedAt: null, recoverUntil: null, daysLeft: null });
    expect(ws).not.toHaveProperty('tenantId');
    expect(created.headers.location).toBe(`/api/workspaces/${ws.id}`);
    await request(app).post('/api/workspaces').set(acme.auth).send({ slug: 'brand-b', name: 'Again' }).expect(409);
    const patched = await request(app).patch(`/c/acme/api/workspaces/${ws.id}`).set(acme.auth).send({ name: 'Brand Bee', brandAccent: '#102030' }).expect(200);
    expect(patched.body).toMatchObject({ name: 'Brand Bee', brandAccent: '#102030' });
    await request(app).patch(`/api/workspaces/${ws.id}`).set(acme.auth).send({ brandAccent: 'red' }).expect(400);
    await request(app).get(`/api/workspaces/${ws.id}`).set(other.auth).expect(404); // another tenant's workspace

    // Use it: documents and search through /c/{t}/_w/{ws}/api, isolated from the default workspace.
    const base = '/c/acme/_w/brand-b/api';
    const doc = (await request(app).post(`${base}/docs?wait=true`).set(acme.auth).send(article('Bee returns', 'Bee parcels are returned within 9 days.')).expect(201)).body;
    expect(doc).toMatchObject({ workspaceId: ws.id, status: 'indexed' });
    const kept = (await request(app).post('/api/docs?wait=true').set(acme.auth).send(article('Default returns', 'Default parcels are returned within 3 days.')).expect(201)).body;
    const found = await request(app).post(`${base}/search`).set(acme.auth).send({ query: 'parcels returned' }).expect(200);
    expect(found.body.results.map((r: { documentId: string }) => r.documentId)).toEqual([doc.id]);
    await request(app).post(`${base}/answer`).set(acme.auth).send({ query: 'when are bee parcels returned?' }).expect(200);
    const chat = await request(app).post(`${base}/chat`).set(acme.auth).send({ query: 'when are bee parcels returned?' }).expect(200);
    expect(chat.text).toContain('event: done');
    const bound = (await engine.apiKeys.create(acme.tenant.id, { scopes: ['read'], workspaceSlug: 'brand-b' }))._unsafeUnwrap().key;
    const boundAuth = { Authorization: `Bearer ${bound}` };
    expect((await request(app).get('/api/docs').set(boundAuth).expect(200)).body.data.map((d: { id: string }) => d.id)).toEqual([doc.id]);
    const before = await rowsUnder(ws.id);
    expect(before).toMatchObject({ documents: 1, api_keys: 1, conversations: 1, messages: 2 });
    expect(before.chunks).toBeGreaterThan(0);
    expect(before.api_query_events).toBeGreaterThan(0);

    // The default workspace cannot be deleted; this one can, with a 30-day countdown.
    await request(app).delete(`/api/workspaces/${acme.defaultWorkspace.id}`).set(acme.auth).expect(409);
    const deleted = await request(app).delete(`/api/workspaces/${ws.id}`).set(acme.auth).expect(200);
    expect(deleted.body).toMatchObject({ deletedAt: new Date(now).toISOString(), recoverUntil: new Date(now + 30 * DAY).toISOString(), daysLeft: 30 });
    // Invisible on every route, its keys stop working, its data stays.
    await request(app).get(`${base}/docs`).set(acme.auth).expect(404);
    await request(app).post(`${base}/search`).set(acme.auth).send({ query: 'parcels' }).expect(404);
    await request(app).get('/api/docs').set(boundAuth).expect(401);
    await request(app).patch(`/api/workspaces/${ws.id}`).set(acme.auth).send({ name: 'x' }).expect(404);
    expect(await rowsUnder(ws.id)).toEqual(before);
    now += DAY + 1;
    const listed = await request(app).get('/api/workspaces').set(acme.auth).expect(200);
    expect(listed.body.data.map((w: { slug: string; daysLeft: number | null }) => [w.slug, w.daysLeft])).toEqual([
      ['default', null],
      ['brand-b', 29],
    ]);

    // Restore within the window: everything is back.
    const restored = await request(app).post(`/api/workspaces/${ws.id}/restore`).set(acme.auth).expect(200);
    expect(restored.body).toMatchObject({ deletedAt: null, daysLeft: null, name: 'Brand Bee' });
    expect((await request(app).get(`${base}/docs/${doc.id}`).set(acme.auth).expect(200)).body.title).toBe('Bee returns');
    await request(app).get('/api/docs').set(boundAuth).expect(200);
    await request(app).post(`/api/workspaces/${ws.id}/restore`).set(acme.auth).expect(409); // not deleted

    // Delete again; 31 days later restore is 410 and the cleanup job removes the whole tree.
    await request(app).delete(`/api/workspaces/${ws.id}`).set(acme.auth).expect(200);
    now += 31 * DAY;
    const late = await request(app).post(`/api/workspaces/${ws.id}/restore`).set(acme.auth).expect(410);
    expect(late.body.code).toBe('gone');
    const cleanup = await request(app).get('/api/cron/workspace-cleanup').set('Authorization', `Bearer ${SECRET}`).expect(200);
    expect(cleanup.body).toMatchObject({ job: 'workspace-cleanup', ran: true, scanned: 1, hardDeleted: 1, done: true });
    expect(cleanup.body.rowsDeleted).toMatchObject({ documents: 1, api_keys: 1, workspaces: 1 });
    expect(cleanup.body.workspaces).toEqual([{ tenantId: acme.tenant.id, workspaceId: ws.id, slug: 'brand-b', deletedAt: expect.any(String), hardDeleted: true }]);
    for (const [table, n] of Object.entries(await rowsUnder(ws.id))) expect([table, n]).toEqual([table, 0]);
    const history = (await request(app).get('/api/audit').query({ workspaceId: ws.id }).set(acme.auth).expect(200)).body.data.map((e: { type: string }) => e.type);
    expect(history).toEqual(['workspace.deleted', 'workspace.restored', 'workspace.deleted', 'api_key.created', 'document.created', 'workspace.updated', 'workspace.created']);
    await request(app).get(`/api/workspaces/${ws.id}`).set(acme.auth).expect(404);
    // Other workspaces untouched.
    expect((await request(app).get(`/api/docs/${kept.id}`).set(acme.auth).expect(200)).body.status).toBe('indexed');
    const still = await request(app).post('/api/search').set(acme.auth).send({ query: 'parcels returned' }).expect(200);
    expect(still.body.results.map((r: { documentId: string }) => r.documentId)).toEqual([kept.id]);
    // The slug is free again once hard-deleted; a second run finds nothing.
    await request(app).post('/api/workspaces').set(acme.auth).send({ slug: 'brand-b', name: 'Brand B again' }).expect(201);
    const again = await request(app).get('/api/cron/workspace-cleanup').set('Authorization', `Bearer ${SECRET}`).expect(200);
    expect(again.body).toMatchObject({ scanned: 0, hardDeleted: 0, done: true });
  });

  it('counts only live workspaces toward the cap and refuses a restore beyond it', async () => {
    const acme = await makeTenant(engine, 'acme');
    (await engine.tenancy.update('acme', { quotas: { maxWorkspaces: 2 } }))._unsafeUnwrap();
    const first = (await request(app).post('/api/workspaces').set(acme.auth).send({ slug: 'one', name: 'One' }).expect(201)).body;
    const capped = await request(app).post('/api/workspaces').set(acme.auth).send({ slug: 'two', name: 'Two' }).expect(403);
    expect(capped.body).toMatchObject({ limit: 2, plan: 'Growth' });
    await request(app).delete(`/api/workspaces/${first.id}`).set(acme.auth).expect(200);
    await request(app).post('/api/workspaces').set(acme.auth).send({ slug: 'one', name: 'Slug kept' }).expect(409);
    await request(app).post('/api/workspaces').set(acme.auth).send({ slug: 'two', name: 'Two' }).expect(201);
    expect((await request(app).post(`/api/workspaces/${first.id}/restore`).set(acme.auth).expect(403)).body.code).toBe('quota_exceeded');
  });

  it('needs a tenant-wide admin key or an owner/admin session', async () => {
    const acme = await makeTenant(engine, 'acme', ['read', 'write']);
    const res = await request(app).get('/api/workspaces').set(acme.auth).expect(403);
    expect(res.body.requiredScope).toBe('admin');
    const bound = (await engine.apiKeys.create(acme.tenant.id, { scopes: ['admin'], workspaceSlug: 'default' }))._unsafeUnwrap().key;
    await request(app).post('/api/workspaces').set({ Authorization: `Bearer ${bound}` }).send({ slug: 'x1', name: 'X' }).expect(403);
    for (const [email, role] of [['owner@acme.test', 'owner'], ['editor@acme.test', 'editor']] as const) {
      (await engine.users.createUser({ email, password: 'correct horse battery', tenantSlug: 'acme', role }))._unsafeUnwrap();
    }
    const owner = request.agent(app);
    await owner.post('/api/auth/login').send({ email: 'owner@acme.test', password: 'correct horse battery' }).expect(200);
    await owner.post('/c/acme/api/workspaces').set('X-Requested-With', 'panya').send({ slug: 'from-admin', name: 'From admin' }).expect(201);
    const editor = request.agent(app);
    await editor.post('/api/auth/login').send({ email: 'editor@acme.test', password: 'correct horse battery' }).expect(200);
    await editor.get('/c/acme/api/workspaces').expect(403);
  });

  it('keeps two workspaces of one tenant apart on every route', async () => {
    const acme = await makeTenant(engine, 'acme');
    await request(app).post('/api/workspaces').set(acme.auth).send({ slug: 'brand-b', name: 'Brand B' }).expect(201);
    const bases = { default: '/c/acme/api', brand: '/c/acme/_w/brand-b/api' };
    const docs = {
      default: (await request(app).post(`${bases.default}/docs?wait=true`).set(acme.auth).send(article('Kiwi shipping', 'Kiwi orders ship on Mondays.')).expect(201)).body,
      brand: (await request(app).post(`${bases.brand}/docs?wait=true`).set(acme.auth).send(article('Mango shipping', 'Mango orders ship on Fridays.')).expect(201)).body,
    };
    const conversation = async (base: string) => /"conversationId":"(conv_\w+)"/.exec((await request(app).post(`${base}/chat`).set(acme.auth).send({ query: 'when do orders ship?' }).expect(200)).text)![1]!;
    const conversations = { default: await conversation(bases.default), brand: await conversation(bases.brand) };
    for (const [side, other] of [['default', 'brand'], ['brand', 'default']] as const) {
      const base = bases[side];
      const foreign = docs[other].id;
      expect((await request(app).get(`${base}/docs`).set(acme.auth).expect(200)).body.data.map((d: { id: string }) => d.id)).toEqual([docs[side].id]);
      await request(app).get(`${base}/docs/${foreign}`).set(acme.auth).expect(404);
      await request(app).patch(`${base}/docs/${foreign}`).set(acme.auth).send({ title: 'x' }).expect(404);
      await request(app).post(`${base}/docs/${foreign}/reindex`).set(acme.auth).expect(404);
      await request(app).delete(`${base}/docs/${foreign}`).set(acme.auth).expect(404);
      const bulk = await request(app).post(`${base}/docs/bulk`).set(acme.auth).send({ delete: [foreign] });
      expect(bulk.status).toBe(404);
      const search = await request(app).post(`${base}/search`).set(acme.auth).send({ query: 'orders ship kiwi mango' }).expect(200);
      expect(search.body.results.map((r: { documentId: string }) => r.documentId)).toEqual([docs[side].id]);
      const answer = await request(app).post(`${base}/answer`).set(acme.auth).send({ query: 'when do kiwi and mango orders ship?' }).expect(200);
      expect(JSON.stringify(answer.body)).not.toContain(foreign);
      await request(app).post(`${base}/chat`).set(acme.auth).send({ query: 'and then?', conversationId: conversations[other] }).expect(404);
      await request(app).post(`${base}/chat`).set(acme.auth).send({ query: 'and then?', conversationId: conversations[side] }).expect(200);
    }
    // Both documents still exist, each in its own workspace.
    await request(app).get(`${bases.brand}/docs/${docs.brand.id}`).set(acme.auth).expect(200);
    await request(app).get(`${bases.default}/docs/${docs.default.id}`).set(acme.auth).expect(200);
  });
});

describe('a workspace the caller may not address', () => {
  it('answers exactly like one that does not exist: 404, same body, for a bound key and a workspace-scoped member', async () => {
    const acme = await makeTenant(engine, 'acme', ['admin', 'read', 'write']);
    await request(app).post('/api/workspaces').set(acme.auth).send({ slug: 'brand-b', name: 'Brand B' }).expect(201);
    const bound = (await engine.apiKeys.create(acme.tenant.id, { scopes: ['read'], workspaceSlug: 'default' }))._unsafeUnwrap().key;
    const auth = { Authorization: `Bearer ${bound}` };
    const sibling = await request(app).get('/c/acme/_w/brand-b/api/docs').set(auth).expect(404);
    const missing = await request(app).get('/c/acme/_w/brand-z/api/docs').set(auth).expect(404);
    const strip = (body: Record<string, unknown>) => ({ ...body, instance: undefined, requestId: undefined });
    expect(strip(sibling.body)).toEqual(strip(missing.body));

    (await engine.users.createUser({ email: 'scoped@acme.test', password: 'correct horse battery', tenantSlug: 'acme', workspaceSlug: 'brand-b', role: 'editor' }))._unsafeUnwrap();
    const member = request.agent(app);
    await member.post('/api/auth/login').send({ email: 'scoped@acme.test', password: 'correct horse battery' }).expect(200);
    const notMine = await member.get('/c/acme/_w/default/api/docs').expect(404);
    const notThere = await member.get('/c/acme/_w/brand-z/api/docs').expect(404);
    expect(strip(notMine.body)).toEqual(strip(notThere.body));
    await member.get('/c/acme/_w/brand-b/api/docs').expect(200);
  });
});
