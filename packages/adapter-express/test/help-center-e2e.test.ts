/**
 * Issue "Public help center on the tenant's own hostname", checked end to end against a local
 * Cloudflare: register → Pending → Verifying DNS → Active; the help center on that Host; Team → 403;
 * second hostname → quota; drop to Team → 301; back to Business → Active; a failure's inline
 * message; erasure → tombstone, purge calls for every URL, 410 + no-store on both hosts.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, parseHelpHost, type Engine } from '@panya/core';
import { CloudflareEdge } from '@panya/edge';
import { startFakeCloudflare, type FakeCloudflare } from '@panya/edge/testing';
import { openSqliteStore } from '@panya/store-sqlite';
import { createPanyaApp } from '@panya/adapter-express';
import { makeTenant } from './helpers.js';
import { engineInternals } from '@panya/core/testing';

const ZONE = '023e105f4ecef8ad9ca31a8372d0c353';
const HELP = 'help.panya.example';
const SECRET = 'cron-secret-for-tests';
const HOST = 'help.acme.co.th';

let cf: FakeCloudflare;
let engine: Engine;
let app: ReturnType<typeof createPanyaApp>;

beforeAll(async () => {
  cf = await startFakeCloudflare({ zoneId: ZONE, hostnameToken: 'host-token', purgeToken: 'purge-token' });
  const edge = new CloudflareEdge({ apiUrl: cf.apiUrl, zoneId: ZONE, hostnameToken: 'host-token', purgeToken: 'purge-token', timeoutMs: 2_000 });
  engine = createEngine({ store: openSqliteStore({ path: ':memory:' }), edge, edgeTarget: 'edge.panya.example', helpHost: parseHelpHost(HELP) });
  app = createPanyaApp(engine, { cronSecret: SECRET, helpCenter: { apiHostname: 'api.panya.example' } });
});
afterAll(async () => {
  await engine.close();
  await cf.close();
});

const on = (host: string, path: string) => request(app).get(path).set('Host', host);

describe('help center on a custom hostname, from registration to erasure', () => {
  it('walks the whole life of a help center', async () => {
    const acme = await makeTenant(engine, 'acme');
    const article = async (title: string, contentMd: string, publicSurfaces: string[] = ['help_center']) =>
      (await request(app).post('/api/docs?wait=true').set(acme.auth).send({ title, contentMd, publicSurfaces }).expect(201)).body.id as string;
    const refunds = await article('Refund policy', 'Refunds are issued within 14 days of purchase.');
    const shipping = await article('Shipping times', 'Parcels arrive within 3 business days.');
    await article('Escalations (internal)', 'Refunds above 10,000 baht need a manager.', []);

    // Team → 403.
    const team = await makeTenant(engine, 'teamco', ['admin'], 'team');
    expect((await request(app).post('/api/tenant/custom-hostnames').set(team.auth).send({ hostname: 'help.teamco.example' }).expect(403)).body.code).toBe('plan_required');

    // Business: Pending with DNS instructions (the edge is briefly unreachable) → Verifying DNS → Active.
    cf.outage = true;
    const pending = (await request(app).post('/api/tenant/custom-hostnames').set(acme.auth).send({ hostname: HOST }).expect(201)).body;
    expect(pending).toMatchObject({ status: 'pending', statusLabel: 'Pending', edgeHostnameId: null, dns: { cname: { name: HOST, target: 'edge.panya.example' } } });
    expect(pending.dns.txt.name).toBe(`_edge-custom-hostname.${HOST}`);
    cf.outage = false;
    const verifying = (await request(app).post(`/api/tenant/custom-hostnames/${pending.id}`).set(acme.auth).expect(200)).body;
    expect(verifying.status).toBe('verifying_dns');
    await on(HOST, '/').expect(404);
    cf.setState(verifying.edgeHostnameId, { status: 'active', ssl: 'active' });
    expect((await request(app).post(`/api/tenant/custom-hostnames/${pending.id}`).set(acme.auth).expect(200)).body.status).toBe('active');

    // The help center answers on that Host: articles and search.
    const home = await on(HOST, '/').expect(200);
    expect(home.text).toContain(`href="/articles/${refunds}"`);
    expect(home.text).toContain(`href="/articles/${shipping}"`);
    expect((await on(HOST, `/articles/${refunds}`).expect(200)).text).toContain('14 days');
    const search = await on(HOST, '/search?q=refunds').expect(200);
    expect(search.text).toContain(`href="/articles/${refunds}"`);
    expect(search.text).not.toContain('manager');

    // A second hostname on Business → quota.
    const second = await request(app).post('/api/tenant/custom-hostnames').set(acme.auth).send({ hostname: 'docs.acme.co.th' }).expect(403);
    expect(second.body.code).toBe('quota_exceeded');

    // Plan drops to Team → 301 to the help host path; back to Business → the same record Active.
    (await engine.tenancy.update('acme', { plan: 'team' }))._unsafeUnwrap();
    const moved = await on(HOST, `/articles/${refunds}?lang=th`).expect(301);
    expect(moved.headers.location).toBe(`https://${HELP}/acme/articles/${refunds}?lang=th`);
    expect((await on(HELP, `/acme/articles/${refunds}?lang=th`).expect(200)).text).toContain('<html lang="th">');
    (await engine.tenancy.update('acme', { plan: 'business' }))._unsafeUnwrap();
    const list = (await request(app).get('/api/tenant/custom-hostnames').set(acme.auth).expect(200)).body.data;
    expect(list.map((h: { id: string; status: string }) => [h.id, h.status])).toEqual([[pending.id, 'active']]);
    await on(HOST, '/').expect(200);

    // A failure shows its inline message.
    const initech = await makeTenant(engine, 'initech', ['admin']);
    const failing = (await request(app).post('/api/tenant/custom-hostnames').set(initech.auth).send({ hostname: 'help.initech.example' }).expect(201)).body;
    cf.setState(failing.edgeHostnameId, { ssl: 'validation_timed_out' });
    const failed = (await request(app).post(`/api/tenant/custom-hostnames/${failing.id}`).set(initech.auth).expect(200)).body;
    expect(failed).toMatchObject({ status: 'failed', verificationError: 'dns_not_propagated' });
    expect(failed.verificationMessage.en).toMatch(/DNS not propagated/);

    // Erasure: a tombstone with the active hostname, nothing of the tenant left.
    const erased = (await engine.erasure.erase('acme', { confirm: 'acme' }))._unsafeUnwrap();
    expect(erased.hostnames).toEqual([HOST]);
    expect(await engineInternals(engine).store.tombstones.getBySlug('acme')).toMatchObject({ slug: 'acme', hostnames: [HOST], purgedAt: null });
    expect(await engineInternals(engine).store.tenants.getBySlug('acme')).toBeNull();
    expect(await engineInternals(engine).store.hostnames.findByHostname(HOST)).toBeNull();

    // The retention job purges every URL of the tenant at the edge.
    cf.purges.length = 0;
    const retention = await request(app).get('/api/cron/retention').set('Authorization', `Bearer ${SECRET}`).expect(200);
    expect(retention.body).toMatchObject({ job: 'retention', erasedTenantsPurged: 1, purgeFailures: 0 });
    const purged = { files: cf.purges.flatMap((p) => p.files ?? []), prefixes: cf.purges.flatMap((p) => p.prefixes ?? []), hosts: cf.purges.flatMap((p) => p.hosts ?? []) };
    expect(purged.files.sort()).toEqual([`https://${HELP}/acme`, `https://${HELP}/acme/`, `https://${HOST}/`].sort());
    expect(purged.prefixes.sort()).toEqual([`${HELP}/acme/`, `${HOST}/`].sort());
    expect(purged.hosts).toEqual([HOST]);
    expect((await engineInternals(engine).store.tombstones.getBySlug('acme'))?.purgedAt).not.toBeNull();
    cf.purges.length = 0;
    await request(app).get('/api/cron/retention').set('Authorization', `Bearer ${SECRET}`).expect(200);
    expect(cf.purges).toEqual([]);

    // 410 + no-store on both hosts and on the API addresses of the slug.
    for (const [host, path] of [[HELP, '/acme/'], [HELP, `/acme/articles/${refunds}`], [HOST, '/'], [HOST, '/search?q=refunds']] as const) {
      const gone = await on(host, path).expect(410);
      expect(gone.headers['cache-control']).toBe('no-store');
    }
    const api = await request(app).get('/c/acme/api/docs').set(acme.auth).expect(410);
    expect(api.headers['cache-control']).toBe('no-store');
    expect(api.body.code).toBe('gone');
    // The edge registration stays, listed for the operator.
    expect([...cf.hostnames.values()].map((h) => h.hostname)).toContain(HOST);
    const ops = await request(app).get('/api/ops/hostnames').set('Authorization', `Bearer ${SECRET}`).expect(200);
    expect(ops.body.erasedTenantHostnames).toEqual([expect.objectContaining({ slug: 'acme', hostnames: [HOST] })]);
    // The slug is not given to anyone else.
    expect((await engine.tenancy.createTenant({ slug: 'acme', plan: 'business' }))._unsafeUnwrapErr().code).toBe('conflict');
  });
});
