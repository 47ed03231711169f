/** Content sync and browser access in the store: external ids, connector events, allowed origins. */
import { describe, expect, it } from 'vitest';
import { isStoreConflict } from '../errors.js';
import type { Store } from '../ports/store.js';
import { makeDocument, seedTwoTenants } from './fixtures.js';

export function syncSuite(getStore: () => Store): void {
  describe('content sync and browser access', () => {
    it('keeps external ids unique per workspace, not across workspaces or tenants', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const doc = makeDocument(s.a.id, s.aDefault.id, { externalId: 'guides/a.md', metadata: { author: 'Nok', tags: ['x'] } });
      await store.documents.insert(doc);
      const again = await store.documents.insert(makeDocument(s.a.id, s.aDefault.id, { externalId: 'guides/a.md' })).catch((e: unknown) => e);
      expect(isStoreConflict(again)).toBe(true);
      // The same id elsewhere is another document.
      await store.documents.insert(makeDocument(s.a.id, s.aSecond.id, { externalId: 'guides/a.md' }));
      await store.documents.insert(makeDocument(s.b.id, s.bDefault.id, { externalId: 'guides/a.md' }));
      // Documents without an external id never collide.
      await store.documents.insert(makeDocument(s.a.id, s.aDefault.id));
      await store.documents.insert(makeDocument(s.a.id, s.aDefault.id));
      expect(await store.documents.getByExternalId({ tenantId: s.a.id, workspaceId: s.aDefault.id }, 'guides/a.md')).toEqual(doc);
      expect(await store.documents.getByExternalId({ tenantId: s.a.id, workspaceId: s.aDefault.id }, 'guides/b.md')).toBeNull();
      expect(await store.documents.listExternalIds({ tenantId: s.a.id, workspaceId: s.aDefault.id })).toEqual([{ id: doc.id, externalId: 'guides/a.md' }]);
    });

    it('updates metadata and the external id, and refuses a taken one', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const scope = { tenantId: s.a.id, workspaceId: s.aDefault.id };
      const one = makeDocument(s.a.id, s.aDefault.id, { externalId: 'one' });
      const two = makeDocument(s.a.id, s.aDefault.id, { externalId: 'two' });
      await store.documents.insert(one);
      await store.documents.insert(two);
      const updated = await store.documents.update(scope, one.id, { metadata: { source: 'cms', n: 2 }, externalId: 'uno', updatedAt: one.updatedAt });
      expect(updated).toMatchObject({ externalId: 'uno', metadata: { source: 'cms', n: 2 } });
      const taken = await store.documents.update(scope, two.id, { externalId: 'uno', updatedAt: two.updatedAt }).catch((e: unknown) => e);
      expect(isStoreConflict(taken)).toBe(true);
    });

    it('records a connector event id once per tenant', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const at = new Date().toISOString();
      expect(await store.connectors.recordEvent(s.a.id, s.aDefault.id, 'evt_1', at)).toBe(true);
      expect(await store.connectors.recordEvent(s.a.id, s.aSecond.id, 'evt_1', at)).toBe(false);
      expect(await store.connectors.recordEvent(s.b.id, s.bDefault.id, 'evt_1', at)).toBe(true);
      // Inside a rolled-back transaction the event is not kept: the event and its write go together.
      await store.transaction(async (tx) => {
        expect(await tx.connectors.recordEvent(s.a.id, s.aDefault.id, 'evt_2', at)).toBe(true);
        throw new Error('roll back');
      }).catch(() => undefined);
      expect(await store.connectors.recordEvent(s.a.id, s.aDefault.id, 'evt_2', at)).toBe(true);
    });

    it('keeps one webhook secret per tenant and replaces it on rotation', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      expect(await store.connectors.getSecret(s.a.id)).toBeNull();
      await store.connectors.setSecret(s.a.id, 'first', '2030-01-01T00:00:00.000Z');
      await store.connectors.setSecret(s.a.id, 'second', '2030-01-02T00:00:00.000Z');
      expect(await store.connectors.getSecret(s.a.id)).toEqual({ secret: 'second', createdAt: '2030-01-02T00:00:00.000Z' });
      expect(await store.connectors.getSecret(s.b.id)).toBeNull();
    });

    it('replaces a tenant’s allowed origins and answers whether any tenant allows one', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      await store.origins.replace(s.a.id, ['https://b.example', 'https://a.example', 'https://a.example']);
      expect(await store.origins.list(s.a.id)).toEqual(['https://a.example', 'https://b.example']);
      expect(await store.origins.list(s.b.id)).toEqual([]);
      expect(await store.origins.allowedByAny('https://a.example')).toBe(true);
      await store.origins.replace(s.a.id, ['https://c.example']);
      expect(await store.origins.list(s.a.id)).toEqual(['https://c.example']);
      expect(await store.origins.allowedByAny('https://a.example')).toBe(false);
    });

    it('holds an idempotency key per tenant: claimed once, its response kept, replaced once expired or abandoned', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const record = { tenantId: s.a.id, key: 'k-1', fingerprint: 'f1', createdAt: '2030-01-01T00:00:00.000Z', expiresAt: '2030-01-02T00:00:00.000Z' };
      const stale = '2029-12-31T23:50:00.000Z';
      expect(await store.idempotency.claim(record, stale)).toEqual({ claimed: true });
      // In flight: the second claim sees the first, without a response.
      expect(await store.idempotency.claim({ ...record, fingerprint: 'f2' }, stale)).toEqual({ claimed: false, existing: { ...record, response: null } });
      // Another tenant's key of the same name is its own.
      expect(await store.idempotency.claim({ ...record, tenantId: s.b.id }, stale)).toEqual({ claimed: true });
      const response = { status: 201, headers: { 'content-type': 'application/json; charset=utf-8', location: '/api/docs/doc_1' }, body: '{"id":"doc_1","title":"ไทย"}' };
      await store.idempotency.complete(s.a.id, 'k-1', response);
      // A finished key is not given back.
      await store.idempotency.release(s.a.id, 'k-1');
      expect(await store.idempotency.claim({ ...record, createdAt: '2030-01-01T12:00:00.000Z' }, '2030-01-01T11:50:00.000Z')).toEqual({ claimed: false, existing: { ...record, response } });
      // Expired: the key is free again; purging removes what expired.
      expect(await store.idempotency.claim({ ...record, createdAt: '2030-01-02T00:00:00.000Z', expiresAt: '2030-01-03T00:00:00.000Z' }, stale)).toEqual({ claimed: true });
      // A key in flight since before `staleBefore` was abandoned by its node: the next claim takes it.
      expect(await store.idempotency.claim({ ...record, createdAt: '2030-01-02T00:20:00.000Z', expiresAt: '2030-01-03T00:20:00.000Z' }, '2030-01-02T00:10:00.000Z')).toEqual({ claimed: true });
      await store.idempotency.release(s.a.id, 'k-1');
      expect(await store.idempotency.claim({ ...record, key: 'k-2' }, stale)).toEqual({ claimed: true });
      expect(await store.idempotency.purgeExpired('2030-01-02T00:00:00.000Z')).toBe(2);
      expect(await store.idempotency.claim({ ...record, tenantId: s.b.id, createdAt: '2030-01-02T00:00:00.000Z' }, stale)).toEqual({ claimed: true });
    });
  });
}
