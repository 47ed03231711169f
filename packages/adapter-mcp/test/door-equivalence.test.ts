/**
 * One search behaviour whatever the door: the same request through REST, an MCP tool, library
 * code (`engine.api`), Dify's retrieval and the help center's ask box is counted once (one usage
 * event, one rate-limit unit), filtered the same way (a public key reads published documents only)
 * and answers the same results.
 */
import { request as httpRequest } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, parseHelpHost, type Engine } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { callTool, connect, makeTenant, startApp } from './helpers.js';

const HELP = 'help.panya.example';
const HELP_ORIGIN = `https://${HELP}`;
const QUERY = { query: 'refund policy card', topK: 5 };

let engine: Engine;
let app: Awaited<ReturnType<typeof startApp>>;
let acme: Awaited<ReturnType<typeof makeTenant>>;
let internalId: string;

/** A request with any headers (the Host of a help center included), its status and JSON body. */
function send(path: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; headers: Record<string, unknown>; body: any }> {
  const url = new URL(path, app.url);
  const text = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: text === undefined ? 'GET' : 'POST', headers: { ...headers, ...(text === undefined ? {} : { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)) }) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks).toString();
        let parsed: unknown = raw;
        try {
          parsed = JSON.parse(raw);
        } catch {
          // an HTML page
        }
        resolve({ status: res.statusCode!, headers: res.headers, body: parsed });
      });
    });
    req.on('error', reject);
    req.end(text);
  });
}

/** Every query event of the month, by kind. */
const counted = async () => (await engine.usage.ledger(acme.tenant.id)).apiQueries;

/** Runs a door and says how many query events it wrote, of which kind. */
async function countOf<T>(door: () => Promise<T>): Promise<{ value: T; events: Record<string, number> }> {
  const before = await counted();
  const value = await door();
  const after = await counted();
  const events: Record<string, number> = {};
  for (const kind of ['search', 'answer', 'mcp_tool'] as const) if (after[kind] !== before[kind]) events[kind] = after[kind] - before[kind];
  return { value, events };
}

const ids = (results: { chunkId: string }[]) => results.map((r) => r.chunkId);

beforeEach(async () => {
  engine = createEngine({ store: openSqliteStore({ path: ':memory:' }), helpHost: parseHelpHost(HELP) });
  app = await startApp(engine, { helpCenter: { apiHostname: 'api.panya.example' } });
  acme = await makeTenant(engine, 'acme');
  const create = (doc: Record<string, unknown>) => engine.documents.create(acme.ctx, doc as never, { wait: true });
  (await create({ title: 'Refund policy', contentMd: '# Refund policy\n\nRefunds are paid back within 7 days to the original card.', publicSurfaces: ['help_center'] }))._unsafeUnwrap();
  internalId = (await create({ title: 'Refund policy for managers', contentMd: '# Refund policy (internal)\n\nManagers may refund to another card after a call.' }))._unsafeUnwrap().id;
});
afterEach(async () => {
  await app.close();
  await engine.close();
});

describe('the same search through every door', () => {
  it('is counted once and answers the same results: REST, MCP, engine.api, Dify', async () => {
    const auth = { Authorization: `Bearer ${acme.key}` };
    const rest = await countOf(() => send('/api/search', auth, QUERY));
    expect(rest.value.status).toBe(200);
    const expected = ids(rest.value.body.results);
    expect(expected.length).toBeGreaterThan(1);
    expect(rest.events).toEqual({ search: 1 });

    const client = await connect(`${app.url}/api/mcp`, acme.key);
    const tool = await countOf(() => callTool(client, 'svc_search', QUERY));
    await client.close();
    expect(ids((tool.value.structuredContent as { results: { chunkId: string }[] }).results)).toEqual(expected);
    expect(tool.events).toEqual({ mcp_tool: 1 });

    // Library code, with the key's credentials or an already resolved context.
    const library = await countOf(() => engine.api.search({ authorization: `Bearer ${acme.key}` }, QUERY));
    expect(ids(library.value._unsafeUnwrap().results)).toEqual(expected);
    expect(library.events).toEqual({ search: 1 });
    const operator = await countOf(() => engine.api('search', acme.ctx, {}, { body: QUERY }));
    const reply = operator.value._unsafeUnwrap();
    expect(reply.kind === 'result' && ids((reply.value as { results: { chunkId: string }[] }).results)).toEqual(expected);
    expect(operator.events).toEqual({ search: 1 });

    // Dify: the same hits in the same order (its records carry the chunk id).
    const dify = await countOf(() => send('/api/dify/retrieval', auth, { knowledge_id: 'default', query: QUERY.query, retrieval_setting: { top_k: QUERY.topK, score_threshold: 0 } }));
    expect(dify.value.status).toBe(200);
    expect(dify.value.body.records.map((r: { metadata: { chunk_id: string } }) => r.metadata.chunk_id)).toEqual(expected);
    expect(dify.events).toEqual({ search: 1 });

    // Bad input through any door counts nothing.
    const bad = await countOf(async () => ({ rest: await send('/api/search', auth, { query: '' }), library: await engine.api.search(acme.ctx, { query: '' }) }));
    expect(bad.value.rest.status).toBe(400);
    expect(bad.value.library._unsafeUnwrapErr().code).toBe('invalid_request');
    expect(bad.events).toEqual({});
  });

  it("filters the same way for a help center's public key: REST, engine.api and the ask box read published documents only", async () => {
    const home = await send('/acme/', { Host: HELP });
    expect(home.status).toBe(200);
    const siteKey = /data-key="(svc_pub_[0-9A-Za-z]{32})"/.exec(home.body as string)![1]!;
    const browser = { Authorization: `Bearer ${siteKey}`, Origin: HELP_ORIGIN, 'X-Panya-Visitor': 'v1' };

    const rest = await countOf(() => send('/api/search', browser, QUERY));
    expect(rest.value.status).toBe(200);
    const published = rest.value.body.results as { chunkId: string; documentId: string }[];
    expect(published.length).toBeGreaterThan(0);
    expect(published.map((r) => r.documentId)).not.toContain(internalId);
    expect(rest.events).toEqual({ search: 1 });

    const library = await countOf(() => engine.api.search({ authorization: `Bearer ${siteKey}`, origin: HELP_ORIGIN }, QUERY, { visitor: 'v1' }));
    expect(ids(library.value._unsafeUnwrap().results)).toEqual(ids(published));
    expect(library.events).toEqual({ search: 1 });

    // The server key sees the internal document too: the filter is the caller's, not the query's.
    const server = await send('/api/search', { Authorization: `Bearer ${acme.key}` }, QUERY);
    expect(server.body.results.map((r: { documentId: string }) => r.documentId)).toContain(internalId);

    // The answer: the API's and the ask box's (the page's script) are the same, each counted once.
    const question = { query: 'How are refunds paid back?', locale: 'en' };
    const api = await countOf(() => send('/api/answer', browser, question));
    const ask = await countOf(() => send('/acme/ask', { ...browser, Host: HELP }, question));
    expect(api.value.status).toBe(200);
    expect(ask.value.status).toBe(200);
    expect(ask.value.body).toEqual(api.value.body);
    expect(api.value.body.citations.map((c: { documentId: string }) => c.documentId)).not.toContain(internalId);
    expect(api.events).toEqual({ answer: 1 });
    expect(ask.events).toEqual({ answer: 1 });
  });
});
