/**
 * The hostname poll is fair: with 500 records that never verify, a correctly configured new
 * hostname is still re-read (and goes Active) within a bounded number of runs, and every stuck
 * record is re-read within backlog / batch runs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type EdgeObservation, type EdgeProvider, type Engine } from '@panya/core';
import { engineInternals } from '@panya/core/testing';
import { openSqliteStore } from '@panya/store-sqlite';

let engine: Engine | undefined;
afterEach(async () => {
  await engine?.close();
  engine = undefined;
});

/** An edge where only `good` has its DNS published; the others stay Verifying for ever. */
function edgeWith(good: string, reads: string[]): EdgeProvider {
  return {
    id: 'test-edge',
    async register() {
      return { outcome: 'unavailable', reason: 'not used' };
    },
    async status(ref): Promise<EdgeObservation> {
      reads.push(ref.hostname);
      return ref.hostname === good ? { state: 'active' } : { state: 'verifying', problem: { cause: 'dns_not_propagated', detail: 'no CNAME yet' } };
    },
    async remove() {},
    async purge() {},
  };
}

describe('hostname poll fairness', () => {
  it('500 stuck records and one good one: the good one is Active within the bound, every record re-read in turn', async () => {
    let now = new Date('2026-10-01T00:00:00Z');
    const reads: string[] = [];
    const e = createEngine({ store: openSqliteStore({ path: ':memory:' }), clock: { now: () => now }, edge: edgeWith('help.good.example', reads), edgeTarget: 'edge.panya.example' });
    engine = e;
    const store = engineInternals(e).store;
    const { tenant } = (await e.tenancy.createTenant({ slug: 'acme', plan: 'enterprise' }))._unsafeUnwrap();
    const record = (hostname: string, at: string, lastCheckedAt: string | null) => ({
      id: `hn_${hostname}`, tenantId: tenant.id, hostname, status: 'verifying_dns' as const, edgeHostnameId: `edge_${hostname}`, txtName: `_cf.${hostname}`, txtValue: 'v',
      verificationError: null, verificationDetail: null, statusChangedAt: at, lastCheckedAt, createdAt: at, updatedAt: at,
    });
    // 500 older records, checked recently and often, that never verify…
    for (let i = 0; i < 500; i++) await store.hostnames.insert(record(`help${i}.stuck.example`, '2026-09-01T00:00:00.000Z', '2026-09-30T23:55:00.000Z'));
    // …and a newer, correct one, checked once a while ago.
    await store.hostnames.insert(record('help.good.example', '2026-09-30T00:00:00.000Z', '2026-09-30T00:00:00.000Z'));

    const runs: number[] = [];
    for (let run = 0; run < 6; run++) {
      now = new Date(now.getTime() + 5 * 60_000);
      runs.push((await e.hostnames.poll(100)).checked);
    }
    expect(runs.every((n) => n === 100)).toBe(true);
    // Read in the first run, not after the 500 (before, it was never read at all).
    expect(reads.indexOf('help.good.example')).toBeLessThan(100);
    expect((await store.hostnames.get(tenant.id, 'hn_help.good.example'))?.status).toBe('active');
    // Six runs of 100 over 500 stuck records: each read at least once, none twice before all were read once.
    const stuck = reads.filter((h) => h !== 'help.good.example');
    expect(new Set(stuck.slice(0, 500)).size).toBe(500);
    expect(new Set(stuck).size).toBe(500);
  });
});
