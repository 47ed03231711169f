import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DnsEdge } from '@panya/edge';
import { startFakeDns, type FakeDnsServer } from './fakes/dns-server.js';

const TARGET = 'edge.help.example.net';
const HOST = 'help.acme.co.th';
const TXT_NAME = `_edge-custom-hostname.${HOST}`;
const TXT_VALUE = 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z';
const ref = { edgeHostnameId: `dns:${HOST}`, hostname: HOST, ownership: { name: TXT_NAME, value: TXT_VALUE } };

let dns: FakeDnsServer;
let edge: DnsEdge;

beforeAll(async () => {
  dns = await startFakeDns();
  edge = new DnsEdge({ edgeTarget: `${TARGET}.`, servers: [dns.server], timeoutMs: 500 });
});
afterAll(() => dns.close());
beforeEach(() => {
  dns.zone.clear();
  dns.failing = false;
  dns.zone.set(TARGET, { A: ['192.0.2.7'] });
});

describe('dns edge: real look-ups against a DNS server', () => {
  it('registers immediately and reports DNS not propagated while nothing is published', async () => {
    const registration = await edge.register({ hostname: HOST, ownership: ref.ownership });
    expect(registration).toMatchObject({
      outcome: 'registered',
      edgeHostnameId: `dns:${HOST}`,
      observation: { state: 'verifying', problem: { cause: 'dns_not_propagated' } },
    });
  });

  it('CNAME published but no TXT yet: still verifying', async () => {
    dns.zone.set(HOST, { CNAME: TARGET });
    expect(await edge.status(ref)).toMatchObject({ state: 'verifying', problem: { cause: 'dns_not_propagated', detail: expect.stringContaining('TXT') } });
  });

  it('TXT published but the CNAME points elsewhere: not propagated', async () => {
    dns.zone.set(HOST, { CNAME: 'old-host.example.org' });
    dns.zone.set(TXT_NAME, { TXT: [[TXT_VALUE]] });
    expect(await edge.status(ref)).toMatchObject({ state: 'verifying', problem: { cause: 'dns_not_propagated', detail: expect.stringContaining('CNAME') } });
  });

  it('a TXT value that differs is a mismatch (Failed)', async () => {
    dns.zone.set(HOST, { CNAME: TARGET });
    dns.zone.set(TXT_NAME, { TXT: [[`${TXT_VALUE}.`]] });
    expect(await edge.status(ref)).toMatchObject({ state: 'failed', problem: { cause: 'txt_mismatch' } });
  });

  it('CNAME to the target and the exact TXT value: active (case and trailing dot of the CNAME do not matter)', async () => {
    dns.zone.set(HOST, { CNAME: 'Edge.Help.Example.NET.' });
    dns.zone.set(TXT_NAME, { TXT: [['unrelated'], [TXT_VALUE]] });
    expect(await edge.status(ref)).toEqual({ state: 'active' });
  });

  it('joins a TXT record split into character-strings', async () => {
    dns.zone.set(HOST, { CNAME: TARGET });
    dns.zone.set(TXT_NAME, { TXT: [[TXT_VALUE.slice(0, 10), TXT_VALUE.slice(10)]] });
    expect(await edge.status(ref)).toEqual({ state: 'active' });
  });

  it('an apex with ALIAS / flattening resolves to the target\'s addresses', async () => {
    const apex = { ...ref, hostname: 'acme.co.th', ownership: { name: '_edge-custom-hostname.acme.co.th', value: TXT_VALUE } };
    dns.zone.set('acme.co.th', { A: ['192.0.2.7'] });
    dns.zone.set('_edge-custom-hostname.acme.co.th', { TXT: [[TXT_VALUE]] });
    expect(await edge.status(apex)).toEqual({ state: 'active' });
    dns.zone.set('acme.co.th', { A: ['198.51.100.1'] });
    expect(await edge.status(apex)).toMatchObject({ state: 'verifying', problem: { cause: 'dns_not_propagated' } });
  });

  it('a resolver failure leaves the status unknown, never failed', async () => {
    dns.zone.set(HOST, { CNAME: TARGET });
    dns.failing = true;
    expect(await edge.status(ref)).toMatchObject({ state: 'unknown' });
  });

  it('an unreachable resolver leaves the status unknown', async () => {
    const dead = new DnsEdge({ edgeTarget: TARGET, servers: ['127.0.0.1:9'], timeoutMs: 200 });
    expect(await dead.status(ref)).toMatchObject({ state: 'unknown' });
  });
});
