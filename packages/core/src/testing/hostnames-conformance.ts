/** Custom hostnames and tenant tombstones: behaviour every store shares. */
import { describe, expect, it } from 'vitest';
import { isStoreConflict } from '../errors.js';
import type { CustomHostnameRecord, TenantTombstone } from '../hostnames/ports/record.js';
import type { Store } from '../ports/store.js';
import { seedTwoTenants } from './fixtures.js';

let seq = 0;
export function makeHostname(tenantId: string, hostname: string, overrides: Partial<CustomHostnameRecord> = {}): CustomHostnameRecord {
  seq++;
  const at = `2026-01-01T00:00:${String(seq % 60).padStart(2, '0')}.000Z`;
  return {
    id: `hn_${String(seq).padStart(6, '0')}`,
    tenantId,
    hostname,
    status: 'pending',
    edgeHostnameId: null,
    txtName: `_edge-custom-hostname.${hostname}`,
    txtValue: `value${seq}`,
    verificationError: null,
    verificationDetail: null,
    statusChangedAt: at,
    lastCheckedAt: null,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

export function hostnamesSuite(getStore: () => Store): void {
  describe('custom hostnames', () => {
    it('round-trips a record and finds it by hostname across tenants, by id only within its tenant', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const h = makeHostname(s.a.id, 'help.acme.co.th');
      await store.hostnames.insert(h);
      expect(await store.hostnames.get(s.a.id, h.id)).toEqual(h);
      expect(await store.hostnames.get(s.b.id, h.id)).toBeNull();
      expect(await store.hostnames.findByHostname('help.acme.co.th')).toEqual(h);
      expect(await store.hostnames.findByHostname('other.acme.co.th')).toBeNull();
      expect(await store.hostnames.list(s.a.id)).toEqual([h]);
      expect(await store.hostnames.list(s.b.id)).toEqual([]);
    });

    it('a hostname belongs to one tenant only', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      await store.hostnames.insert(makeHostname(s.a.id, 'help.shared.com'));
      const error = await store.hostnames.insert(makeHostname(s.b.id, 'help.shared.com')).catch((e: unknown) => e);
      expect(isStoreConflict(error)).toBe(true);
    });

    it('updates the mutable fields, only within the tenant', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const h = makeHostname(s.a.id, 'help.acme.co.th');
      await store.hostnames.insert(h);
      const next: CustomHostnameRecord = {
        ...h,
        status: 'failed',
        edgeHostnameId: 'edge-1',
        txtName: '_cf-custom-hostname.help.acme.co.th',
        txtValue: 'uuid',
        verificationError: 'txt_mismatch',
        verificationDetail: 'TXT differs',
        statusChangedAt: '2026-02-01T00:00:00.000Z',
        lastCheckedAt: '2026-02-01T00:00:00.000Z',
        updatedAt: '2026-02-01T00:00:00.000Z',
      };
      await store.hostnames.update({ ...next, tenantId: s.b.id });
      expect(await store.hostnames.get(s.a.id, h.id)).toEqual(h);
      await store.hostnames.update(next);
      expect(await store.hostnames.get(s.a.id, h.id)).toEqual(next);
    });

    it('counts active records per tenant and across the account', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      await store.hostnames.insert(makeHostname(s.a.id, 'a1.acme.com', { status: 'active' }));
      await store.hostnames.insert(makeHostname(s.a.id, 'a2.acme.com', { status: 'inactive' }));
      await store.hostnames.insert(makeHostname(s.a.id, 'a3.acme.com', { status: 'verifying_dns' }));
      await store.hostnames.insert(makeHostname(s.b.id, 'b1.beta.com', { status: 'active' }));
      expect(await store.hostnames.countActive(s.a.id)).toBe(1);
      expect(await store.hostnames.countActive(s.b.id)).toBe(1);
      expect(await store.hostnames.countActive()).toBe(2);
    });

    it('lists records by status across tenants, oldest status change first, bounded', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const late = makeHostname(s.a.id, 'late.acme.com', { status: 'verifying_dns', statusChangedAt: '2026-03-01T00:00:00.000Z' });
      const early = makeHostname(s.b.id, 'early.beta.com', { status: 'pending', statusChangedAt: '2026-01-01T00:00:00.000Z' });
      await store.hostnames.insert(late);
      await store.hostnames.insert(early);
      await store.hostnames.insert(makeHostname(s.a.id, 'done.acme.com', { status: 'active' }));
      expect((await store.hostnames.listByStatus(['pending', 'verifying_dns'], 10)).map((h) => h.hostname)).toEqual(['early.beta.com', 'late.acme.com']);
      expect((await store.hostnames.listByStatus(['pending', 'verifying_dns'], 1)).map((h) => h.hostname)).toEqual(['early.beta.com']);
      expect(await store.hostnames.listByStatus(['failed'], 10)).toEqual([]);
    });

    it('deletes only within the tenant', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const h = makeHostname(s.a.id, 'help.acme.co.th');
      await store.hostnames.insert(h);
      expect(await store.hostnames.delete(s.b.id, h.id)).toBe(false);
      expect(await store.hostnames.delete(s.a.id, h.id)).toBe(true);
      expect(await store.hostnames.findByHostname('help.acme.co.th')).toBeNull();
    });

    it('rolls back with its transaction', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      await store
        .transaction(async (tx) => {
          await tx.hostnames.insert(makeHostname(s.a.id, 'help.acme.co.th'));
          throw new Error('abort');
        })
        .catch(() => undefined);
      expect(await store.hostnames.list(s.a.id)).toEqual([]);
    });
  });

  describe('tenant tombstones', () => {
    const tomb = (slug: string, hostnames: string[], erasedAt = '2026-05-01T00:00:00.000Z'): TenantTombstone => ({
      slug,
      tenantId: `ten_${slug}`,
      hostnames,
      erasedAt,
      purgedAt: null,
      purgeAttemptedAt: null,
    });

    it('finds a tombstone by slug and by any of its hostnames', async () => {
      const store = getStore();
      await store.tombstones.put(tomb('acme', ['help.acme.co.th', 'docs.acme.co.th']));
      await store.tombstones.put(tomb('beta', []));
      expect(await store.tombstones.getBySlug('acme')).toEqual(tomb('acme', ['help.acme.co.th', 'docs.acme.co.th']));
      expect((await store.tombstones.findByHostname('docs.acme.co.th'))?.slug).toBe('acme');
      expect(await store.tombstones.findByHostname('acme.co.th')).toBeNull();
      expect(await store.tombstones.getBySlug('gamma')).toBeNull();
    });

    it('lists unpurged tombstones until marked purged; a second erasure of the slug replaces the first', async () => {
      const store = getStore();
      await store.tombstones.put(tomb('acme', ['help.acme.co.th'], '2026-05-01T00:00:00.000Z'));
      await store.tombstones.put(tomb('beta', [], '2026-04-01T00:00:00.000Z'));
      expect((await store.tombstones.listUnpurged(10)).map((t) => t.slug)).toEqual(['beta', 'acme']);
      await store.tombstones.markPurged('beta', '2026-05-02T03:00:00.000Z');
      expect((await store.tombstones.listUnpurged(10)).map((t) => t.slug)).toEqual(['acme']);
      expect((await store.tombstones.getBySlug('beta'))?.purgedAt).toBe('2026-05-02T03:00:00.000Z');
      // A failed purge goes behind the ones never tried (a fair queue, not head-of-line).
      await store.tombstones.put(tomb('gamma', [], '2026-05-03T00:00:00.000Z'));
      await store.tombstones.markPurgeAttempted('acme', '2026-05-04T00:00:00.000Z');
      expect((await store.tombstones.listUnpurged(1)).map((t) => t.slug)).toEqual(['gamma']);
      await store.tombstones.markPurgeAttempted('gamma', '2026-05-04T00:05:00.000Z');
      expect((await store.tombstones.listUnpurged(10)).map((t) => t.slug)).toEqual(['acme', 'gamma']);
      await store.tombstones.put(tomb('beta', ['new.beta.com'], '2026-06-01T00:00:00.000Z'));
      expect(await store.tombstones.getBySlug('beta')).toMatchObject({ hostnames: ['new.beta.com'], purgedAt: null });
      expect((await store.tombstones.list()).map((t) => t.slug)).toEqual(['acme', 'gamma', 'beta']);
    });
  });
}
