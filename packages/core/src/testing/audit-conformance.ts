import { describe, expect, it } from 'vitest';
import { chainEntry, verifyAuditChain } from '../audit/chain.js';
import type { AuditEvent, Store } from '../ports/store.js';
import { createIds } from '../system.js';
import { seedTwoTenants } from './fixtures.js';

const ids = createIds();
const draft = (tenantId: string, workspaceId: string | null, type: string, createdAt: string, extra: Partial<AuditEvent> = {}) => ({
  id: ids.next('evt'),
  tenantId,
  workspaceId,
  type,
  actor: 'usr_1',
  actorKind: 'user' as const,
  subjectId: 'doc_1',
  data: { reason: 'retry' },
  before: { title: 'Old', version: 1 },
  after: { title: 'New', version: 2 },
  createdAt,
  ...extra,
});

async function* once(entries: AuditEvent[]) {
  yield entries;
}

/** The audit log: a per-tenant chain appended atomically, read newest first, purged oldest first. */
export function auditSuite(getStore: () => Store): void {
  describe('audit log', () => {
    it('appends a per-tenant chain and reads it back exactly (hashes verify after the round trip)', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const first = await store.audit.append(s.a.id, (last) => chainEntry(last, draft(s.a.id, s.aDefault.id, 'document.updated', '2030-01-01T00:00:00.000Z')));
      const second = await store.audit.append(s.a.id, (last) => chainEntry(last, draft(s.a.id, null, 'api_key.created', '2030-01-02T00:00:00.000Z', { before: null })));
      const other = await store.audit.append(s.b.id, (last) => chainEntry(last, draft(s.b.id, s.bDefault.id, 'document.updated', '2030-01-01T00:00:00.000Z')));
      expect([first.seq, second.seq, other.seq]).toEqual([1, 2, 1]);
      expect(second.prevHash).toBe(first.hash);
      expect(other.prevHash).toBeNull();
      const stored = await store.audit.range(s.a.id, { after: 0, limit: 10 });
      expect(stored).toEqual([first, second]);
      expect(await verifyAuditChain(once(stored))).toMatchObject({ ok: true, checked: 2 });
      expect(await store.audit.list(s.a.id, { type: 'api_key.created' })).toEqual([second]);
      expect(await store.audit.list(s.b.id)).toEqual([other]);
    });

    it('numbers concurrent appends of one tenant without a gap or a repeat', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      await Promise.all(Array.from({ length: 8 }, (_, i) => store.audit.append(s.a.id, (last) => chainEntry(last, draft(s.a.id, null, `t.${i}`, `2030-01-01T00:00:0${i}.000Z`)))));
      const stored = await store.audit.range(s.a.id, { after: 0, limit: 100 });
      expect(stored.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(await verifyAuditChain(once(stored))).toMatchObject({ ok: true, checked: 8 });
    });

    it('joins the caller’s transaction: a rolled-back change leaves no entry', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      await expect(
        store.transaction(async (tx) => {
          await tx.audit.append(s.a.id, (last) => chainEntry(last, draft(s.a.id, null, 'doomed', '2030-01-01T00:00:00.000Z')));
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      expect(await store.audit.range(s.a.id, { after: 0, limit: 10 })).toEqual([]);
    });

    it('pages newest first with filters, and purges the oldest entries first in bounded batches', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      for (let day = 1; day <= 5; day++) {
        await store.audit.append(s.a.id, (last) => chainEntry(last, draft(s.a.id, day % 2 ? s.aDefault.id : s.aSecond.id, day % 2 ? 'document.updated' : 'api_key.revoked', `2030-01-0${day}T00:00:00.000Z`)));
      }
      const newest = await store.audit.page(s.a.id, {}, { limit: 2 });
      expect(newest.map((e) => e.seq)).toEqual([5, 4]);
      expect((await store.audit.page(s.a.id, {}, { before: 4, limit: 10 })).map((e) => e.seq)).toEqual([3, 2, 1]);
      expect((await store.audit.page(s.a.id, { type: 'api_key.revoked' }, { limit: 10 })).map((e) => e.seq)).toEqual([4, 2]);
      expect((await store.audit.page(s.a.id, { workspaceId: s.aDefault.id, since: '2030-01-02T00:00:00.000Z' }, { limit: 10 })).map((e) => e.seq)).toEqual([5, 3]);
      expect((await store.audit.page(s.a.id, { until: '2030-01-03T00:00:00.000Z' }, { limit: 10 })).map((e) => e.seq)).toEqual([2, 1]);
      expect(await store.audit.page(s.b.id, {}, { limit: 10 })).toEqual([]);

      expect(await store.audit.tenantsWithEntriesBefore('2030-01-04T00:00:00.000Z', 10)).toEqual([s.a.id]);
      expect(await store.audit.purgeBefore(s.a.id, '2030-01-04T00:00:00.000Z', 2)).toBe(2);
      expect(await store.audit.purgeBefore(s.a.id, '2030-01-04T00:00:00.000Z', 2)).toBe(1);
      const kept = await store.audit.range(s.a.id, { after: 0, limit: 10 });
      expect(kept.map((e) => e.seq)).toEqual([4, 5]);
      // The kept tail still verifies: retention removes a prefix, never a middle entry.
      expect(await verifyAuditChain(once(kept))).toMatchObject({ ok: true, firstSeq: 4 });
    });
  });
}
