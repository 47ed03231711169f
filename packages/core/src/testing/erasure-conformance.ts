/** Tenant erasure in the store: the tombstone and the cascade through every table with `tenant_id`. */
import { describe, expect, it } from 'vitest';
import type { Store } from '../ports/store.js';
import { searchTerms } from '../text/query.js';
import { makeDocument, seedTwoTenants } from './fixtures.js';
import { makeHostname } from './hostnames-conformance.js';
import { seedWorkspaceData } from './workspaces-conformance.js';

/** What the suite needs to see of a backend's schema: the tables with `tenant_id`. */
export interface TenantSchemaProbe {
  tenantScopedTables(): Promise<string[]>;
  countTenantRows(table: string, tenantId: string): Promise<number>;
}

export function erasureSuite(getStore: () => Store, getProbe: () => TenantSchemaProbe | undefined): void {
  describe('tenant erasure', () => {
    it('leaves no row of the erased tenant in any table with tenant_id but its tombstone; the other tenant keeps everything', async () => {
      const store = getStore();
      const probe = getProbe();
      if (!probe) return;
      const s = await seedTwoTenants(store);
      await store.search.setIndexInfo({ embedderId: 'e1', dimension: 4 });
      for (const [tenant, ws, word] of [[s.a, s.aDefault, 'apple'], [s.a, s.aSecond, 'apricot'], [s.b, s.bDefault, 'banana']] as const) {
        await seedWorkspaceData(store, tenant.id, ws.id, word);
      }
      await store.hostnames.insert(makeHostname(s.a.id, 'help.erased.example', { status: 'active' }));
      await store.hostnames.insert(makeHostname(s.b.id, 'help.kept.example', { status: 'active' }));
      await store.billing.putTenantBilling({ tenantId: s.a.id, subscriptionId: 'sub_1', subscriptionStatus: 'active', interval: 'month', lockedRates: null, lockedUntil: null, addonSeats: 0, updatedAt: '2030-01-01T00:00:00.000Z' });

      const tables = await probe.tenantScopedTables();
      const before: Record<string, number> = {};
      for (const t of tables) before[t] = await probe.countTenantRows(t, s.a.id);
      // The seed reaches the tables that matter, so "no row left" below proves something.
      for (const t of ['documents', 'chunks', 'conversations', 'messages', 'api_keys', 'memberships', 'custom_hostnames', 'audit_events', 'usage_records', 'api_query_events']) {
        expect(before[t], t).toBeGreaterThan(0);
      }
      const bBefore = await probe.countTenantRows('documents', s.b.id);

      const deleted = await store.transaction(async (tx) => {
        await tx.tombstones.put({ slug: s.a.slug, tenantId: s.a.id, hostnames: ['help.erased.example'], erasedAt: '2030-02-01T00:00:00.000Z', purgedAt: null });
        return tx.tenants.erase(s.a.id);
      });
      expect(deleted).toMatchObject({ tenants: 1, documents: before.documents, chunks: before.chunks, custom_hostnames: 1 });

      for (const t of tables) {
        if (t === 'tenant_tombstones') continue;
        expect(await probe.countTenantRows(t, s.a.id), t).toBe(0);
      }
      expect(await probe.countTenantRows('tenant_tombstones', s.a.id)).toBe(1);
      expect(await store.tenants.get(s.a.id)).toBeNull();
      expect(await store.hostnames.findByHostname('help.erased.example')).toBeNull();
      expect(await store.tombstones.findByHostname('help.erased.example')).toMatchObject({ slug: s.a.slug });
      // The search index keeps no trace of the erased tenant, and the other tenant's still answers.
      expect(await store.search.lexical(s.scopeA, { terms: searchTerms('apple').terms, pairs: [], fragments: [] }, 10)).toEqual([]);
      expect(await store.search.trigram(s.scopeA, ['apple'], 10)).toEqual([]);
      expect((await store.search.lexical(s.scopeB, { terms: searchTerms('banana').terms, pairs: [], fragments: [] }, 10)).length).toBeGreaterThan(0);
      expect(await probe.countTenantRows('documents', s.b.id)).toBe(bBefore);
      expect(await store.hostnames.findByHostname('help.kept.example')).not.toBeNull();
    });

    it('deletes the members who belong to no other tenant (with their sessions), and the counters keyed by its ids and e-mails', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const at = '2030-01-01T00:00:00.000Z';
      const user = (id: string, email: string) => ({ id, email, passwordHash: 'scrypt$x', createdAt: at });
      await store.users.insert(user('usr_only', 'only@a.test'));
      await store.users.insert(user('usr_both', 'both@ab.test'));
      await store.users.insert(user('usr_none', 'none@none.test'));
      const member = (id: string, userId: string, tenantId: string) => ({ id, userId, tenantId, workspaceId: null, role: 'owner' as const, createdAt: at });
      await store.users.addMembership(member('mem_1', 'usr_only', s.a.id));
      await store.users.addMembership(member('mem_2', 'usr_both', s.a.id));
      await store.users.addMembership(member('mem_3', 'usr_both', s.b.id));
      await store.users.insertSession({ id: 'ses_only', userId: 'usr_only', createdAt: at, expiresAt: '2031-01-01T00:00:00.000Z', revokedAt: null });
      expect(await store.users.memberIds(s.a.id)).toEqual(['usr_both', 'usr_only']);

      const bucket = (key: string) => ({ key, window: 'w', limit: 100, resetAt: '2099-01-01T00:00:00.000Z' });
      const keys = [`q:day:${s.a.id}`, 'login:account:300000:only@a.test', 'login:account:300000:only@a.test:203.0.113.9', 'k:hour:usr_only', 'login:account:300000:both@ab.test', `q:day:${s.b.id}`, 'login:account:300000:xonly@a.test'];
      for (const key of keys) await store.rateLimits.consume([bucket(key)], 1);

      await store.tenants.erase(s.a.id);
      // Memberships went with the tenant: only the user of no other tenant is deleted (never one the list does not name).
      expect((await store.users.deleteUnaffiliated(['usr_only', 'usr_both'])).map((u) => u.email)).toEqual(['only@a.test']);
      expect(await store.users.get('usr_only')).toBeNull();
      expect(await store.users.getSession('ses_only')).toBeNull();
      expect(await store.users.get('usr_both')).not.toBeNull();
      expect(await store.users.get('usr_none')).not.toBeNull();

      expect(await store.rateLimits.forget([s.a.id, 'usr_only', 'only@a.test'])).toBe(4);
      // What is left counts on: a counter of another subject (a part must match whole) starts from 1, not 0.
      for (const key of keys) {
        const { counts } = await store.rateLimits.consume([bucket(key)], 1);
        expect(counts[0], key).toBe(keys.indexOf(key) < 4 ? 1 : 2);
      }
    });

    it('rolls the tombstone back with the cascade when the transaction fails', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      await expect(
        store.transaction(async (tx) => {
          await tx.tombstones.put({ slug: s.a.slug, tenantId: s.a.id, hostnames: [], erasedAt: '2030-02-01T00:00:00.000Z', purgedAt: null });
          await tx.tenants.erase(s.a.id);
          throw new Error('interrupted');
        }),
      ).rejects.toThrow('interrupted');
      expect(await store.tombstones.getBySlug(s.a.slug)).toBeNull();
      expect(await store.tenants.get(s.a.id)).not.toBeNull();
    });
  });
}

/** The help center's listing: documents with a public surface ticked, confined to one workspace. */
export function publishedDocumentsSuite(getStore: () => Store): void {
  describe('published documents', () => {
    it('lists only the workspace documents with the surface ticked, newest first, up to the limit', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const shown = [makeDocument(s.a.id, s.aDefault.id, { publicSurfaces: ['help_center'] }), makeDocument(s.a.id, s.aDefault.id, { publicSurfaces: ['help_center'] })];
      const hidden = [makeDocument(s.a.id, s.aDefault.id), makeDocument(s.a.id, s.aSecond.id, { publicSurfaces: ['help_center'] }), makeDocument(s.b.id, s.bDefault.id, { publicSurfaces: ['help_center'] })];
      for (const doc of [...shown, ...hidden]) await store.documents.insert(doc);
      expect((await store.documents.listPublished(s.scopeA, 'help_center', 10)).map((d) => d.id)).toEqual([shown[1]!.id, shown[0]!.id]);
      expect(await store.documents.listPublished(s.scopeA, 'help_center', 1)).toHaveLength(1);
      await store.documents.update(s.scopeA, shown[0]!.id, { publicSurfaces: [], updatedAt: new Date().toISOString() });
      expect((await store.documents.listPublished(s.scopeA, 'help_center', 10)).map((d) => d.id)).toEqual([shown[1]!.id]);
    });
  });
}
