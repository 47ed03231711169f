import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, STORE_BUSY_RETRY_AFTER_SECONDS, type Engine } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { ARTICLES, callTool, connect, fakeClock, makeEngine, makeKey, makeTenant, rest, seed, startApp, textOf } from './helpers.js';
import { engineInternals } from '@panya/core/testing';

describe('MCP rate limits', () => {
  let engine: Engine;
  let app: Awaited<ReturnType<typeof startApp>>;

  afterEach(async () => {
    await app.close();
    await engine.close();
  });

  it('refuses the 61st tool call in an hour with a tool error that says when to retry', async () => {
    const clock = fakeClock('2025-03-10T10:15:00.000Z');
    engine = makeEngine(clock);
    const acme = await makeTenant(engine, 'acme', { plan: 'business' });
    const docs = await seed(engine, acme.ctx, ARTICLES);
    app = await startApp(engine);
    const client = await connect(`${app.url}/api/mcp`, acme.key);

    const calls: [string, Record<string, unknown>][] = [
      ['svc_search', { query: 'refund' }],
      ['svc_answer', { query: 'How long do refunds take?' }],
      ['svc_list_docs', {}],
      ['svc_get_doc', { id: docs[0]!.id }],
    ];
    for (let i = 0; i < 60; i++) {
      const [name, args] = calls[i % calls.length]!;
      const result = await callTool(client, name, args);
      expect(result.isError, `call ${i + 1} (${name})`).toBeFalsy();
      if (i === 59) expect(result._meta?.['panya/rateLimit']).toMatchObject({ limit: 60, remaining: 0 });
    }

    const refused = await callTool(client, 'svc_list_docs', {});
    expect(refused.isError).toBe(true);
    // 10:15 → the key's hour window resets at 11:00.
    expect(textOf(refused)).toContain('Retry after 2700 seconds');
    expect(refused._meta?.['panya/error']).toEqual({ code: 'rate_limited', retryAfterSeconds: 2700, resetAt: '2025-03-10T11:00:00.000Z', limit: 60, quota: 'mcpToolsPerHour' });
    // Every tool is refused alike, and a refused call records nothing.
    expect((await callTool(client, 'svc_search', { query: 'refund' })).isError).toBe(true);
    const events = await engineInternals(engine).store.usage.listQueries(acme.tenant.id);
    expect(events).toHaveLength(60);
    expect(new Set(events.map((e) => e.tool))).toEqual(new Set(['svc_search', 'svc_answer', 'svc_list_docs', 'svc_get_doc']));

    // The bucket is the key's MCP one: REST queries with the same key and another key's MCP calls go on.
    expect((await rest(app.url, acme.key, '/api/search', { query: 'refund' })).status).toBe(200);
    const other = await makeKey(engine, acme.tenant.id, ['mcp']);
    const otherClient = await connect(`${app.url}/api/mcp`, other.key);
    expect((await callTool(otherClient, 'svc_list_docs', {})).isError).toBeFalsy();

    clock.set('2025-03-10T11:00:01.000Z');
    expect((await callTool(client, 'svc_list_docs', {})).isError).toBeFalsy();
    await client.close();
    await otherClient.close();
  });

  it('a call whose counters the database is too busy to write is a tool error that says when to retry', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'panya-mcp-busy-'));
    const path = join(dir, 'panya.db');
    engine = createEngine({ store: openSqliteStore({ path, busyTimeoutMs: 100 }) });
    const other = openSqliteStore({ path }); // another connection to the same files
    try {
      const acme = await makeTenant(engine, 'acme', { plan: 'business' });
      await seed(engine, acme.ctx, ARTICLES);
      app = await startApp(engine);
      const client = await connect(`${app.url}/api/mcp`, acme.key);
      other.countersDb.exec('BEGIN IMMEDIATE'); // holds the request counters' write lock past the store's wait
      const refused = await callTool(client, 'svc_search', { query: 'refund' });
      other.countersDb.exec('COMMIT');
      expect(refused.isError).toBe(true);
      expect(refused._meta?.['panya/error']).toEqual({ code: 'unavailable', retryAfterSeconds: STORE_BUSY_RETRY_AFTER_SECONDS });
      expect(textOf(refused)).toContain(`Try again in ${STORE_BUSY_RETRY_AFTER_SECONDS} s`);
      expect((await callTool(client, 'svc_search', { query: 'refund' })).isError).toBeFalsy();
    } finally {
      await other.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("counts tool calls toward the tenant's queries per day", async () => {
    const clock = fakeClock('2025-03-10T22:00:00.000Z');
    engine = makeEngine(clock);
    const acme = await makeTenant(engine, 'acme', { plan: 'business', quotas: { queriesPerDay: 3 } });
    await seed(engine, acme.ctx, ARTICLES);
    app = await startApp(engine);
    const client = await connect(`${app.url}/api/mcp`, acme.key);

    expect((await callTool(client, 'svc_search', { query: 'warranty' })).isError).toBeFalsy();
    expect((await callTool(client, 'svc_list_docs', {})).isError).toBeFalsy();
    expect((await rest(app.url, acme.key, '/api/search', { query: 'warranty' })).status).toBe(200);

    const refused = await callTool(client, 'svc_get_doc', { id: 'doc_0000000000000000000000' });
    expect(refused.isError).toBe(true);
    // Refused by the day bucket, which resets at midnight UTC: 2 hours away.
    expect(refused._meta?.['panya/error']).toMatchObject({ code: 'rate_limited', retryAfterSeconds: 7200 });
    expect((await rest(app.url, acme.key, '/api/search', { query: 'warranty' })).status).toBe(429);
    await client.close();
  });

  it('uses the Enterprise limit set in quotas_json', async () => {
    engine = makeEngine(fakeClock('2025-03-10T10:00:00.000Z'));
    const big = await makeTenant(engine, 'bigco', { plan: 'enterprise', quotas: { mcpToolsPerHour: 2 } });
    app = await startApp(engine);
    const client = await connect(`${app.url}/api/mcp`, big.key);
    expect((await callTool(client, 'svc_list_docs', {})).isError).toBeFalsy();
    expect((await callTool(client, 'svc_list_docs', {})).isError).toBeFalsy();
    const refused = await callTool(client, 'svc_list_docs', {});
    // Which limit, when it resets, and how an operator changes it.
    expect(textOf(refused)).toContain('Rate limit reached: 2 MCP tool calls per hour for this API key (mcpToolsPerHour). It resets at 2025-03-10T11:00:00Z, in 3600 s.');
    expect(textOf(refused)).toContain('panya tenant update --slug bigco --quota mcpToolsPerHour=<number|unlimited>');
    expect(refused._meta?.['panya/error']).toMatchObject({ code: 'rate_limited', quota: 'mcpToolsPerHour', limit: 2, resetAt: '2025-03-10T11:00:00.000Z' });
    await client.close();
  });
});
