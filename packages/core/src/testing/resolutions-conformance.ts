/** Resolution records, disqualification and meter credits: behaviour every store shares. */
import { describe, expect, it } from 'vitest';
import type { NewConversation } from '../answers/ports/conversations.js';
import type { Scope, Store } from '../ports/store.js';
import { countResolutions, detectResolutions, disqualifyResolution } from '../billing/resolutions.js';
import { createIds } from '../system.js';
import { seedTwoTenants } from './fixtures.js';

const ids = createIds();

function conversation(scope: Scope, at: string, overrides: Partial<NewConversation> = {}): NewConversation {
  return { id: ids.next('conv'), tenantId: scope.tenantId, workspaceId: scope.workspaceId, locale: 'en', hasGroundedAnswer: true, hasThumbsDown: false, handedOff: false, createdAt: at, lastMessageAt: at, ...overrides };
}

export function resolutionsSuite(getStore: () => Store): void {
  describe('resolutions', () => {
    it('the detector counts each qualifying conversation idle 30 minutes once, in the month of its last activity', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const add = async (scope: Scope, at: string, overrides: Partial<NewConversation> = {}) => {
        const c = conversation(scope, at, overrides);
        await store.conversations.insert(c);
        return c;
      };
      const jan = await add(s.scopeA, '2030-01-31T23:40:00.000Z');
      await add(s.scopeA2, '2030-01-10T10:00:00.000Z');
      await add(s.scopeA, '2030-01-11T10:00:00.000Z', { hasGroundedAnswer: false });
      await add(s.scopeA, '2030-01-12T10:00:00.000Z', { hasThumbsDown: true });
      await add(s.scopeA, '2030-01-13T10:00:00.000Z', { handedOff: true });
      const active = await add(s.scopeA, '2030-02-01T00:00:00.000Z');
      await add(s.scopeB, '2030-01-10T10:00:00.000Z');
      const now = new Date('2030-02-01T00:20:00.000Z');

      // Still active conversations are not recorded, but count toward what is about to bill.
      expect(await countResolutions(store, s.a.id, '2030-01', { includeActive: true })).toBe(2);
      expect(await detectResolutions(store, ids, now, { tenantId: s.a.id })).toEqual({ scanned: 2, written: 2, done: true });
      expect(await store.resolutions.count(s.a.id, '2030-01')).toBe(2);
      expect(await store.resolutions.count(s.b.id, '2030-01')).toBe(0);
      // Counted by when they qualified (part of a period): all of them at `now`.
      expect(await store.resolutions.count(s.a.id, '2030-01', { from: now.toISOString() })).toBe(2);
      expect(await store.resolutions.count(s.a.id, '2030-01', { before: now.toISOString() })).toBe(0);
      // Paged by conversation id; one by id, within its tenant only.
      const [firstRes, ...rest] = await store.resolutions.list(s.a.id, '2030-01');
      expect(rest).toHaveLength(1);
      expect(await store.resolutions.list(s.a.id, '2030-01', { limit: 1 })).toEqual([firstRes]);
      expect(await store.resolutions.list(s.a.id, '2030-01', { after: firstRes!.conversationId, limit: 5 })).toEqual(rest);
      expect(await store.resolutions.get(s.a.id, firstRes!.id)).toEqual(firstRes);
      expect(await store.resolutions.get(s.b.id, firstRes!.id)).toBeNull();
      expect(await countResolutions(store, s.a.id, '2030-02', { includeActive: true })).toBe(1);
      expect(await countResolutions(store, s.a.id, '2030-02')).toBe(0);
      // Idempotent: a second run writes nothing; later runs pick up what went idle since.
      expect(await detectResolutions(store, ids, now)).toMatchObject({ written: 1 }); // tenant B
      expect(await detectResolutions(store, ids, now)).toMatchObject({ scanned: 0, written: 0 });
      expect(await detectResolutions(store, ids, new Date('2030-02-01T00:31:00.000Z'))).toMatchObject({ written: 1 });
      const rows = await store.resolutions.list(s.a.id);
      expect(rows.map((r) => [r.billingPeriod, r.reportedPeriod, r.refundedAt])).toEqual([
        ['2030-01', null, null],
        ['2030-01', null, null],
        ['2030-02', null, null],
      ]);
      expect(rows.find((r) => r.conversationId === jan.id)).toMatchObject({ tenantId: s.a.id, workspaceId: s.aDefault.id });
      expect(rows.find((r) => r.conversationId === active.id)?.billingPeriod).toBe('2030-02');
    });

    it('only this month and the previous one are scanned', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      await store.conversations.insert(conversation(s.scopeA, '2029-11-30T10:00:00.000Z')); // two months back: its month was reported long ago
      await store.conversations.insert(conversation(s.scopeA, '2029-12-01T00:00:00.000Z'));
      expect(await detectResolutions(store, ids, new Date('2030-01-15T00:00:00.000Z'))).toMatchObject({ scanned: 1, written: 1 });
      expect((await store.resolutions.list(s.a.id)).map((r) => r.billingPeriod)).toEqual(['2029-12']);
    });

    it('a thumbs-down racing the detector: the conversation ends up uncounted either way', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const convs = Array.from({ length: 12 }, (_, i) => conversation(s.scopeA, `2030-01-10T10:00:${String(i).padStart(2, '0')}.000Z`));
      for (const c of convs) await store.conversations.insert(c);
      const now = new Date('2030-01-20T00:00:00.000Z');
      await Promise.all(
        convs.flatMap((c, i) => {
          const row = { id: ids.next('res'), tenantId: c.tenantId, workspaceId: c.workspaceId, conversationId: c.id, billingPeriod: '2030-01', createdAt: now.toISOString(), reportedPeriod: null, refundedAt: null, correctedPeriod: null };
          const record = () => store.resolutions.record(row);
          const disqualify = () => disqualifyResolution(store, s.scopeA, c.id, 'thumbs_down', now);
          return i % 2 ? [record(), disqualify()] : [disqualify(), record()];
        }),
      );
      expect(await store.resolutions.count(s.a.id, '2030-01')).toBe(0);
      expect(await store.resolutions.list(s.a.id)).toEqual([]);
    });

    it('a disqualified conversation is never counted; one not reported yet loses its resolution', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const a = conversation(s.scopeA, '2030-01-10T10:00:00.000Z');
      const b = conversation(s.scopeA, '2030-01-10T11:00:00.000Z');
      for (const c of [a, b]) await store.conversations.insert(c);
      const now = new Date('2030-01-20T00:00:00.000Z');
      expect(await disqualifyResolution(store, s.scopeA, a.id, 'thumbs_down', now)).toBe('not_counted');
      expect(await store.conversations.get(s.scopeA, a.id)).toMatchObject({ hasThumbsDown: true, handedOff: false });
      await detectResolutions(store, ids, now);
      expect(await store.resolutions.count(s.a.id, '2030-01')).toBe(1);
      expect(await disqualifyResolution(store, s.scopeA, b.id, 'ticket', now)).toBe('removed');
      expect(await store.conversations.get(s.scopeA, b.id)).toMatchObject({ handedOff: true });
      expect(await store.resolutions.count(s.a.id, '2030-01')).toBe(0);
      expect(await store.resolutions.list(s.a.id)).toEqual([]);
      // Another workspace or tenant cannot touch it.
      expect(await disqualifyResolution(store, s.scopeA2, b.id, 'thumbs_down', now)).toBeNull();
      expect(await disqualifyResolution(store, s.scopeB, b.id, 'thumbs_down', now)).toBeNull();
      // A detector run never counts it again.
      await detectResolutions(store, ids, now);
      expect(await store.resolutions.count(s.a.id, '2030-01')).toBe(0);
    });

    it('a resolution already reported is refunded once, credited in a later report', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const convs = [0, 1, 2].map((i) => conversation(s.scopeA, `2030-01-1${i}T10:00:00.000Z`));
      for (const c of convs) await store.conversations.insert(c);
      await detectResolutions(store, ids, new Date('2030-01-20T00:00:00.000Z'));
      expect(await store.resolutions.markReported(s.a.id, '2030-01')).toBe(3);
      const now = new Date('2030-02-03T00:00:00.000Z');
      expect(await disqualifyResolution(store, s.scopeA, convs[0]!.id, 'thumbs_down', now)).toBe('refunded');
      expect(await disqualifyResolution(store, s.scopeA, convs[0]!.id, 'thumbs_down', now)).toBe('refunded'); // idempotent
      expect(await disqualifyResolution(store, s.scopeA, convs[1]!.id, 'ticket', now)).toBe('refunded');
      expect(await store.resolutions.count(s.a.id, '2030-01')).toBe(1);
      expect(await store.resolutions.uncorrectedRefunds(s.a.id)).toEqual([{ period: '2030-01', count: 2 }]);
      expect(await store.resolutions.uncorrectedRefunds(s.b.id)).toEqual([]);
      await store.resolutions.markCorrected(s.a.id, '2030-01', '2030-02');
      expect(await store.resolutions.uncorrectedRefunds(s.a.id)).toEqual([]);
      const refunded = (await store.resolutions.list(s.a.id, '2030-01')).filter((r) => r.refundedAt);
      expect(refunded.map((r) => [r.reportedPeriod, r.correctedPeriod, r.refundedAt])).toEqual([
        ['2030-01', '2030-02', now.toISOString()],
        ['2030-01', '2030-02', now.toISOString()],
      ]);
    });

    it('keeps meter credits per tenant and meter', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      expect(await store.resolutions.credits(s.a.id)).toEqual({});
      await store.resolutions.addCredits(s.a.id, { svc_resolutions: 3, svc_api_queries: 5 });
      await store.resolutions.addCredits(s.a.id, { svc_resolutions: -1, svc_api_queries: -5 });
      expect(await store.resolutions.credits(s.a.id)).toEqual({ svc_resolutions: 2 });
      expect(await store.resolutions.credits(s.b.id)).toEqual({});
    });
  });
}
