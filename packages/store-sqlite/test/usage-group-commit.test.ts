import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiQueryEvent } from '@panya/core';
import { seedTwoTenants } from '@panya/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../src/index.js';

/** The api_query_events of concurrent requests committed together: every event once, each caller told its own outcome. */
describe('query events: one commit per turn of the event loop', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'panya-usage-'));
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

  it('commits the events of one turn in one transaction and counts each once', async () => {
    const store = openSqliteStore({ path });
    try {
      const s = await seedTwoTenants(store);
      // Each commit appends the pages it changed to the WAL (a row here touches a table page and two
      // index pages): 50 commits would append 150 frames, one commit a handful.
      const frame = 24 + (store.db.pragma('page_size', { simple: true }) as number);
      const walBytes = () => statSync(`${path}-wal`).size;
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
