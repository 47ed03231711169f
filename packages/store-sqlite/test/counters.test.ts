import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isStoreBusy, type ApiQueryEvent } from '@panya/core';
import { seedTwoTenants } from '@panya/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countersPath } from '../src/counters.js';
import { openDatabase } from '../src/database.js';
import { migrations } from '../src/migrations.js';
import { openSqliteStore } from '../src/index.js';

/** Request counters (rate limits, query events) in a file of their own, beside the main database. */
describe('request counters file', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'panya-counters-'));
    path = join(dir, 'panya.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const event = (tenantId: string, workspaceId: string, id: string): ApiQueryEvent => ({
    id,
    tenantId,
    workspaceId,
    keyId: null,
    kind: 'search',
    tool: null,
    billingPeriod: '2030-01',
    createdAt: '2030-01-02T03:04:05.000Z',
  });
  const bucket = { key: 'q:day:t1', window: '2030-01-02', limit: 3, resetAt: '2030-01-03T00:00:00.000Z' };

  it('counts queries and takes rate-limit units while another connection holds the main write lock', async () => {
    const store = openSqliteStore({ path, busyTimeoutMs: 200 });
    const other = openDatabase({ path });
    try {
      const s = await seedTwoTenants(store);
      other.exec('BEGIN IMMEDIATE');
      await store.usage.recordQuery(event(s.a.id, s.aDefault.id, 'evt_1'));
      expect(await store.rateLimits.consume([bucket], 1)).toEqual({ allowed: true, counts: [1] });
      expect(await store.usage.countQueries(s.a.id, '2030-01')).toEqual({ search: 1, answer: 0, mcp_tool: 0 });
      // A write to the main file waits for that lock (and gives up after the store's lock wait).
      await expect(store.tenants.update(s.a.id, { plan: 'team' })).rejects.toSatisfy(isStoreBusy);
      other.exec('ROLLBACK');
      expect(existsSync(countersPath(path))).toBe(true);
    } finally {
      other.close();
      await store.close();
    }
  });

  it('names the counters file after the database, keeping a URI query last', () => {
    expect(countersPath('/data/panya.db')).toBe('/data/panya.db.counters');
    expect(countersPath('file:/data/panya.db?cache=shared')).toBe('file:/data/panya.db.counters?cache=shared');
    expect(countersPath(':memory:')).toBe(':memory:');
  });

  it("moves an earlier database's counter rows into the counters file on open", async () => {
    const old = openDatabase({ path });
    for (const m of migrations.filter((m) => m.version <= 21)) old.exec(m.sql);
    old.pragma('user_version = 21');
    old.prepare("INSERT INTO tenants (id, slug, plan, created_at, updated_at) VALUES ('t1', 'acme', 'free', '2030-01-01T00:00:00.000Z', '2030-01-01T00:00:00.000Z')").run();
    const insert = old.prepare("INSERT INTO api_query_events (id, tenant_id, workspace_id, key_id, kind, tool, billing_period, created_at) VALUES (?, 't1', 'w1', NULL, ?, NULL, '2030-01', '2030-01-02T00:00:00.000Z')");
    insert.run('evt_1', 'search');
    insert.run('evt_2', 'answer');
    old.prepare("INSERT INTO rate_counters (key, win, count, reset_at) VALUES ('q:day:t1', '2030-01-02', 2, '2030-01-03T00:00:00.000Z')").run();
    old.close();

    const store = openSqliteStore({ path });
    try {
      expect(await store.usage.countQueries('t1', '2030-01')).toEqual({ search: 1, answer: 1, mcp_tool: 0 });
      // The window kept its count: one unit left of three.
      expect(await store.rateLimits.consume([bucket], 1)).toEqual({ allowed: true, counts: [3] });
      expect(await store.rateLimits.consume([bucket], 1)).toEqual({ allowed: false, counts: [3] });
      const mainTables = store.db.prepare("SELECT name FROM sqlite_schema WHERE name IN ('api_query_events', 'rate_counters')").all();
      expect(mainTables).toEqual([]);
      expect(store.db.pragma('user_version', { simple: true })).toBe(migrations.at(-1)!.version);
    } finally {
      await store.close();
    }
  });

  it("erases a tenant's query events and purges a deleted workspace's", async () => {
    const store = openSqliteStore({ path });
    try {
      const s = await seedTwoTenants(store);
      await store.usage.recordQuery(event(s.a.id, s.aDefault.id, 'evt_a'));
      await store.usage.recordQuery(event(s.b.id, s.bDefault.id, 'evt_b'));
      expect(await store.tenantScopedTables()).toContain('api_query_events');
      const deleted = await store.tenants.erase(s.a.id);
      expect((deleted as Record<string, number>).api_query_events).toBe(1);
      expect(await store.countTenantRows('api_query_events', s.a.id)).toBe(0);
      expect(await store.countTenantRows('api_query_events', s.b.id)).toBe(1);
    } finally {
      await store.close();
    }
  });

  /** The api_query_events of concurrent requests committed together: every event once, each caller told its own outcome. */
  describe('query events: one commit per turn of the event loop', () => {
    it('commits the events of one turn in one transaction and counts each once', async () => {
      const store = openSqliteStore({ path });
      try {
        const s = await seedTwoTenants(store);
        // Each commit appends the pages it changed to the WAL (a row here touches a table page and two
        // index pages): 50 commits would append 150 frames, one commit a handful.
        const frame = 24 + (store.countersDb.pragma('page_size', { simple: true }) as number);
        const walBytes = () => statSync(`${countersPath(path)}-wal`).size;
        const before = walBytes();
        await Promise.all(Array.from({ length: 50 }, (_, i) => store.usage.recordQuery(event(s.a.id, s.aDefault.id, `evt_a${i}`))));
        expect((walBytes() - before) / frame).toBeLessThan(10);
        expect(await store.usage.countQueries(s.a.id, '2030-01')).toEqual({ search: 50, answer: 0, mcp_tool: 0 });
        // Later turns commit again.
        await store.usage.recordQuery(event(s.a.id, s.aDefault.id, 'evt_late'));
        expect(await store.usage.countQueries(s.a.id, '2030-01')).toEqual({ search: 51, answer: 0, mcp_tool: 0 });
      } finally {
        await store.close();
      }
    });

    it('an event that cannot be written fails its own request only', async () => {
      const store = openSqliteStore({ path });
      try {
        const s = await seedTwoTenants(store);
        await store.usage.recordQuery(event(s.a.id, s.aDefault.id, 'evt_taken'));
        const outcomes = await Promise.allSettled([
          store.usage.recordQuery(event(s.a.id, s.aDefault.id, 'evt_one')),
          store.usage.recordQuery(event(s.a.id, s.aDefault.id, 'evt_taken')),
          store.usage.recordQuery(event(s.b.id, s.bDefault.id, 'evt_two')),
        ]);
        expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
        expect(await store.usage.countQueries(s.a.id, '2030-01')).toEqual({ search: 2, answer: 0, mcp_tool: 0 });
        expect(await store.usage.countQueries(s.b.id, '2030-01')).toEqual({ search: 1, answer: 0, mcp_tool: 0 });
      } finally {
        await store.close();
      }
    });
  });
});
