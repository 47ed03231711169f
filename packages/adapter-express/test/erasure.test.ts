import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '@panya/core';
import { createPanyaApp } from '@panya/adapter-express';
import { makeEngine, makeTenant } from './helpers.js';
import { engineInternals } from '@panya/core/testing';

let engine: Engine;
let app: ReturnType<typeof createPanyaApp>;
beforeEach(async () => {
  engine = await makeEngine();
  app = createPanyaApp(engine);
});
afterEach(() => engine.close());

/** A signed-in member of the tenant, with the CSRF header sessions need. */
async function signedIn(slug: string, role: 'owner' | 'admin', workspaceSlug?: string) {
  const email = `${role}-${workspaceSlug ?? 'all'}@${slug}.test`;
  const password = 'correct horse battery';
  (await engine.users.createUser({ email, password, tenantSlug: slug, role, ...(workspaceSlug ? { workspaceSlug } : {}) }))._unsafeUnwrap();
  const agent = request.agent(app);
  await agent.post('/api/auth/login').send({ email, password }).expect(200);
  return agent;
}

describe('DELETE /api/tenant', () => {
  it('only a signed-in owner erases, with the slug confirmed; the tenant is then gone with its data', async () => {
    const acme = await makeTenant(engine, 'acme');
    const globex = await makeTenant(engine, 'globex');
    await request(app).post('/api/docs').set(acme.auth).send({ title: 'Refunds', contentMd: 'Refunds take 14 days.' }).expect(201);
    const kept = await request(app).post('/api/docs').set(globex.auth).send({ title: 'Globex', contentMd: 'Globex doc.' }).expect(201);

    // An admin key cannot, nor can a signed-in admin.
    expect((await request(app).delete('/api/tenant').set(acme.auth).send({ confirm: 'acme' }).expect(403)).body.code).toBe('forbidden');
    const admin = await signedIn('acme', 'admin');
    await admin.delete('/c/acme/api/tenant').set('X-Requested-With', 'fetch').send({ confirm: 'acme' }).expect(403);
    const owner = await signedIn('acme', 'owner');
    // The slug must be repeated exactly.
    const unconfirmed = await owner.delete('/c/acme/api/tenant').set('X-Requested-With', 'fetch').send({ confirm: 'acme-typo' }).expect(400);
    expect(unconfirmed.body.errors).toEqual([expect.objectContaining({ path: 'confirm' })]);
    expect(await engineInternals(engine).store.tenants.getBySlug('acme')).not.toBeNull();

    const done = await owner.delete('/c/acme/api/tenant').set('X-Requested-With', 'fetch').send({ confirm: 'acme' }).expect(200);
    expect(done.body).toMatchObject({ slug: 'acme', hostnames: [], deleted: expect.objectContaining({ tenants: 1, documents: 1, api_keys: 1, memberships: 2 }) });
    expect(await engineInternals(engine).store.tenants.getBySlug('acme')).toBeNull();
    expect(await engineInternals(engine).store.tombstones.getBySlug('acme')).toMatchObject({ slug: 'acme', hostnames: [] });
    // The key and the session died with the tenant; the slug's addresses answer 410.
    await request(app).get('/api/docs').set(acme.auth).expect(401);
    const gone = await owner.get('/c/acme/api/docs').expect(410);
    expect(gone.headers['cache-control']).toBe('no-store');
    // The other tenant is untouched.
    await request(app).get(`/api/docs/${kept.body.id}`).set(globex.auth).expect(200);
  });
});
