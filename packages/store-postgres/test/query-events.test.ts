import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { seedTwoTenants } from '@panya/core/testing';
import { openPostgresStore, type PostgresStore } from '../src/index.js';
import { withPostgres } from './fixtures/with-postgres.js';

/** Concurrent requests' api_query_events are written together: every event once, each caller told its own outcome. */
withPostgres('PostgreSQL query events', (url) => {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const schema = `panya_events_${randomBytes(6).toString('hex')}`;
  /** The INSERT statements into api_query_events this pool has run. */
  const inserts: number[] = [];
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  (pool as unknown as { query: typeof query }).query = (...args: unknown[]) => {
    const text = typeof args[0] === 'string' ? args[0] : '';
    if (/^INSERT INTO \S*api_query_events/.test(text)) inserts.push(((args[1] as unknown[] | undefined)?.length ?? 0) / 8);
    return query(...args);
  };
  let store: PostgresStore;
  let tenantId = '';
  let workspaceId = '';
  const event = (id: string) => ({ id, tenantId, workspaceId, keyId: null, kind: 'search' as const, tool: null, billingPeriod: '2030-01', createdAt: '2030-01-02T00:00:00.000Z' });
  const count = async () => (await store.usage.countQueries(tenantId, '2030-01')).search;

  beforeAll(async () => {
    store = await openPostgresStore({ pool, schema });
    const s = await seedTwoTenants(store);
    tenantId = s.a.id;
    workspaceId = s.aDefault.id;
  });
  afterAll(async () => {
    await store.close();
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  });

  describe('PostgreSQL query events', () => {
    it('writes the events of concurrent requests in one statement, and those arriving meanwhile in the next', async () => {
      inserts.length = 0;
      await Promise.all(Array.from({ length: 50 }, (_, i) => store.usage.recordQuery(event(`evt_a${i}`))));
      expect(inserts).toEqual([50]);
      expect(await count()).toBe(50);

      // One event is being written; twenty more arrive before it returns and wait for the next write.
      inserts.length = 0;
      const first = store.usage.recordQuery(event('evt_b0'));
      await new Promise((ok) => setImmediate(ok));
      const rest = Array.from({ length: 20 }, (_, i) => store.usage.recordQuery(event(`evt_b${i + 1}`)));
      await Promise.all([first, ...rest]);
      expect(inserts).toEqual([1, 20]);
      expect(await count()).toBe(71);
    });

    it('an event that cannot be written fails its own request only', async () => {
      await store.usage.recordQuery(event('evt_taken'));
      const before = await count();
      const outcomes = await Promise.allSettled([store.usage.recordQuery(event('evt_one')), store.usage.recordQuery(event('evt_taken')), store.usage.recordQuery(event('evt_two'))]);
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(await count()).toBe(before + 2);
    });
  });
});
