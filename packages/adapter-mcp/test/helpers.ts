import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createPanyaApp, type PanyaAppOptions } from '@panya/adapter-express';
import { createEngine, type ApiKeyScope, type Clock, type Engine, type PlanName, type RequestContext } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';

export function makeEngine(clock?: Clock): Engine {
  return createEngine({ store: openSqliteStore({ path: ':memory:' }), ...(clock ? { clock } : {}) });
}

/** A clock the test moves by hand. */
export function fakeClock(start: string) {
  let now = new Date(start);
  return {
    now: () => new Date(now),
    set: (iso: string) => {
      now = new Date(iso);
    },
  };
}

export async function makeTenant(engine: Engine, slug: string, options: { scopes?: ApiKeyScope[]; plan?: PlanName; quotas?: Record<string, unknown> } = {}) {
  const created = (await engine.tenancy.createTenant({ slug, plan: options.plan ?? 'business', quotas: options.quotas ?? {} }))._unsafeUnwrap();
  const key = await makeKey(engine, created.tenant.id, options.scopes ?? ['read', 'write', 'mcp', 'admin']);
  const ctx = (await engine.access.system(slug))._unsafeUnwrap();
  return { ...created, ...key, ctx };
}

export async function makeKey(engine: Engine, tenantId: string, scopes: ApiKeyScope[], workspaceSlug?: string) {
  const created = (await engine.apiKeys.create(tenantId, { scopes, ...(workspaceSlug ? { workspaceSlug } : {}) }))._unsafeUnwrap();
  return { key: created.key, keyId: created.record.id };
}

export async function seed(engine: Engine, ctx: RequestContext, docs: { title: string; contentMd: string; url?: string }[]) {
  const out = [];
  for (const doc of docs) out.push((await engine.documents.create(ctx, doc, { wait: true }))._unsafeUnwrap());
  return out;
}

/** The real app (REST and MCP) on an ephemeral 127.0.0.1 port. */
export async function startApp(engine: Engine, options: PanyaAppOptions = {}) {
  const app = createPanyaApp(engine, options);
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An MCP client over Streamable HTTP, as an AI host would connect with an API key. */
export async function connect(url: string, key?: string): Promise<Client> {
  const client = new Client({ name: 'panya-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), key ? { requestInit: { headers: { Authorization: `Bearer ${key}` } } } : {});
  await client.connect(transport);
  return client;
}

export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

export const textOf = (result: CallToolResult) =>
  result.content
    .filter((c): c is Extract<typeof c, { type: 'text' }> => c.type === 'text')
    .map((c) => c.text)
    .join('\n');

export async function rest(url: string, key: string, path: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

export const ARTICLES = [
  { title: 'Refund policy', contentMd: '# Refund policy\n\nRefunds are paid back within 7 days to the original card.\n\n## Exceptions\n\nGift cards cannot be refunded.' },
  { title: 'Shipping times', contentMd: '# Shipping\n\nBangkok: 1-2 days. Chiang Mai: 2-3 days. Shipping is free above 1,000 THB.' },
  { title: 'Warranty', contentMd: '# Warranty\n\nEvery device has a 12-month warranty covering manufacturing defects.' },
];
