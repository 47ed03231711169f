import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CloudflareEdge, PURGE_BATCH } from '@panya/edge';
import { startFakeCloudflare, type FakeCloudflare } from '@panya/edge/testing';
import { startFakeDns, type FakeDnsServer } from './fakes/dns-server.js';

const ZONE = '023e105f4ecef8ad9ca31a8372d0c353';
const ownership = { name: '_edge-custom-hostname.help.acme.co.th', value: 'x'.repeat(32) };

let cf: FakeCloudflare;
let edge: CloudflareEdge;
let dns: FakeDnsServer;

beforeAll(async () => {
  cf = await startFakeCloudflare({ zoneId: ZONE, hostnameToken: 'host-token', purgeToken: 'purge-token' });
  dns = await startFakeDns();
  edge = new CloudflareEdge({ apiUrl: cf.apiUrl, zoneId: ZONE, hostnameToken: 'host-token', purgeToken: 'purge-token', timeoutMs: 2_000, dnsServers: [dns.server] });
});
afterAll(async () => {
  await cf.close();
  await dns.close();
});
beforeEach(() => {
  dns.zone.clear();
  dns.failing = false;
  cf.hostnames.clear();
  cf.purges.length = 0;
  cf.requests.length = 0;
  cf.outage = false;
});

async function registered(hostname = 'help.acme.co.th') {
  const r = await edge.register({ hostname, ownership });
  if (r.outcome !== 'registered') throw new Error(`not registered: ${JSON.stringify(r)}`);
  return { ref: { edgeHostnameId: r.edgeHostnameId, hostname, ownership }, registration: r };
}

describe('cloudflare edge: custom hostnames', () => {
  it('registers with the hostname token and returns Cloudflare\'s own ownership TXT record', async () => {
    const { registration } = await registered();
    const row = cf.hostnames.get(registration.edgeHostnameId)!;
    expect(row.ssl).toMatchObject({ method: 'http', type: 'dv' });
    expect(registration.observation).toEqual({
      state: 'verifying',
      problem: null,
      ownership: { name: '_cf-custom-hostname.help.acme.co.th', value: row.ownership_verification.value },
    });
    expect(cf.requests).toEqual([{ method: 'POST', path: `/client/v4/zones/${ZONE}/custom_hostnames`, token: 'host-token' }]);
  });

  it('a duplicate (error 1406) is refused as already registered elsewhere', async () => {
    await registered();
    const second = await edge.register({ hostname: 'help.acme.co.th', ownership });
    expect(second).toMatchObject({ outcome: 'refused', problem: { cause: 'already_registered', detail: expect.stringContaining('1406') } });
  });

  it('an outage during registration is unavailable, not a refusal', async () => {
    cf.outage = true;
    expect(await edge.register({ hostname: 'help.acme.co.th', ownership })).toMatchObject({ outcome: 'unavailable', reason: expect.stringContaining('503') });
  });

  it.each([
    ['active', 'active', 'active', null],
    ['active', 'pending_validation', 'verifying', null], // hostname verified, certificate not yet: never Active
    ['pending', 'active', 'verifying', null],
    ['blocked', 'active', 'failed', 'edge_refused'],
    ['pending_blocked', 'initializing', 'failed', 'edge_refused'],
    ['moved', 'active', 'failed', 'dns_not_propagated'],
    ['deleted', 'deleted', 'failed', 'edge_refused'],
    ['pending', 'validation_timed_out', 'failed', 'dns_not_propagated'],
    ['pending', 'issuance_timed_out', 'failed', 'edge_refused'],
    ['pending', 'deployment_timed_out', 'failed', 'edge_refused'],
    ['active', 'expired', 'failed', 'edge_refused'],
  ])('hostname %s + ssl %s → %s (%s)', async (status, ssl, state, cause) => {
    const { ref } = await registered();
    cf.setState(ref.edgeHostnameId, { status, ssl });
    const observation = await edge.status(ref);
    expect(observation.state).toBe(state);
    if (observation.state === 'failed') {
      expect(observation.problem.cause).toBe(cause);
      expect(observation.problem.detail).toMatch(new RegExp(status === 'pending' || status === 'active' ? ssl : status));
    }
  });

  it('verification_errors while pending become the not-propagated hint', async () => {
    const { ref } = await registered();
    cf.setState(ref.edgeHostnameId, { verificationErrors: ['custom hostname does not CNAME to this zone.'] });
    expect(await edge.status(ref)).toMatchObject({
      state: 'verifying',
      problem: { cause: 'dns_not_propagated', detail: 'custom hostname does not CNAME to this zone.' },
    });
  });

  // Issue #33 row 7: a mistyped TXT is not "DNS not propagated".
  it('a published TXT with another value than the ownership record is txt_mismatch; none at all is dns_not_propagated', async () => {
    const { ref } = await registered();
    const token = 'None of the A or AAAA records are owned by this account and the pre-generated ownership verification token was not found.';
    cf.setState(ref.edgeHostnameId, { verificationErrors: [token] });
    const published = (await edge.status(ref)) as { ownership?: { name: string; value: string } };
    const name = published.ownership!.name;
    expect(await edge.status(ref)).toMatchObject({ state: 'verifying', problem: { cause: 'dns_not_propagated', detail: token } });

    dns.zone.set(name, { TXT: [['x'.repeat(31) + 'y']] });
    const mistyped = await edge.status(ref);
    expect(mistyped).toMatchObject({ state: 'verifying', problem: { cause: 'txt_mismatch' } });
    expect(mistyped.state === 'verifying' && mistyped.problem?.detail).toContain(`TXT at ${name} is "${'x'.repeat(31)}y"`);

    // The right value published: Cloudflare's own words stand (here, waiting on the CNAME).
    dns.zone.set(name, { TXT: [[published.ownership!.value]] });
    cf.setState(ref.edgeHostnameId, { verificationErrors: ['custom hostname does not CNAME to this zone.'] });
    expect(await edge.status(ref)).toMatchObject({ state: 'verifying', problem: { cause: 'dns_not_propagated', detail: 'custom hostname does not CNAME to this zone.' } });
    // A resolver outage never turns into a verdict about the tenant's record.
    dns.failing = true;
    cf.setState(ref.edgeHostnameId, { verificationErrors: [token] });
    expect(await edge.status(ref)).toMatchObject({ state: 'verifying', problem: { cause: 'dns_not_propagated', detail: token } });
  });

  it('an API outage leaves the status unknown, never failed', async () => {
    const { ref } = await registered();
    cf.outage = true;
    expect(await edge.status(ref)).toMatchObject({ state: 'unknown' });
  });

  it('a network failure leaves the status unknown', async () => {
    const dead = new CloudflareEdge({ apiUrl: 'http://127.0.0.1:9/client/v4', zoneId: ZONE, hostnameToken: 'h', purgeToken: 'p', timeoutMs: 500 });
    expect(await dead.status({ edgeHostnameId: 'x', hostname: 'h.example.com', ownership })).toMatchObject({ state: 'unknown' });
  });

  it('a wrong token is our problem, not the tenant\'s: unknown', async () => {
    const { ref } = await registered();
    const wrong = new CloudflareEdge({ apiUrl: cf.apiUrl, zoneId: ZONE, hostnameToken: 'purge-token', purgeToken: 'purge-token' });
    expect(await wrong.status(ref)).toMatchObject({ state: 'unknown', reason: expect.stringContaining('403') });
  });

  it('a hostname deleted at the edge is failed', async () => {
    const { ref } = await registered();
    cf.hostnames.clear();
    expect(await edge.status(ref)).toMatchObject({ state: 'failed', problem: { cause: 'edge_refused' } });
  });

  it('remove deletes the registration; removing it twice is fine', async () => {
    const { ref } = await registered();
    await edge.remove(ref.edgeHostnameId);
    expect(cf.hostnames.size).toBe(0);
    await expect(edge.remove(ref.edgeHostnameId)).resolves.toBeUndefined();
  });

  it('remove during an outage throws (the caller keeps the record)', async () => {
    const { ref } = await registered();
    cf.outage = true;
    await expect(edge.remove(ref.edgeHostnameId)).rejects.toThrow(/503/);
  });
});

describe('cloudflare edge: cache purge', () => {
  it('purges URLs, prefixes and hosts with the purge token, in batches of 30', async () => {
    const urls = Array.from({ length: 65 }, (_, i) => `https://help.example.com/acme/a/${i}`);
    await edge.purge({ urls, prefixes: ['help.example.com/acme/'], hosts: ['help.acme.co.th'] });
    expect(cf.purges.map((p) => [Object.keys(p)[0], Object.values(p)[0]!.length])).toEqual([
      ['files', PURGE_BATCH],
      ['files', PURGE_BATCH],
      ['files', 5],
      ['prefixes', 1],
      ['hosts', 1],
    ]);
    expect(cf.purges.flatMap((p) => p.files ?? [])).toEqual(urls);
    expect(new Set(cf.requests.map((r) => r.token))).toEqual(new Set(['purge-token']));
  });

  it('a refused purge throws with Cloudflare\'s message', async () => {
    const wrong = new CloudflareEdge({ apiUrl: cf.apiUrl, zoneId: ZONE, hostnameToken: 'host-token', purgeToken: 'host-token' });
    await expect(wrong.purge({ hosts: ['help.acme.co.th'] })).rejects.toThrow(/10000: Authentication error/);
  });

  it('a purge during an outage throws', async () => {
    cf.outage = true;
    await expect(edge.purge({ hosts: ['help.acme.co.th'] })).rejects.toThrow(/503/);
  });
});
