/**
 * The store conformance suite: one behaviour, tested once, passed by every backend.
 * A backend's whole test file is `describeStoreConformance('sqlite', factory)`.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isStoreConflict } from '../errors.js';
import type { Store } from '../ports/store.js';
import { createIds } from '../system.js';
import { makeDocument, makeTenant, makeWorkspace, seedTwoTenants } from './fixtures.js';
import { billingSuite } from './billing-conformance.js';
import { resolutionsSuite } from './resolutions-conformance.js';
import { flowsSuite } from './flows-conformance.js';
import { conversationsSuite } from './conversations-conformance.js';
import { supportSuite } from './support-conformance.js';
import { hostnamesSuite } from './hostnames-conformance.js';
import { operationsSuite } from './operations-conformance.js';
import { searchIndexSuite } from './search-conformance.js';
import { syncSuite } from './sync-conformance.js';
import { workspacesSuite, type SchemaProbe } from './workspaces-conformance.js';
import { billableIndexSuite, kitSuite } from './kit-conformance.js';
import { columnsSuite } from './columns-conformance.js';
import { insightsSuite } from './insights-conformance.js';
import { auditSuite } from './audit-conformance.js';
import { retentionSuite } from './retention-conformance.js';
import { ssoSuite } from './sso-conformance.js';
import type { SqlDriver } from '../rows/driver.js';
import { erasureSuite, publishedDocumentsSuite, type TenantSchemaProbe } from './erasure-conformance.js';

export interface StoreHandle {
  store: Store;
  /** The backend's schema, for the workspace-cascade coverage checks (and the tenant-erasure ones). */
  schema: SchemaProbe & Partial<TenantSchemaProbe>;
  /** Releases the backend (drop schema, delete file…). */
  cleanup(): Promise<void>;
  /**
   * Opens another store on the same database, as a second process or node would (absent for
   * backends one process owns, such as SQLite `:memory:`). The caller closes it.
   */
  openPeer?(): Promise<Store>;
  /** The store's storage-kit driver, when it is a SQL store built on the kit. */
  kit?: SqlDriver;
  /** The kit's driver for the request counters, when the store keeps them apart from `kit`. */
  countersKit?: SqlDriver;
}

export type StoreFactory = () => Promise<StoreHandle>;

export function describeStoreConformance(name: string, factory: StoreFactory): void {
  describe(`store conformance: ${name}`, () => {
    let handle: StoreHandle;
    let store: Store;
    beforeEach(async () => {
      handle = await factory();
      store = handle.store;
    });
    afterEach(async () => {
      await handle.cleanup();
    });

    describe('tenants and workspaces', () => {
      it('round-trips a tenant by id and by slug', async () => {
        const t = makeTenant('acme', { plan: 'team', quotas: { legacyPlan: 'business', grandfatheredUntil: '2027-01-31' }, paymentCustomerId: 'cus_1' });
        await store.tenants.insert(t);
        expect(await store.tenants.get(t.id)).toEqual(t);
        expect(await store.tenants.getBySlug('acme')).toEqual(t);
        expect(await store.tenants.getBySlug('nope')).toBeNull();
      });

      it('refuses a second tenant with the same slug as a conflict', async () => {
        await store.tenants.insert(makeTenant('acme'));
        const error = await store.tenants.insert(makeTenant('acme')).catch((e: unknown) => e);
        expect(isStoreConflict(error)).toBe(true);
      });

      it('updates plan, quotas and payment customer', async () => {
        const t = makeTenant('acme');
        await store.tenants.insert(t);
        await store.tenants.update(t.id, { plan: 'growth', quotas: { queriesPerDay: 5 }, paymentCustomerId: 'cus_9', updatedAt: '2030-01-01T00:00:00.000Z' });
        expect(await store.tenants.get(t.id)).toMatchObject({ plan: 'growth', quotas: { queriesPerDay: 5 }, paymentCustomerId: 'cus_9', updatedAt: '2030-01-01T00:00:00.000Z' });
      });

      it('finds workspaces by slug and the default one, per tenant only', async () => {
        const s = await seedTwoTenants(store);
        expect(await store.workspaces.getDefault(s.a.id)).toEqual(s.aDefault);
        expect(await store.workspaces.getBySlug(s.a.id, 'second')).toEqual(s.aSecond);
        expect(await store.workspaces.getBySlug(s.b.id, 'second')).toBeNull();
        expect(await store.workspaces.get(s.b.id, s.aSecond.id)).toBeNull();
        expect((await store.workspaces.list(s.a.id)).map((w) => w.slug)).toEqual(['default', 'second']);
      });

      it('allows one default workspace per tenant and unique slugs within a tenant', async () => {
        const s = await seedTwoTenants(store);
        const dupDefault = await store.workspaces.insert(makeWorkspace(s.a.id, 'other', { isDefault: true })).catch((e: unknown) => e);
        expect(isStoreConflict(dupDefault)).toBe(true);
        const dupSlug = await store.workspaces.insert(makeWorkspace(s.a.id, 'second')).catch((e: unknown) => e);
        expect(isStoreConflict(dupSlug)).toBe(true);
        await expect(store.workspaces.insert(makeWorkspace(s.b.id, 'second'))).resolves.toBeUndefined();
      });
    });

    describe('api keys', () => {
      it('finds a key by hash, lists per tenant and revokes only within its tenant', async () => {
        const s = await seedTwoTenants(store);
        const ids = createIds();
        const key = { id: ids.next('key'), tenantId: s.a.id, kind: 'secret' as const, workspaceId: s.aSecond.id, name: 'k', prefix: 'svc_live_abcd', secretHash: 'f'.repeat(64), scopes: ['read', 'mcp'] as ('read' | 'mcp')[], createdAt: new Date().toISOString(), revokedAt: null, surface: null, embeddedKey: null, lastUsedAt: null };
        await store.apiKeys.insert(key);
        expect(await store.apiKeys.findByHash('f'.repeat(64))).toEqual(key);
        // A help center's own key: restricted to its surface, its full (public) value kept.
        const embedded = { ...key, id: ids.next('key'), kind: 'publishable' as const, prefix: 'svc_pub_abcd', secretHash: 'd'.repeat(64), scopes: ['read'] as ('read' | 'mcp')[], surface: 'help_center' as const, embeddedKey: `svc_pub_${'A'.repeat(32)}` };
        await store.apiKeys.insert(embedded);
        expect(await store.apiKeys.findByHash('d'.repeat(64))).toEqual(embedded);
        expect(await store.apiKeys.findByHash('e'.repeat(64))).toBeNull();
        expect(await store.apiKeys.list(s.b.id)).toEqual([]);
        expect(await store.apiKeys.revoke(s.b.id, key.id, new Date().toISOString())).toBe(false);
        expect((await store.apiKeys.findByHash('f'.repeat(64)))?.revokedAt).toBeNull();
        expect(await store.apiKeys.revoke(s.a.id, key.id, '2030-01-01T00:00:00.000Z')).toBe(true);
        expect((await store.apiKeys.findByHash('f'.repeat(64)))?.revokedAt).toBe('2030-01-01T00:00:00.000Z');
        await store.apiKeys.touch(embedded.id, '2030-01-02T03:04:00.000Z');
        expect((await store.apiKeys.list(s.a.id)).map((k) => [k.id, k.lastUsedAt])).toEqual([
          [key.id, null],
          [embedded.id, '2030-01-02T03:04:00.000Z'],
        ]);
      });
    });

    describe('documents', () => {
      it('round-trips a document with every field; getRefs reads its link and surfaces', async () => {
        const s = await seedTwoTenants(store);
        const d = makeDocument(s.a.id, s.aDefault.id, { title: 'ภาษาไทย', contentMd: '# ก\n\nข', url: 'https://x.test/a', publicSurfaces: ['help_center'], status: 'failed', error: 'boom' });
        await store.documents.insert(d);
        expect(await store.documents.get(s.scopeA, d.id)).toEqual(d);
        const plain = makeDocument(s.a.id, s.aDefault.id);
        await store.documents.insert(plain);
        const refs = await store.documents.getRefs(s.scopeA, [d.id, plain.id, 'doc_missing']);
        expect(refs.sort((x, y) => x.id.localeCompare(y.id))).toEqual(
          [
            { id: d.id, url: 'https://x.test/a', publicSurfaces: ['help_center'], audiences: ['public'] },
            { id: plain.id, url: plain.url, publicSurfaces: plain.publicSurfaces, audiences: ['internal'] },
          ].sort((x, y) => x.id.localeCompare(y.id)),
        );
        expect(await store.documents.getRefs(s.scopeA, [])).toEqual([]);
      });

      it('never returns another tenant’s or another workspace’s document', async () => {
        const s = await seedTwoTenants(store);
        const d = makeDocument(s.a.id, s.aDefault.id);
        await store.documents.insert(d);
        expect(await store.documents.get(s.scopeB, d.id)).toBeNull();
        expect(await store.documents.get(s.scopeA2, d.id)).toBeNull();
        expect(await store.documents.get({ tenantId: s.b.id, workspaceId: s.aDefault.id }, d.id)).toBeNull();
        expect(await store.documents.getMany(s.scopeB, [d.id])).toEqual([]);
        expect(await store.documents.getRefs(s.scopeB, [d.id])).toEqual([]);
        expect(await store.documents.getRefs(s.scopeA2, [d.id])).toEqual([]);
        expect((await store.documents.list(s.scopeB, { limit: 10 })).items).toEqual([]);
        expect((await store.documents.list(s.scopeA2, { limit: 10 })).items).toEqual([]);
        expect(await store.documents.update(s.scopeB, d.id, { title: 'x', updatedAt: d.updatedAt })).toBeNull();
        expect(await store.documents.delete(s.scopeB, d.id)).toBe(false);
        expect(await store.documents.delete(s.scopeA2, d.id)).toBe(false);
        expect(await store.documents.get(s.scopeA, d.id)).toEqual(d);
      });

      it('lists newest first with a cursor until the last page', async () => {
        const s = await seedTwoTenants(store);
        const docs = [];
        for (let i = 0; i < 5; i++) {
          const d = makeDocument(s.a.id, s.aDefault.id, { title: `d${i}` });
          docs.push(d);
          await store.documents.insert(d);
        }
        await store.documents.insert(makeDocument(s.b.id, s.bDefault.id));
        const first = await store.documents.list(s.scopeA, { limit: 2 });
        expect(first.items.map((d) => d.title)).toEqual(['d4', 'd3']);
        expect(first.nextCursor).toBe(first.items[1]?.id);
        const second = await store.documents.list(s.scopeA, { limit: 2, after: first.nextCursor! });
        expect(second.items.map((d) => d.title)).toEqual(['d2', 'd1']);
        const last = await store.documents.list(s.scopeA, { limit: 2, after: second.nextCursor! });
        expect(last.items.map((d) => d.title)).toEqual(['d0']);
        expect(last.nextCursor).toBeNull();
      });

      it('updates only the given fields and counts by status', async () => {
        const s = await seedTwoTenants(store);
        const d = makeDocument(s.a.id, s.aDefault.id);
        await store.documents.insert(d);
        const updated = await store.documents.update(s.scopeA, d.id, { status: 'indexed', publicSurfaces: ['help_center'], updatedAt: '2030-01-01T00:00:00.000Z' });
        expect(updated).toEqual({ ...d, status: 'indexed', publicSurfaces: ['help_center'], updatedAt: '2030-01-01T00:00:00.000Z' });
        expect(await store.documents.countByStatus(s.scopeA)).toEqual({ pending: 0, indexing: 0, indexed: 1, failed: 0 });
      });
    });

    auditSuite(() => store);
    retentionSuite(() => store);
    ssoSuite(() => store);

    searchIndexSuite(() => store, () => handle.openPeer?.() ?? Promise.resolve(null));
    operationsSuite(() => store);
    conversationsSuite(() => store);
    supportSuite(() => store);
    hostnamesSuite(() => store);
    insightsSuite(() => store);
    kitSuite(() => handle.kit);
    billableIndexSuite(() => handle.kit);
    columnsSuite(() => store, () => (handle.kit ? { kit: handle.kit, counters: handle.countersKit } : undefined));
    billingSuite(() => store);
    resolutionsSuite(() => store);
    flowsSuite(() => store);
    syncSuite(() => store);
    workspacesSuite(() => store, () => handle.schema);
    publishedDocumentsSuite(() => store);
    erasureSuite(() => store, () => (handle.schema.tenantScopedTables && handle.schema.countTenantRows ? (handle.schema as TenantSchemaProbe) : undefined));

    describe('transactions', () => {
      it('commits all writes together', async () => {
        const t = makeTenant('acme');
        await store.transaction(async (tx) => {
          await tx.tenants.insert(t);
          await tx.workspaces.insert(makeWorkspace(t.id, 'default'));
        });
        expect(await store.workspaces.getDefault(t.id)).not.toBeNull();
      });

      it('rolls every write back when the callback throws', async () => {
        const t = makeTenant('acme');
        await expect(
          store.transaction(async (tx) => {
            await tx.tenants.insert(t);
            throw new Error('boom');
          }),
        ).rejects.toThrow('boom');
        expect(await store.tenants.get(t.id)).toBeNull();
      });

      it('keeps a concurrent write outside the transaction when the transaction rolls back', async () => {
        const inTx = makeTenant('in-tx');
        const outside = makeTenant('outside');
        let release!: () => void;
        const gate = new Promise<void>((r) => (release = r));
        const tx = store
          .transaction(async (t) => {
            await t.tenants.insert(inTx);
            await gate;
            throw new Error('rollback');
          })
          .catch(() => undefined);
        const write = store.tenants.insert(outside);
        release();
        await Promise.all([tx, write]);
        expect(await store.tenants.get(inTx.id)).toBeNull();
        expect(await store.tenants.get(outside.id)).not.toBeNull();
      });
    });
  });
}
