/**
 * A plan change re-applies every cap (over HTTP): custom hostnames beyond the new cap go
 * inactive (the earliest activated keep serving), workspaces beyond it are suspended — data
 * kept, their keys and help centers answer a problem naming the plan that restores them — and
 * a re-upgrade restores both. Nothing is deleted.
 */
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, parseHelpHost, type Engine } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { createPanyaApp } from '@panya/adapter-express';
import { engineInternals } from '@panya/core/testing';
import { makeTenant } from './helpers.js';

const HELP = 'help.panya.example';
let engine: Engine;
let app: ReturnType<typeof createPanyaApp>;
beforeEach(() => {
  engine = createEngine({ store: openSqliteStore({ path: ':memory:' }), helpHost: parseHelpHost(HELP) });
  app = createPanyaApp(engine);
});
afterEach(() => engine.close());

async function growthTenant() {
  const acme = await makeTenant(engine, 'acme', ['read', 'write', 'admin'], 'growth');
  const store = engineInternals(engine).store;
  for (const slug of ['support', 'sales']) await request(app).post('/api/workspaces').set(acme.auth).send({ slug, name: slug }).expect(201);
  for (const ws of ['', '/_w/support', '/_w/sales']) {
    await request(app).post(`/c/acme${ws}/api/docs?wait=true`).set(acme.auth).send({ title: `Refunds${ws}`, contentMd: 'Refunds take 7 days.', publicSurfaces: ['help_center'] }).expect(201);
  }
  const salesKey = (await engine.apiKeys.create(acme.tenant.id, { scopes: ['read'], workspaceSlug: 'sales' }))._unsafeUnwrap().key;
  // Three active hostnames, activated on the 1st, 2nd and 3rd (created in the opposite order).
  for (const [i, day] of ['03', '02', '01'].entries()) {
    const host = `help${i}.acme.co.th`;
    await store.hostnames.insert({ id: `hn_${day}`, tenantId: acme.tenant.id, hostname: host, status: 'active', edgeHostnameId: `edge_${day}`, txtName: `_cf.${host}`, txtValue: 'v', verificationError: null, verificationDetail: null, statusChangedAt: `2026-10-${day}T00:00:00.000Z`, lastCheckedAt: null, createdAt: `2026-09-0${i + 1}T00:00:00.000Z`, updatedAt: `2026-10-${day}T00:00:00.000Z` });
  }
  const active = async () => (await store.hostnames.list(acme.tenant.id)).filter((h) => h.status === 'active').map((h) => h.id).sort();
  const serving = async () =>
    ((await request(app).get('/api/workspaces').set(acme.auth).expect(200)).body.data as { slug: string; suspendedAt: string | null }[])
      .filter((w) => !w.suspendedAt)
      .map((w) => w.slug)
      .sort();
  return { acme, store, salesKey, active, serving };
}

describe('caps follow the plan', () => {
  it('Growth → Business → Team → Growth: 3/3 → 1 hostname → 1 workspace → 3/3 again, nothing deleted', async () => {
    const { acme, store, salesKey, active, serving } = await growthTenant();
    expect(await active()).toEqual(['hn_01', 'hn_02', 'hn_03']);

    (await engine.tenancy.update('acme', { plan: 'business' }))._unsafeUnwrap();
    expect(await active()).toEqual(['hn_01']); // the earliest activated keeps serving
    expect(await serving()).toEqual(['default', 'sales', 'support']);

    (await engine.tenancy.update('acme', { plan: 'team' }))._unsafeUnwrap();
    expect(await active()).toEqual([]);
    expect(await serving()).toEqual(['default']);
    const listed = (await request(app).get('/api/workspaces').set(acme.auth).expect(200)).body.data as { slug: string; suspendedAt: string | null }[];
    expect(listed.filter((w) => w.suspendedAt).map((w) => w.slug).sort()).toEqual(['sales', 'support']);

    // The suspended workspace's key and help center answer a problem naming the plan that restores them.
    const refused = await request(app).get('/api/docs').set('Authorization', `Bearer ${salesKey}`).expect(403);
    expect(refused.headers['content-type']).toMatch(/problem\+json/);
    expect(refused.body).toMatchObject({ code: 'plan_required', plan: 'Business' });
    expect(refused.body.detail).toMatch(/suspended.*Upgrade to Business/);
    await request(app).get('/c/acme/_w/support/api/docs').set(acme.auth).expect(403);
    const page = await request(app).get('/acme/_w/sales/').set('Host', HELP).expect(403);
    expect(page.text).toContain('Business');
    await request(app).get('/acme/').set('Host', HELP).expect(200);
    // No new workspace while over the cap.
    expect((await request(app).post('/api/workspaces').set(acme.auth).send({ slug: 'more', name: 'more' }).expect(403)).body.code).toBe('quota_exceeded');

    // Nothing was deleted: documents, keys and hostnames are all still there.
    expect(await store.hostnames.list(acme.tenant.id)).toHaveLength(3);
    const sales = (await store.workspaces.getBySlug(acme.tenant.id, 'sales'))!;
    expect((await store.documents.list({ tenantId: acme.tenant.id, workspaceId: sales.id }, { limit: 10 })).items).toHaveLength(1);

    (await engine.tenancy.update('acme', { plan: 'growth' }))._unsafeUnwrap();
    expect(await active()).toEqual(['hn_01', 'hn_02', 'hn_03']);
    expect(await serving()).toEqual(['default', 'sales', 'support']);
    await request(app).get('/api/docs').set('Authorization', `Bearer ${salesKey}`).expect(200);
    await request(app).get('/acme/_w/sales/').set('Host', HELP).expect(200);
  });
});
