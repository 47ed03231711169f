import type { Engine } from '@panya/core';
import { makeWorkspace, engineInternals } from '@panya/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connect, makeEngine, makeKey, makeTenant, seed, startApp, textOf } from './helpers.js';

describe('MCP workspace routing', () => {
  let engine: Engine;
  let app: Awaited<ReturnType<typeof startApp>>;
  let acme: Awaited<ReturnType<typeof makeTenant>>;
  let defaultDocs: string[];
  let brandDocs: string[];

  beforeAll(async () => {
    engine = makeEngine();
    acme = await makeTenant(engine, 'acme');
    const brand = makeWorkspace(acme.tenant.id, 'brand2');
    await engineInternals(engine).store.workspaces.insert(brand);
    const brandCtx = (await engine.access.system('acme', 'brand2'))._unsafeUnwrap();
    defaultDocs = (await seed(engine, acme.ctx, [{ title: 'Refund policy', contentMd: 'Refunds within 7 days.' }])).map((d) => d.id);
    brandDocs = (
      await seed(engine, brandCtx, [
        { title: 'Brand2 refund policy', contentMd: 'Brand2 refunds within 30 days.' },
        { title: 'Brand2 loyalty points', contentMd: 'Points never expire.' },
      ])
    ).map((d) => d.id);
    app = await startApp(engine);
  });

  afterAll(async () => {
    await app.close();
    await engine.close();
  });

  const listIds = async (path: string, key = acme.key) => {
    const client = await connect(`${app.url}${path}`, key);
    const result = await callTool(client, 'svc_list_docs', {});
    await client.close();
    return (result.structuredContent as { data: { id: string }[] }).data.map((d) => d.id).sort();
  };

  it('serves the default workspace at /api/mcp and /c/{tenant}/api/mcp', async () => {
    expect(await listIds('/api/mcp')).toEqual(defaultDocs);
    expect(await listIds('/c/acme/api/mcp')).toEqual(defaultDocs);
    expect(await listIds('/c/acme/_w/default/api/mcp')).toEqual(defaultDocs);
  });

  it('/c/{tenant}/_w/{workspace}/api/mcp sees only that workspace', async () => {
    expect(await listIds('/c/acme/_w/brand2/api/mcp')).toEqual([...brandDocs].sort());
    const client = await connect(`${app.url}/c/acme/_w/brand2/api/mcp`, acme.key);
    const found = await callTool(client, 'svc_search', { query: 'refund policy', topK: 10 });
    const ids = new Set((found.structuredContent as { results: { documentId: string }[] }).results.map((r) => r.documentId));
    expect(ids.has(brandDocs[0]!)).toBe(true);
    expect(ids.has(defaultDocs[0]!)).toBe(false);
    const other = await callTool(client, 'svc_get_doc', { id: defaultDocs[0]! });
    expect(other.isError).toBe(true);
    expect(textOf(other)).toContain('not found');
    await client.close();

    const events = await engineInternals(engine).store.usage.listQueries(acme.tenant.id);
    const brandWorkspace = (await engineInternals(engine).store.workspaces.getBySlug(acme.tenant.id, 'brand2'))!;
    expect(events.filter((e) => e.workspaceId === brandWorkspace.id).map((e) => e.tool).sort()).toEqual(['svc_get_doc', 'svc_list_docs', 'svc_search']);
  });

  it('answers 404 for an unknown workspace and the same 404 for a sibling a key is not bound to', async () => {
    const res = await fetch(`${app.url}/c/acme/_w/nope/api/mcp`, { method: 'POST', headers: { Authorization: `Bearer ${acme.key}`, 'Content-Type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(404);
    const bound = await makeKey(engine, acme.tenant.id, ['mcp'], 'default');
    const refused = await fetch(`${app.url}/c/acme/_w/brand2/api/mcp`, { method: 'POST', headers: { Authorization: `Bearer ${bound.key}`, 'Content-Type': 'application/json' }, body: '{}' });
    expect(refused.status).toBe(404);
    // A bound key on plain /api/mcp gets its own workspace.
    const brandKey = await makeKey(engine, acme.tenant.id, ['mcp'], 'brand2');
    expect(await listIds('/api/mcp', brandKey.key)).toEqual([...brandDocs].sort());
  });
});
