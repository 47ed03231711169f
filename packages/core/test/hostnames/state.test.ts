import { describe, expect, it } from 'vitest';
import { transition, type CustomHostnameRecord, type EdgeObservation, type HostnameEvent, type HostnameStatus } from '@panya/core';

const T0 = '2026-01-01T00:00:00.000Z';
const NOW = '2026-01-01T01:00:00.000Z';

function record(status: HostnameStatus, patch: Partial<CustomHostnameRecord> = {}): CustomHostnameRecord {
  return {
    id: 'hn_1',
    tenantId: 'ten_1',
    hostname: 'help.acme.co.th',
    status,
    edgeHostnameId: status === 'pending' ? null : 'edge_1',
    txtName: '_edge-custom-hostname.help.acme.co.th',
    txtValue: 'v'.repeat(32),
    verificationError: null,
    verificationDetail: null,
    statusChangedAt: T0,
    lastCheckedAt: null,
    createdAt: T0,
    updatedAt: T0,
    ...patch,
  };
}

const verifying: EdgeObservation = { state: 'verifying', problem: null };
const active: EdgeObservation = { state: 'active' };
const txtMismatch: EdgeObservation = { state: 'failed', problem: { cause: 'txt_mismatch', detail: 'TXT differs' } };
const notPropagated: EdgeObservation = { state: 'verifying', problem: { cause: 'dns_not_propagated', detail: 'no CNAME' } };
const outage: EdgeObservation = { state: 'unknown', reason: 'HTTP 503' };
const registered = (observation: EdgeObservation): HostnameEvent => ({
  type: 'registration',
  result: { outcome: 'registered', edgeHostnameId: 'edge_9', observation },
});
const observed = (observation: EdgeObservation): HostnameEvent => ({ type: 'observed', observation });

// [name, from, event, mayBeActive, expected status, expected verification error]
const table: [string, CustomHostnameRecord, HostnameEvent, boolean, HostnameStatus, string | null][] = [
  ['Pending → Verifying DNS when registration completes', record('pending'), registered(verifying), true, 'verifying_dns', null],
  ['Pending → Active when the edge already verified', record('pending'), registered(active), true, 'active', null],
  ['Pending → Failed when the edge refuses (registered elsewhere)', record('pending'), { type: 'registration', result: { outcome: 'refused', problem: { cause: 'already_registered', detail: '1406' } } }, true, 'failed', 'already_registered'],
  ['Pending stays Pending while the edge is unreachable', record('pending'), { type: 'registration', result: { outcome: 'unavailable', reason: 'timeout' } }, true, 'pending', null],
  ['Verifying DNS → Active when CNAME, TXT and TLS are seen', record('verifying_dns'), observed(active), true, 'active', null],
  ['Verifying DNS keeps the not-propagated hint', record('verifying_dns'), observed(notPropagated), true, 'verifying_dns', 'dns_not_propagated'],
  ['Verifying DNS → Failed with the cause', record('verifying_dns'), observed(txtMismatch), true, 'failed', 'txt_mismatch'],
  ['Pending (registered) → Failed with the cause', record('pending', { edgeHostnameId: 'edge_1' }), observed(txtMismatch), true, 'failed', 'txt_mismatch'],
  ['an outage never fails a hostname', record('verifying_dns'), observed(outage), true, 'verifying_dns', null],
  ['an outage leaves an Active hostname Active', record('active'), observed(outage), true, 'active', null],
  ['a re-read moves Failed back to Active once fixed', record('failed', { verificationError: 'txt_mismatch' }), observed(active), true, 'active', null],
  ['a re-read moves Active to Failed when the edge withdrew it', record('active'), observed({ state: 'failed', problem: { cause: 'edge_refused', detail: 'moved' } }), true, 'failed', 'edge_refused'],
  ['Active → inactive when the plan drops below Business', record('active'), { type: 'plan_changed' }, false, 'inactive', null],
  ['inactive → Active on re-upgrade', record('inactive'), { type: 'plan_changed' }, true, 'active', null],
  ['inactive with a known problem goes back to Verifying DNS on re-upgrade', record('inactive', { verificationError: 'dns_not_propagated' }), { type: 'plan_changed' }, true, 'verifying_dns', 'dns_not_propagated'],
  ['inactive stays inactive while the plan does not allow it', record('inactive'), { type: 'plan_changed' }, false, 'inactive', null],
  ['a re-read of an inactive hostname keeps it inactive', record('inactive'), observed(active), false, 'inactive', null],
  ['a verified hostname with no free slot is inactive, not Active', record('verifying_dns'), observed(active), false, 'inactive', null],
  ['a plan change leaves Verifying DNS alone', record('verifying_dns'), { type: 'plan_changed' }, false, 'verifying_dns', null],
  ['a Pending record without an edge id has nothing to re-read', record('pending'), observed(active), true, 'pending', null],
];

describe('custom hostname state machine', () => {
  it.each(table)('%s', (_name, from, event, mayBeActive, status, error) => {
    const next = transition(from, event, { now: NOW, mayBeActive });
    expect(next.status).toBe(status);
    expect(next.verificationError).toBe(error);
    expect(next.id).toBe(from.id); // the same record, always
    if (status !== from.status) expect(next.statusChangedAt).toBe(NOW);
    else expect(next.statusChangedAt).toBe(from.statusChangedAt);
  });

  it('records the edge id on registration and takes the provider\'s own TXT record', () => {
    const next = transition(
      record('pending'),
      registered({ state: 'verifying', problem: null, ownership: { name: '_cf-custom-hostname.help.acme.co.th', value: 'uuid-1' } }),
      { now: NOW, mayBeActive: true },
    );
    expect(next).toMatchObject({ edgeHostnameId: 'edge_9', txtName: '_cf-custom-hostname.help.acme.co.th', txtValue: 'uuid-1', lastCheckedAt: NOW, updatedAt: NOW });
  });

  it('an outage changes nothing at all', () => {
    const from = record('verifying_dns');
    expect(transition(from, observed(outage), { now: NOW, mayBeActive: true })).toBe(from);
  });

  it('stores the provider detail beside the cause and clears both when active', () => {
    const failed = transition(record('verifying_dns'), observed(txtMismatch), { now: NOW, mayBeActive: true });
    expect(failed.verificationDetail).toBe('TXT differs');
    const fixed = transition(failed, observed(active), { now: NOW, mayBeActive: true });
    expect([fixed.verificationError, fixed.verificationDetail]).toEqual([null, null]);
  });
});
