import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine, MembershipRole } from '@panya/core';
import { createPanyaApp } from '@panya/adapter-express';
import { makeEngine, makeTenant } from './helpers.js';

/* The REST routes the admin app stands on: who am I, Settings → API Keys, search explain. */

const PASSWORD = 'correct horse battery';
const CSRF = { 'X-Requested-With': 'panya-admin' };

describe('admin app API', () => {
  let engine: Engine;
  let app: ReturnType<typeof createPanyaApp>;

  beforeEach(async () => {
    engine = await makeEngine();
    app = createPanyaApp(engine);
    await makeTenant(engine, 'acme');
    await makeTenant(engine, 'globex');
  });
  afterEach(async () => engine.close());

  async function signIn(role: MembershipRole, tenantSlug = 'acme', workspaceSlug?: string) {
    const email = `${role}-${workspaceSlug ?? 'all'}@${tenantSlug}.test`;
    (await engine.users.createUser({ email, password: PASSWORD, tenantSlug, role, ...(workspaceSlug ? { workspaceSlug } : {}) }))._unsafeUnwrap();
    const agent = request.agent(app);
    await agent.post('/api/auth/login').send({ email, password: PASSWORD }).expect(200);
    return agent;
  }

  it('answers who is signed in with their memberships, and 401 without a session', async () => {
    const owner = await signIn('owner');
    const session = await owner.get('/api/auth/session').expect(200);
    expect(session.body).toEqual({ user: { id: expect.stringMatching(/^usr_/), email: 'owner-all@acme.test' }, memberships: [{ tenantSlug: 'acme', workspaceSlug: null, role: 'owner' }] });
    expect(session.headers['cache-control']).toBe('no-store');
    await request(app).get('/api/auth/session').expect(401);
    await owner.post('/api/auth/session').set(CSRF).expect(405);
  });

  it('tells each caller its role and scopes in the addressed tenant', async () => {
    const viewer = await signIn('viewer');
    const me = (await viewer.get('/c/acme/api/me').expect(200)).body;
    expect(me).toMatchObject({ kind: 'user', role: 'viewer', scopes: ['read'], tenantWide: true, tenant: { slug: 'acme', plan: 'business' }, workspace: { slug: 'default', isDefault: true } });
    // A member of acme is no one in globex.
    await viewer.get('/c/globex/api/me').expect(404);
  });

  it('lets an owner create a key (secret once), use it, list it by prefix, and revoke it', async () => {
    const owner = await signIn('owner');
    const created = await owner.post('/c/acme/api/api-keys').set(CSRF).send({ name: 'CI', scopes: ['read', 'write'] }).expect(201);
    const { key, id, prefix } = created.body as { key: string; id: string; prefix: string };
    expect(key).toMatch(/^svc_live_[0-9A-Za-z]{32}$/);
    expect(created.headers.location).toMatch(new RegExp(`/api-keys/${id}$`));
    expect(key.startsWith(prefix)).toBe(true);
    expect(created.body.lastUsedAt).toBeNull();
    await request(app).get('/api/docs').set('Authorization', `Bearer ${key}`).expect(200);

    const listed = (await owner.get('/c/acme/api/api-keys').expect(200)).body.data as Record<string, unknown>[];
    const row = listed.find((k) => k.id === id)!;
    expect(row).toMatchObject({ name: 'CI', prefix, scopes: ['read', 'write'], workspaceSlug: null, revokedAt: null, kind: 'secret' });
    expect(Date.parse(row.lastUsedAt as string)).toBeGreaterThanOrEqual(Date.parse(created.body.createdAt));
    expect(JSON.stringify(listed)).not.toContain(key);
    expect(JSON.stringify(listed)).not.toContain('secretHash');

    await owner.delete(`/c/acme/api/api-keys/${id}`).set(CSRF).expect(204);
    await request(app).get('/api/docs').set('Authorization', `Bearer ${key}`).expect(401);
    const after = (await owner.get('/c/acme/api/api-keys').expect(200)).body.data as Record<string, unknown>[];
    expect(after.find((k) => k.id === id)!.revokedAt).toEqual(expect.any(String));
    await owner.delete(`/c/acme/api/api-keys/${id}`).set(CSRF).expect(404);
  });

  it('binds a key to a workspace and issues publishable keys only for one workspace, read-only', async () => {
    const owner = await signIn('admin');
    await owner.post('/c/acme/api/workspaces').set(CSRF).send({ slug: 'brand-b', name: 'Brand B' }).expect(201);
    const bound = (await owner.post('/c/acme/api/api-keys').set(CSRF).send({ scopes: ['read'], workspaceSlug: 'brand-b' }).expect(201)).body;
    expect(bound.workspaceSlug).toBe('brand-b');
    await request(app).get('/c/acme/_w/brand-b/api/docs').set('Authorization', `Bearer ${bound.key}`).expect(200);
    await request(app).get('/c/acme/api/docs').set('Authorization', `Bearer ${bound.key}`).expect(404);

    const noWorkspace = await owner.post('/c/acme/api/api-keys').set(CSRF).send({ kind: 'publishable', scopes: ['read'] }).expect(400);
    expect(noWorkspace.body.errors[0].path).toBe('workspaceSlug');
    await owner.post('/c/acme/api/api-keys').set(CSRF).send({ kind: 'publishable', scopes: ['read', 'write'], workspaceSlug: 'default' }).expect(400);
    const pub = (await owner.post('/c/acme/api/api-keys').set(CSRF).send({ kind: 'publishable', scopes: ['read'], workspaceSlug: 'default' }).expect(201)).body;
    expect(pub.key).toMatch(/^svc_pub_/);
    expect(pub.kind).toBe('publishable');
  });

  it('refuses key management to editors, viewers, workspace-bound admins, cookie writes without the CSRF header, and keys of other tenants', async () => {
    for (const role of ['editor', 'viewer'] as const) {
      const agent = await signIn(role);
      await agent.get('/c/acme/api/api-keys').expect(403);
      await agent.post('/c/acme/api/api-keys').set(CSRF).send({ scopes: ['read'] }).expect(403);
    }
    const scoped = await signIn('admin', 'acme', 'default');
    const refused = await scoped.post('/c/acme/api/api-keys').set(CSRF).send({ scopes: ['read'] }).expect(403);
    expect(refused.body.detail).toMatch(/tenant-wide/);

    const owner = await signIn('owner');
    await owner.post('/c/acme/api/api-keys').send({ scopes: ['read'] }).expect(403);
    const globexOwner = await signIn('owner', 'globex');
    const globexKey = (await globexOwner.post('/c/globex/api/api-keys').set(CSRF).send({ scopes: ['read'] }).expect(201)).body;
    await owner.delete(`/c/acme/api/api-keys/${globexKey.id}`).set(CSRF).expect(404);
    await request(app).get('/api/docs').set('Authorization', `Bearer ${globexKey.key}`).expect(200);
    // A key without the admin scope cannot mint keys either.
    const reader = (await globexOwner.post('/c/globex/api/api-keys').set(CSRF).send({ scopes: ['read', 'write'] }).expect(201)).body;
    await request(app).post('/api/api-keys').set('Authorization', `Bearer ${reader.key}`).send({ scopes: ['admin'] }).expect(403);
  });

  it('explains a search: per-channel ranks and contributions that add up to the fused score', async () => {
    const acme = await makeTenant(engine, 'initech');
    for (const [title, body] of [['Refunds', 'Refunds take seven days to reach your card.'], ['Shipping', 'Shipping to Chiang Mai takes two days.'], ['Refund exceptions', 'Sale items get store credit instead of refunds.']]) {
      await request(app).post('/api/docs?wait=true').set(acme.auth).send({ title, contentMd: body }).expect(201);
    }
    const plain = (await request(app).post('/api/search').set(acme.auth).send({ query: 'refunds' }).expect(200)).body;
    expect(plain.explain).toBeUndefined();
    expect(plain.results[0].explain).toBeUndefined();

    const explained = (await request(app).post('/api/search').set(acme.auth).send({ query: 'refunds', explain: true, weights: { semantic: 1 } }).expect(200)).body;
    expect(explained.explain).toEqual({ weights: { lexical: 1, semantic: 1, trigram: 0.5 }, rrfK: expect.any(Number) });
    expect(explained.results.length).toBeGreaterThan(0);
    for (const r of explained.results) {
      const { lexical, semantic, trigram } = r.explain.contributions;
      expect(lexical + semantic + trigram).toBeCloseTo(r.score, 10);
      expect(lexical > 0).toBe(r.lexicalRank !== null);
      expect(semantic > 0).toBe(r.semanticRank !== null);
      if (r.lexicalRank !== null) expect(lexical).toBeCloseTo(1 / (explained.explain.rrfK + r.lexicalRank), 10);
    }
    expect(explained.results[0].title).toMatch(/Refund/);
  });
});
