import request from 'supertest';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, parseHelpHost, type Engine } from '@panya/core';
import { CloudflareEdge } from '@panya/edge';
import { startFakeCloudflare, type FakeCloudflare } from '@panya/edge/testing';
import { openSqliteStore } from '@panya/store-sqlite';
import { createPanyaApp } from '@panya/adapter-express';
import { makeTenant } from './helpers.js';
import { engineInternals } from '@panya/core/testing';

const ZONE = '023e105f4ecef8ad9ca31a8372d0c353';
const TARGET = 'edge.help.panya.example';
const SECRET = 'cron-secret-for-tests';
const HOUR = 3_600_000;

let cf: FakeCloudflare;
let engine: Engine;
let app: ReturnType<typeof createPanyaApp>;
let now: number;

beforeAll(async () => {
  cf = await startFakeCloudflare({ zoneId: ZONE, hostnameToken: 'host-token', purgeToken: 'purge-token' });
});
afterAll(() => cf.close());
beforeEach(() => {
  cf.hostnames.clear();
  cf.outage = false;
  now = Date.parse('2030-03-01T09:00:00.000Z');
  const edge = new CloudflareEdge({ apiUrl: cf.apiUrl, zoneId: ZONE, hostnameToken: 'host-token', purgeToken: 'purge-token', timeoutMs: 2_000 });
  engine = createEngine({
    store: openSqliteStore({ path: ':memory:' }),
    edge,
    edgeTarget: TARGET,
    helpHost: parseHelpHost('help.panya.example'),
    apiHostnames: ['api.panya-service.example'],
    reservedHostnames: ['blocked.example.org'],
    clock: { now: () => new Date(now) },
  });
  app = createPanyaApp(engine, { cronSecret: SECRET });
});
afterEach(() => engine.close());

const edgeRowTemplate = {
  id: 'foreign',
  hostname: '',
  status: 'active',
  ssl: { id: 'ssl-foreign', status: 'active', method: 'http', type: 'dv' },
  ownership_verification: { type: 'txt' as const, name: '_cf-custom-hostname.x', value: 'y' },
  created_at: '2030-01-01T00:00:00Z',
};
const edgeRow = (hostname: string) => [...cf.hostnames.values()].find((h) => h.hostname === hostname)!;

/** The operator's plan change (`panya tenant update`), which runs the hostname hook. */
async function setPlan(tenantId: string, plan: 'team' | 'business' | 'growth') {
  const tenant = (await engineInternals(engine).store.tenants.get(tenantId))!;
  (await engine.tenancy.update(tenant.slug, { plan }))._unsafeUnwrap();
  return engineInternals(engine).store.hostnames.list(tenantId);
}

describe('custom hostnames over HTTP, against a local Cloudflare', () => {
  it('Business: register → Pending at the edge → Verifying DNS with DNS instructions → Active; TLS ask follows', async () => {
    const acme = await makeTenant(engine, 'acme', ['admin']);
    const created = await request(app).post('/api/tenant/custom-hostnames').set(acme.auth).send({ hostname: 'Help.Acme.co.th' }).expect(201);
    const row = edgeRow('help.acme.co.th');
    expect(created.headers.location).toBe(`/api/tenant/custom-hostnames/${created.body.id}`);
    expect(created.body).toMatchObject({
      hostname: 'help.acme.co.th',
      status: 'verifying_dns',
      statusLabel: 'Verifying DNS',
      edgeHostnameId: row.id,
      verificationError: null,
      dns: {
        cname: { name: 'help.acme.co.th', target: TARGET },
        // The edge's own ownership record is the one it checks.
        txt: { name: row.ownership_verification.name, value: row.ownership_verification.value },
      },
    });
    await request(app).get('/api/edge/tls-allowed').query({ domain: 'help.acme.co.th' }).expect(404);

    cf.setState(row.id, { status: 'active', ssl: 'pending_validation' });
    expect((await request(app).post(`/api/tenant/custom-hostnames/${created.body.id}`).set(acme.auth).expect(200)).body.status).toBe('verifying_dns');
    cf.setState(row.id, { ssl: 'active' });
    const active = await request(app).post(`/api/tenant/custom-hostnames/${created.body.id}`).set(acme.auth).expect(200);
    expect(active.body).toMatchObject({ status: 'active', statusLabel: 'Active', verificationError: null });
    await request(app).get('/api/edge/tls-allowed').query({ domain: 'help.acme.co.th' }).expect(200);
    await request(app).get('/api/edge/tls-allowed').query({ domain: 'other.acme.co.th' }).expect(404);

    const list = await request(app).get('/api/tenant/custom-hostnames').set(acme.auth).expect(200);
    expect(list.body.data.map((h: { hostname: string; status: string }) => [h.hostname, h.status])).toEqual([['help.acme.co.th', 'active']]);
  });

  it('Free and Team: 403 plan_required, nothing registered at the edge', async () => {
    for (const plan of ['free', 'team'] as const) {
      const t = await makeTenant(engine, `t-${plan}`, ['admin'], plan);
      const res = await request(app).post('/api/tenant/custom-hostnames').set(t.auth).send({ hostname: `help.${plan}.com` }).expect(403);
      expect(res.body).toMatchObject({ code: 'plan_required', plan: 'business' });
    }
    expect(cf.hostnames.size).toBe(0);
  });

  it('the cap counts active records only: a second hostname on Business is refused once the first is active', async () => {
    const acme = await makeTenant(engine, 'acme', ['admin']);
    const first = (await request(app).post('/api/tenant/custom-hostnames').set(acme.auth).send({ hostname: 'help.acme.com' }).expect(201)).body;
    // While the first is still verifying, a second may be added (only active records count).
    const second = (await request(app).post('/api/tenant/custom-hostnames').set(acme.auth).send({ hostname: 'docs.acme.com' }).expect(201)).body;
    cf.setState(first.edgeHostnameId, { status: 'active', ssl: 'active' });
    cf.setState(second.edgeHostnameId, { status: 'active', ssl: 'active' });
    expect((await request(app).post(`/api/tenant/custom-hostnames/${first.id}`).set(acme.auth).expect(200)).body.status).toBe('active');
    const third = await request(app).post('/api/tenant/custom-hostnames').set(acme.auth).send({ hostname: 'kb.acme.com' }).expect(403);
    expect(third.body).toMatchObject({ code: 'quota_exceeded', limit: 1 });
    // The second verified, but no slot is free: it may not serve.
    expect((await request(app).post(`/api/tenant/custom-hostnames/${second.id}`).set(acme.auth).expect(200)).body.status).toBe('inactive');
  });

  it('plan drops to Team → inactive; back to Business → Active, the same record', async () => {
    const acme = await makeTenant(engine, 'acme', ['admin']);
    const created = (await request(app).post('/api/tenant/custom-hostnames').set(acme.auth).send({ hostname: 'help.acme.com' }).expect(201)).body;
    cf.setState(created.edgeHostnameId, { status: 'active', ssl: 'active' });
    await request(app).post(`/api/tenant/custom-hostnames/${created.id}`).set(acme.auth).expect(200);

    expect((await setPlan(acme.tenant.id, 'team')).map((r) => r.status)).toEqual(['inactive']);
    await request(app).get('/api/edge/tls-allowed').query({ domain: 'help.acme.com' }).expect(404);
    expect((await setPlan(acme.tenant.id, 'business')).map((r) => [r.id, r.status])).toEqual([[created.id, 'active']]);
    await request(app).get('/api/edge/tls-allowed').query({ domain: 'help.acme.com' }).expect(200);
  });

  it('a failure shows its inline message and stores the verification error', async () => {
    const acme = await makeTenant(engine, 'acme', ['admin']);
    const created = (await request(app).post('/api/tenant/custom-hostnames').set(acme.auth).send({ hostname: 'help.acme.com' }).expect(201)).body;
    cf.setState(created.edgeHostnameId, { ssl: 'validation_timed_out' });
    const failed = await request(app).post(`/api/tenant/custom-hostnames/${created.id}`).set(acme.auth).expect(200);
    expect(failed.body).toMatchObject({ status: 'failed', statusLabel: 'Failed', verificationError: 'dns_not_propagated' });
    expect(failed.body.verificationMessage.en).toMatch(/DNS not propagated/);
    expect(failed.body.verificationMessage.th.length).toBeGreaterThan(0);
  });

  it('a hostname registered in another zone is Failed with "already registered elsewhere"', async () => {
    const acme = await makeTenant(engine, 'acme', ['admin']);
    const foreign = await makeTenant(engine, 'foreign', ['admin']);
    await request(app).post('/api/tenant/custom-hostnames').set(foreign.auth).send({ hostname: 'help.taken.com' }).expect(201);
    await request(app).delete(`/api/tenant/custom-hostnames/${(await engineInternals(engine).store.hostnames.findByHostname('help.taken.com'))!.id}`).set(foreign.auth).expect(200);
    // Registered at the edge by someone else (another zone of the account, or left behind):
    cf.hostnames.set('foreign', { ...structuredClone(edgeRowTemplate), hostname: 'help.taken.com' });
    const res = await request(app).post('/api/tenant/custom-hostnames').set(acme.auth).send({ hostname: 'help.taken.com' }).expect(201);
    expect(res.body).toMatchObject({ status: 'failed', edgeHostnameId: null, verificationError: 'already_registered' });
    expect(res.body.verificationMessage.en).toMatch(/already registered elsewhere/);
  });

  it('an edge outage leaves the record as it was (never Failed); registration during an outage stays Pending and the poll finishes it', async () => {
    const acme = await makeTenant(engine, 'acme', ['admin']);
    cf.outage = true;
    const pending = (await request(app).post('/api/tenant/custom-hostnames').set(acme.auth).send({ hostname: 'help.acme.com' }).expect(201)).body;
    expect(pending).toMatchObject({ status: 'pending', statusLabel: 'Pending', edgeHostnameId: null });
    expect((await request(app).post(`/api/tenant/custom-hostnames/${pending.id}`).set(acme.auth).expect(200)).body.status).toBe('pending');
    cf.outage = false;
    const poll = await request(app).get('/api/cron/hostname-poll').set('Authorization', `Bearer ${SECRET}`).expect(200);
    expect(poll.body).toMatchObject({ job: 'hostname-poll', ran: true, checked: 1 });
    const after = (await request(app).get('/api/tenant/custom-hostnames').set(acme.auth).expect(200)).body.data[0];
    expect(after).toMatchObject({ status: 'verifying_dns', edgeHostnameId: edgeRow('help.acme.com').id });
    cf.outage = true;
    expect((await request(app).post(`/api/tenant/custom-hostnames/${pending.id}`).set(acme.auth).expect(200)).body.status).toBe('verifying_dns');
  });

  it('validation: IP, wildcard, port → 400; apex refused with the ALIAS explanation unless Enterprise', async () => {
    const acme = await makeTenant(engine, 'acme', ['admin']);
    for (const hostname of ['192.0.2.1', '*.acme.com', 'help.acme.com:8443']) {
      await request(app).post('/api/tenant/custom-hostnames').set(acme.auth).send({ hostname }).expect(400);
    }
    const apex = await request(app).post('/api/tenant/custom-hostnames').set(acme.auth).send({ hostname: 'acme.co.th' }).expect(403);
    expect(apex.body.detail).toMatch(/ALIAS/);
    const big = await makeTenant(engine, 'bigco', ['admin'], 'enterprise');
    await request(app).post('/api/tenant/custom-hostnames').set(big.auth).send({ hostname: 'bigco.co.th' }).expect(201);
    expect(cf.hostnames.size).toBe(1);
  });

  it('remove deletes the edge registration and the record; another tenant cannot touch it', async () => {
    const acme = await makeTenant(engine, 'acme', ['admin']);
    const other = await makeTenant(engine, 'globex', ['admin']);
    const created = (await request(app).post('/api/tenant/custom-hostnames').set(acme.auth).send({ hostname: 'help.acme.com' }).expect(201)).body;
    await request(app).delete(`/api/tenant/custom-hostnames/${created.id}`).set(other.auth).expect(404);
    await request(app).post(`/api/tenant/custom-hostnames/${created.id}`).set(other.auth).expect(404);
    await request(app).delete(`/api/tenant/custom-hostnames/${created.id}`).set(acme.auth).expect(200);
    expect(cf.hostnames.size).toBe(0);
    expect((await request(app).get('/api/tenant/custom-hostnames').set(acme.auth).expect(200)).body.data).toEqual([]);
  });

  it('needs the admin scope', async () => {
    const reader = await makeTenant(engine, 'acme', ['read']);
    await request(app).post('/api/tenant/custom-hostnames').set(reader.auth).send({ hostname: 'help.acme.com' }).expect(403);
    await request(app).get('/api/tenant/custom-hostnames').set(reader.auth).expect(403);
  });

  it('operator view: cron secret only; Verifying DNS over 24 h is stale, over 7 days suggests delete and re-add', async () => {
    const acme = await makeTenant(engine, 'acme', ['admin']);
    await request(app).post('/api/tenant/custom-hostnames').set(acme.auth).send({ hostname: 'help.acme.com' }).expect(201);
    await request(app).get('/api/ops/hostnames').expect(403);
    await request(app).get('/api/ops/hostnames').set('Authorization', 'Bearer wrong').expect(403);
    const fresh = await request(app).get('/api/ops/hostnames').set('Authorization', `Bearer ${SECRET}`).expect(200);
    expect(fresh.body).toMatchObject({ edgeProvider: 'cloudflare', accountCap: 5000, stale: 0, hostnames: [{ hostname: 'help.acme.com', health: { stale: false, hint: null } }] });
    now += 25 * HOUR;
    const stale = await request(app).get('/api/ops/hostnames').set('Authorization', `Bearer ${SECRET}`).expect(200);
    expect(stale.body.stale).toBe(1);
    expect(stale.body.hostnames[0].health.hint).toMatch(/24 hours/);
    now += 7 * 24 * HOUR;
    const old = await request(app).get('/api/ops/hostnames').set('Authorization', `Bearer ${SECRET}`).expect(200);
    expect(old.body.hostnames[0].health.hint).toMatch(/deletes the hostname and adds it again/);
  });
});

describe('the service\'s own names and unverified claims', () => {
  it('refuses reserved names with 400: the API\'s and help host\'s names and domains, the edge target, localhost, IPs, the deny list', async () => {
    const acme = await makeTenant(engine, 'acme', ['admin']);
    const reserved = [
      'api.panya-service.example', // the API's own hostname
      'status.panya-service.example', // inside the API's domain
      'help.panya.example', // the help host
      TARGET, // the edge target
      'other.panya.example', // inside the help host's and edge target's domain
      'localhost',
      'tenant.localhost',
      '192.0.2.1',
      '[::1]',
      'blocked.example.org', // the operator's deny list, with its subdomains
      'help.blocked.example.org',
    ];
    for (const hostname of reserved) {
      const res = await request(app).post('/api/tenant/custom-hostnames').set(acme.auth).send({ hostname }).expect(400);
      expect(res.headers['content-type']).toMatch(/problem\+json/);
    }
    expect((await request(app).post('/api/tenant/custom-hostnames').set(acme.auth).send({ hostname: 'api.panya-service.example' })).body.detail).toMatch(/own hostnames/);
    expect(cf.hostnames.size).toBe(0);
    expect(await engineInternals(engine).store.hostnames.list(acme.tenant.id)).toEqual([]);
  });

  it('a record that is not verified never takes a host: the API keeps answering on it for every tenant', async () => {
    // A library engine that was not told the API's hostname.
    const bare = createEngine({ store: openSqliteStore({ path: ':memory:' }), edge: new CloudflareEdge({ apiUrl: cf.apiUrl, zoneId: ZONE, hostnameToken: 'host-token', purgeToken: 'purge-token', timeoutMs: 2_000 }), edgeTarget: TARGET });
    const bareApp = createPanyaApp(bare);
    try {
      const attacker = await makeTenant(bare, 'attacker', ['admin']);
      const victim = await makeTenant(bare, 'victim', ['read', 'write']);
      const claimed = (await request(bareApp).post('/api/tenant/custom-hostnames').set(attacker.auth).send({ hostname: 'api.victim-host.example' }).expect(201)).body;
      expect(claimed.status).toBe('verifying_dns');
      // Requests on that Host still reach the API: search, docs, health.
      await request(bareApp).get('/api/docs').set('Host', 'api.victim-host.example').set(victim.auth).expect(200);
      await request(bareApp).post('/api/search').set('Host', 'api.victim-host.example').set(victim.auth).send({ query: 'refunds' }).expect(200);
      await request(bareApp).get('/healthz').set('Host', 'api.victim-host.example').expect(200);
      // Failed: still the API's.
      cf.setState(claimed.edgeHostnameId, { ssl: 'validation_timed_out' });
      expect((await request(bareApp).post(`/api/tenant/custom-hostnames/${claimed.id}`).set(attacker.auth).expect(200)).body.status).toBe('failed');
      await request(bareApp).get('/api/docs').set('Host', 'api.victim-host.example').set(victim.auth).expect(200);
    } finally {
      await bare.close();
    }
  });

  it('an active record does take its host (the help center answers there)', async () => {
    const acme = await makeTenant(engine, 'acme', ['admin', 'read', 'write']);
    const created = (await request(app).post('/api/tenant/custom-hostnames').set(acme.auth).send({ hostname: 'help.acme.com' }).expect(201)).body;
    await request(app).get('/api/docs').set('Host', 'help.acme.com').set(acme.auth).expect(200);
    cf.setState(created.edgeHostnameId, { status: 'active', ssl: 'active' });
    expect((await request(app).post(`/api/tenant/custom-hostnames/${created.id}`).set(acme.auth).expect(200)).body.status).toBe('active');
    const res = await request(app).get('/api/docs').set('Host', 'help.acme.com').set(acme.auth).expect(404);
    expect(res.headers['content-type']).toMatch(/html/);
  });

  it('a hostname another tenant has held unverified for over 7 days is released to the next registrant; a verified one never is', async () => {
    const squatter = await makeTenant(engine, 'squatter', ['admin']);
    const owner = await makeTenant(engine, 'owner', ['admin']);
    const held = (await request(app).post('/api/tenant/custom-hostnames').set(squatter.auth).send({ hostname: 'help.owner.com' }).expect(201)).body;
    expect((await request(app).post('/api/tenant/custom-hostnames').set(owner.auth).send({ hostname: 'help.owner.com' }).expect(409)).body.detail).toMatch(/already registered/);
    now += 7 * 24 * HOUR - HOUR; // not yet 7 days
    await request(app).post('/api/tenant/custom-hostnames').set(owner.auth).send({ hostname: 'help.owner.com' }).expect(409);
    now += 2 * HOUR;
    const taken = (await request(app).post('/api/tenant/custom-hostnames').set(owner.auth).send({ hostname: 'help.owner.com' }).expect(201)).body;
    expect(taken).toMatchObject({ hostname: 'help.owner.com', status: 'verifying_dns' });
    expect(await engineInternals(engine).store.hostnames.get(squatter.tenant.id, held.id)).toBeNull();
    // The squatter's edge registration went with its record; only the new one is at the edge.
    expect([...cf.hostnames.values()].map((h) => h.id)).toEqual([taken.edgeHostnameId]);

    // Verified (active) records are the tenant's for good.
    cf.setState(taken.edgeHostnameId, { status: 'active', ssl: 'active' });
    await request(app).post(`/api/tenant/custom-hostnames/${taken.id}`).set(owner.auth).expect(200);
    now += 30 * 24 * HOUR;
    await request(app).post('/api/tenant/custom-hostnames').set(squatter.auth).send({ hostname: 'help.owner.com' }).expect(409);
  });
});

describe('without an edge provider', () => {
  it('answers 503 with how to configure one', async () => {
    const plain = createEngine({ store: openSqliteStore({ path: ':memory:' }) });
    const plainApp = createPanyaApp(plain);
    const acme = await makeTenant(plain, 'acme', ['admin']);
    const res = await request(plainApp).post('/api/tenant/custom-hostnames').set(acme.auth).send({ hostname: 'help.acme.com' }).expect(503);
    expect(res.body.detail).toMatch(/PANYA_EDGE_PROVIDER=cloudflare/);
    expect(res.body.detail).toMatch(/PANYA_EDGE_TARGET/);
    await plain.close();
  });
});
