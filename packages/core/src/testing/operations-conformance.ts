/** Rate-limit counters, usage events, users and job leases: behaviour every store shares. */
import { describe, expect, it } from 'vitest';
import { isStoreConflict } from '../errors.js';
import type { RateBucket } from '../tenancy/ports/rate-limits.js';
import type { Store } from '../ports/store.js';
import { createIds } from '../system.js';
import { makeDocument, seedTwoTenants } from './fixtures.js';

const ids = createIds();
const bucket = (key: string, limit: number, window = 'w1'): RateBucket => ({ key, window, limit, resetAt: '2030-01-01T01:00:00.000Z' });

export function operationsSuite(getStore: () => Store): void {
  describe('health', () => {
    it('reports the applied migration, the newest one known and the queued documents, in and out of transactions', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      await store.documents.insert(makeDocument(s.a.id, s.aDefault.id, { status: 'pending' }));
      await store.documents.insert(makeDocument(s.b.id, s.bDefault.id, { status: 'indexed' }));
      const health = await store.health();
      expect(health.latestSchemaVersion).toBeGreaterThan(1);
      expect(health).toEqual({ schemaVersion: health.latestSchemaVersion, latestSchemaVersion: health.latestSchemaVersion, queuedDocuments: 1 });
      expect(await store.transaction((tx) => tx.health())).toEqual(health);
    });

    it('fails once the store is closed', async () => {
      const store = getStore();
      await store.close();
      await expect(store.health()).rejects.toThrow();
    });
  });

  describe('rate limits', () => {
    it('counts up to the limit and then refuses', async () => {
      const store = getStore();
      for (let i = 1; i <= 3; i++) expect(await store.rateLimits.consume([bucket('k', 3)], 1)).toEqual({ allowed: true, counts: [i] });
      expect(await store.rateLimits.consume([bucket('k', 3)], 1)).toEqual({ allowed: false, counts: [3] });
      expect((await store.rateLimits.consume([bucket('k', 3, 'w2')], 1)).allowed).toBe(true);
    });

    it('takes from every bucket or from none', async () => {
      const store = getStore();
      await store.rateLimits.consume([bucket('hour', 1)], 1);
      expect(await store.rateLimits.consume([bucket('day', 10), bucket('hour', 1)], 1)).toEqual({ allowed: false, counts: [0, 1] });
      expect(await store.rateLimits.consume([bucket('day', 10)], 1)).toEqual({ allowed: true, counts: [1] });
    });

    it('never over-admits under concurrency', async () => {
      const store = getStore();
      const results = await Promise.all(Array.from({ length: 40 }, () => store.rateLimits.consume([bucket('busy', 25)], 1)));
      expect(results.filter((r) => r.allowed)).toHaveLength(25);
    });

    it('purges expired windows', async () => {
      const store = getStore();
      await store.rateLimits.consume([{ key: 'old', window: 'w', limit: 5, resetAt: '2020-01-01T00:00:00.000Z' }], 1);
      await store.rateLimits.consume([bucket('new', 5)], 1);
      expect(await store.rateLimits.purgeExpired('2025-01-01T00:00:00.000Z')).toBe(1);
      expect((await store.rateLimits.consume([bucket('new', 5)], 1)).counts).toEqual([2]);
    });
  });

  describe('usage events', () => {
    it('records api_query_events and counts them per tenant and billing period', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const event = (tenantId: string, workspaceId: string, kind: 'search' | 'answer' | 'mcp_tool', period = '2030-01') => ({
        id: ids.next('evt'), tenantId, workspaceId, keyId: 'key_1', kind, tool: kind === 'mcp_tool' ? 'svc_search' : null, billingPeriod: period, createdAt: `${period}-02T00:00:00.000Z`,
      });
      await store.usage.recordQuery(event(s.a.id, s.aDefault.id, 'search'));
      await store.usage.recordQuery(event(s.a.id, s.aSecond.id, 'search'));
      await store.usage.recordQuery(event(s.a.id, s.aDefault.id, 'mcp_tool'));
      await store.usage.recordQuery(event(s.a.id, s.aDefault.id, 'answer', '2030-02'));
      await store.usage.recordQuery(event(s.b.id, s.bDefault.id, 'search'));
      expect(await store.usage.countQueries(s.a.id, '2030-01')).toEqual({ search: 2, answer: 0, mcp_tool: 1 });
      expect(await store.usage.countQueries(s.b.id, '2030-01')).toEqual({ search: 1, answer: 0, mcp_tool: 0 });
      const listed = await store.usage.listQueries(s.a.id, { billingPeriod: '2030-01' });
      expect(listed).toHaveLength(3);
      expect(listed.find((e) => e.kind === 'mcp_tool')?.tool).toBe('svc_search');
      // Part of a period (from inclusive, before exclusive): a plan change splits the month.
      await store.usage.recordQuery({ ...event(s.a.id, s.aDefault.id, 'search'), createdAt: '2030-01-20T00:00:00.000Z' });
      expect(await store.usage.countQueries(s.a.id, '2030-01', { from: '2030-01-20T00:00:00.000Z' })).toEqual({ search: 1, answer: 0, mcp_tool: 0 });
      expect(await store.usage.countQueries(s.a.id, '2030-01', { before: '2030-01-20T00:00:00.000Z' })).toEqual({ search: 2, answer: 0, mcp_tool: 1 });
      expect(await store.usage.countQueries(s.a.id, '2030-01', { from: '2030-01-01T00:00:00.000Z', before: '2030-01-02T00:00:00.000Z' })).toEqual({ search: 0, answer: 0, mcp_tool: 0 });
    });

    it('sums other meters per period', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      for (const q of [1, 2]) {
        await store.usage.recordUsage({ id: ids.next('evt'), tenantId: s.a.id, workspaceId: null, meter: 'contextualization', quantity: q, billingPeriod: '2030-01', createdAt: '2030-01-02T00:00:00.000Z', data: {} });
      }
      expect(await store.usage.sumUsage(s.a.id, '2030-01')).toEqual({ contextualization: 3 });
      expect(await store.usage.sumUsage(s.b.id, '2030-01')).toEqual({});
    });
  });

  describe('users, memberships and sessions', () => {
    it('stores users with unique e-mails, memberships per tenant and revocable sessions', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const user = { id: ids.next('usr'), email: 'a@example.com', passwordHash: 'scrypt$x', createdAt: '2030-01-01T00:00:00.000Z' };
      await store.users.insert(user);
      expect(isStoreConflict(await store.users.insert({ ...user, id: ids.next('usr') }).catch((e: unknown) => e))).toBe(true);
      expect(await store.users.getByEmail('a@example.com')).toEqual(user);
      const wide = { id: ids.next('mem'), userId: user.id, tenantId: s.a.id, workspaceId: null, role: 'owner' as const, createdAt: user.createdAt };
      const scoped = { id: ids.next('mem'), userId: user.id, tenantId: s.a.id, workspaceId: s.aSecond.id, role: 'viewer' as const, createdAt: user.createdAt };
      await store.users.addMembership(wide);
      await store.users.addMembership(scoped);
      expect(isStoreConflict(await store.users.addMembership({ ...wide, id: ids.next('mem') }).catch((e: unknown) => e))).toBe(true);
      expect(await store.users.memberships(user.id, s.a.id)).toEqual([wide, scoped]);
      expect(await store.users.memberships(user.id, s.b.id)).toEqual([]);
      const session = { id: 'h'.repeat(64), userId: user.id, createdAt: user.createdAt, expiresAt: '2030-01-15T00:00:00.000Z', revokedAt: null };
      await store.users.insertSession(session);
      expect(await store.users.getSession(session.id)).toEqual(session);
      await store.users.revokeSession(session.id, '2030-01-02T00:00:00.000Z');
      expect((await store.users.getSession(session.id))?.revokedAt).toBe('2030-01-02T00:00:00.000Z');
    });
  });

  describe('job leases and state', () => {
    it('lets one holder run a job at a time until the lease expires or is released', async () => {
      const store = getStore();
      const t0 = '2030-01-01T00:00:00.000Z';
      const t1 = '2030-01-01T00:10:00.000Z';
      expect(await store.jobs.acquireLease('retention', 'node-a', t0, t1)).toBe(true);
      expect(await store.jobs.acquireLease('retention', 'node-b', t0, t1)).toBe(false);
      expect(await store.jobs.acquireLease('usage-reporter', 'node-b', t0, t1)).toBe(true);
      expect(await store.jobs.acquireLease('retention', 'node-b', '2030-01-01T00:10:00.001Z', '2030-01-01T00:20:00.000Z')).toBe(true);
      await store.jobs.releaseLease('retention', 'node-a'); // not the holder any more: no effect
      expect(await store.jobs.acquireLease('retention', 'node-c', '2030-01-01T00:11:00.000Z', '2030-01-01T00:20:00.000Z')).toBe(false);
      await store.jobs.releaseLease('retention', 'node-b');
      expect(await store.jobs.acquireLease('retention', 'node-c', '2030-01-01T00:11:00.000Z', '2030-01-01T00:20:00.000Z')).toBe(true);
    });

    it("frees at once the leases of a restarted node's earlier incarnations, and only those", async () => {
      const store = getStore();
      const t0 = '2030-01-01T00:00:00.000Z';
      const t1 = '2030-01-01T00:10:00.000Z';
      expect(await store.jobs.acquireLease('workspace-cleanup', 'a/100-x/jobs', t0, t1)).toBe(true);
      expect(await store.jobs.acquireLease('usage-reporter:t1', 'a/100-x/jobs', t0, t1)).toBe(true);
      expect(await store.jobs.acquireLease('retention', 'a/200-y/jobs', t0, t1)).toBe(true);
      expect(await store.jobs.acquireLease('resolutions', 'ab/100-x/jobs', t0, t1)).toBe(true);
      expect(await store.jobs.acquireLease('sla-breach', 'a/w1/100-x/jobs', t0, t1)).toBe(true);
      // Node `a` starts again as incarnation 200-y: its own lease stays, node `ab`'s too.
      expect(await store.jobs.reclaimLeases('a/w1', 'a/w1/300-z/')).toBe(1);
      expect(await store.jobs.reclaimLeases('a', 'a/200-y/')).toBe(2);
      expect(await store.jobs.acquireLease('workspace-cleanup', 'b/1/jobs', t0, t1)).toBe(true);
      expect(await store.jobs.acquireLease('usage-reporter:t1', 'b/1/jobs', t0, t1)).toBe(true);
      expect(await store.jobs.acquireLease('retention', 'b/1/jobs', t0, t1)).toBe(false);
      expect(await store.jobs.acquireLease('resolutions', 'b/1/jobs', t0, t1)).toBe(false);
      expect(await store.jobs.reclaimLeases('a', 'a/200-y/')).toBe(0);
    });

    it('admits exactly one of many concurrent claimants', async () => {
      const store = getStore();
      const results = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((h) => store.jobs.acquireLease('job', h, '2030-01-01T00:00:00.000Z', '2030-01-01T00:10:00.000Z')));
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    it('stores resumable state per job', async () => {
      const store = getStore();
      expect(await store.jobs.getState('vectorize-reindex')).toBeNull();
      await store.jobs.setState('vectorize-reindex', { cursor: 42 }, '2030-01-01T00:00:00.000Z');
      await store.jobs.setState('vectorize-reindex', { cursor: 43 }, '2030-01-01T00:01:00.000Z');
      expect(await store.jobs.getState('vectorize-reindex')).toEqual({ cursor: 43 });
    });
  });
}
