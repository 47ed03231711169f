import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Clock, type Engine } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { createPanyaApp } from '@panya/adapter-express';
import { makeTenant } from './helpers.js';
import { engineInternals } from '@panya/core/testing';

/** A clock the test moves by setting `t`. */
function clockAt(iso: string): Clock & { t: number } {
  const clock: Clock & { t: number } = { t: Date.parse(iso), now: () => new Date(clock.t) };
  return clock;
}

let engine: Engine;
afterEach(async () => engine?.close());

function setup(iso = '2026-11-21T10:15:00Z') {
  const clock = clockAt(iso);
  engine = createEngine({ store: openSqliteStore({ path: ':memory:' }), clock });
  return { clock, app: createPanyaApp(engine) };
}

const search = (app: ReturnType<typeof createPanyaApp>, auth: Record<string, string>) => request(app).post('/api/search').set(auth).send({ query: 'refund' });

describe('rate limits by plan', () => {
  it('refuses the 61st search of one key within an hour with 429, Retry-After and RateLimit headers', async () => {
    const { app, clock } = setup();
    const acme = await makeTenant(engine, 'acme', undefined, 'business');
    const first = await search(app, acme.auth).expect(200);
    expect(first.headers).toMatchObject({ 'ratelimit-limit': '60', 'ratelimit-remaining': '59', 'ratelimit-reset': '2700', 'ratelimit-policy': '60;w=3600;comment="perKeyPerHour"' });
    for (let i = 2; i <= 60; i++) await search(app, acme.auth).expect(200);
    const refused = await search(app, acme.auth).expect(429);
    expect(refused.body).toMatchObject({ code: 'rate_limited', status: 429, limit: 60, quota: 'perKeyPerHour', resetAt: '2026-11-21T11:00:00.000Z' });
    // The problem says which limit, when it resets and how the operator changes it.
    expect(refused.body.detail).toBe(
      'Rate limit reached: 60 queries per hour for this API key (perKeyPerHour). It resets at 2026-11-21T11:00:00Z, in 2700 s. The server\'s operator can change it: panya tenant update --slug acme --quota perKeyPerHour=<number|unlimited>.',
    );
    const thai = await search(app, { ...acme.auth, 'Accept-Language': 'th' }).expect(429);
    expect(thai.body.detail).toContain('คำค้นต่อชั่วโมงของ API key นี้ (perKeyPerHour)');
    expect(refused.headers['retry-after']).toBe('2700');
    expect(refused.headers).toMatchObject({ 'ratelimit-limit': '60', 'ratelimit-remaining': '0', 'ratelimit-reset': '2700' });
    // Another key of the same tenant has its own hourly budget.
    const other = (await engine.apiKeys.create(acme.tenant.id, { scopes: ['read'] }))._unsafeUnwrap().key;
    await search(app, { Authorization: `Bearer ${other}` }).expect(200);
    // The next hour the key may search again.
    clock.t = Date.parse('2026-11-21T11:00:00Z');
    await search(app, acme.auth).expect(200);
  });

  it('refuses a Free tenant’s 101st query of the UTC day across keys, until midnight', async () => {
    const { app, clock } = setup('2026-11-21T23:00:00Z');
    const free = await makeTenant(engine, 'freebie', undefined, 'free');
    const keys = [free.auth];
    for (let i = 0; i < 2; i++) keys.push({ Authorization: `Bearer ${(await engine.apiKeys.create(free.tenant.id, { scopes: ['read'] }))._unsafeUnwrap().key}` });
    for (let i = 0; i < 100; i++) await search(app, keys[i % 3]!).expect(200);
    const refused = await search(app, keys[0]!).expect(429);
    expect(refused.body).toMatchObject({ limit: 100, quota: 'queriesPerDay' });
    expect(refused.body.detail).toContain('100 queries per day for this tenant (queriesPerDay). It resets at 2026-11-22T00:00:00Z');
    expect(refused.headers['retry-after']).toBe('3600');
    expect(refused.headers['ratelimit-policy']).toBe('100;w=86400;comment="queriesPerDay"');
    clock.t = Date.parse('2026-11-22T00:00:01Z');
    await search(app, keys[0]!).expect(200);
  });

  it('applies quotas_json overrides and leaves Enterprise unlimited by default', async () => {
    const { app } = setup();
    const custom = (await engine.tenancy.createTenant({ slug: 'custom', plan: 'enterprise', quotas: { perKeyPerHour: 2 } }))._unsafeUnwrap();
    const key = { Authorization: `Bearer ${(await engine.apiKeys.create(custom.tenant.id, { scopes: ['read'] }))._unsafeUnwrap().key}` };
    await search(app, key).expect(200);
    await search(app, key).expect(200);
    await search(app, key).expect(429);
    const ent = await makeTenant(engine, 'ent', undefined, 'enterprise');
    const res = await search(app, ent.auth).expect(200);
    expect(res.headers['ratelimit-limit']).toBeUndefined();
  });

  it('does not count bad input or unauthenticated calls, and writes no usage event for them', async () => {
    const { app } = setup();
    const acme = await makeTenant(engine, 'acme', undefined, 'business');
    await request(app).post('/api/search').set(acme.auth).send({ query: '' }).expect(400);
    await request(app).post('/api/search').send({ query: 'x' }).expect(401);
    const ok = await search(app, acme.auth).expect(200);
    expect(ok.headers['ratelimit-remaining']).toBe('59');
    expect((await engine.usage.ledger(acme.tenant.id)).apiQueries).toMatchObject({ search: 1, total: 1 });
  });

  it('does not count document management as queries', async () => {
    const { app } = setup();
    const acme = await makeTenant(engine, 'acme', undefined, 'free');
    for (let i = 0; i < 3; i++) await request(app).get('/api/docs').set(acme.auth).expect(200);
    expect((await search(app, acme.auth).expect(200)).headers['ratelimit-remaining']).toBe('59');
  });
});

describe('usage events', () => {
  it('writes one api_query_event per search with tenant, workspace, key and billing period', async () => {
    const { app } = setup('2026-11-30T23:59:59Z');
    const acme = await makeTenant(engine, 'acme', undefined, 'business');
    await search(app, acme.auth).expect(200);
    await search(app, acme.auth).expect(200);
    const events = await engineInternals(engine).store.usage.listQueries(acme.tenant.id);
    expect(events).toHaveLength(2);
    const keyId = (await engine.apiKeys.list(acme.tenant.id))[0]!.id;
    expect(events[0]).toMatchObject({ kind: 'search', keyId, workspaceId: acme.defaultWorkspace.id, billingPeriod: '2026-11', tool: null });
    const ledger = await engine.usage.ledger(acme.tenant.id, '2026-11');
    expect(ledger).toMatchObject({ billingPeriod: '2026-11', apiQueries: { search: 2, total: 2 }, resolutions: 0, resolutionEquivalents: 0.4 });
    expect((await engine.usage.ledger(acme.tenant.id, '2026-12')).apiQueries.total).toBe(0);
  });
});
