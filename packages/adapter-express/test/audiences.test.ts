/**
 * Audiences, door by principal: one document per audience (public, customers, two segments,
 * internal), each matching the same question, then every door that reads documents — the API's
 * publishable routes as the OpenAPI document lists them, the MCP tools that take a query, Dify
 * retrieval, and the help center's pages, search, articles and ask box — is called by every kind
 * of caller. No response may carry a chunk, citation, title, id or count of a document outside
 * the caller's audiences; the readable ones must be there (the door works).
 */
import { SignJWT } from 'jose';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, parseHelpHost, type Engine } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { createPanyaApp } from '@panya/adapter-express';
import { makeTenant } from './helpers.js';

const HELP = 'help.panya.example';
const ORIGIN = 'https://shop.acme.example';
const SECRET = 'acme-visitor-secret-0123456789-abcdef';
const QUESTION = 'zebracorn refunds';
/** One document per audience, each with its own word, all answering the question. */
const AUDIENCES = {
  public: 'Publicmarker',
  customers: 'Customermarker',
  'partner-th': 'Partnermarker',
  enterprise: 'Enterprisemarker',
  internal: 'Internalmarker',
} as const;
type Audience = keyof typeof AUDIENCES;

let engine: Engine;
let app: ReturnType<typeof createPanyaApp>;
let acme: Awaited<ReturnType<typeof makeTenant>>;
let pub: string;
let workspaceId: string;
const docIds = new Map<Audience, string>();

async function token(claims: Record<string, unknown>): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('visitor-42')
    .setAudience(workspaceId)
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(new TextEncoder().encode(SECRET));
}

beforeAll(async () => {
  engine = createEngine({ store: openSqliteStore({ path: ':memory:' }), helpHost: parseHelpHost(HELP) });
  app = createPanyaApp(engine);
  acme = await makeTenant(engine, 'acme');
  await request(app).patch('/api/tenant/settings').set(acme.auth).send({ allowedOrigins: [ORIGIN] }).expect(200);
  pub = (await engine.apiKeys.create(acme.tenant.id, { kind: 'publishable', scopes: ['read'], workspaceSlug: 'default' }))._unsafeUnwrap().key;
  workspaceId = (await request(app).get('/api/workspaces').set(acme.auth).expect(200)).body.data.find((w: { isDefault: boolean }) => w.isDefault).id;
  await request(app).put(`/api/workspaces/${workspaceId}/visitor-identity`).set(acme.auth).send({ algorithm: 'HS256', key: SECRET }).expect(200);
  for (const [audience, marker] of Object.entries(AUDIENCES) as [Audience, string][]) {
    const body = { title: `${marker} guide`, contentMd: `# ${marker} guide\n\nZebracorn refunds for ${marker} readers take seven days.`, audiences: [audience] };
    const created = await request(app).post('/api/docs?wait=true').set(acme.auth).send(body).expect(201);
    expect(created.body.audiences).toEqual([audience]);
    docIds.set(audience, created.body.id);
  }
}, 60_000);

afterAll(async () => {
  await engine?.close();
});

/** What a caller reads: the audience rule as the issue states it, written out here independently of core. */
const READS: Record<string, Audience[]> = {
  anonymous: ['public'],
  customer: ['public', 'customers'],
  partner: ['public', 'customers', 'partner-th'],
  internal: ['public', 'customers', 'partner-th', 'enterprise', 'internal'],
};

/** Fails with the door and caller when a response shows a document the caller may not read, or misses one it may. */
function check(where: string, reader: keyof typeof READS, body: string, { all = false, some = true } = {}) {
  const allowed = READS[reader]!;
  for (const audience of Object.keys(AUDIENCES) as Audience[]) {
    const shown = body.includes(AUDIENCES[audience]) || body.includes(docIds.get(audience)!);
    if (!allowed.includes(audience)) expect(shown, `${where}: ${reader} was shown the ${audience} document`).toBe(false);
    else if (all) expect(shown, `${where}: ${reader} was not shown the ${audience} document`).toBe(true);
  }
  if (some && !all) expect(allowed.some((a) => body.includes(AUDIENCES[a])), `${where}: ${reader} was shown nothing`).toBe(true);
}

/** The API routes that accept publishable keys, from the served OpenAPI document (a route added later is covered). */
async function publishableRoutes(): Promise<{ method: string; path: string }[]> {
  const doc = (await request(app).get('/api/openapi.json').expect(200)).body as { paths: Record<string, Record<string, { 'x-panya-publishable'?: boolean }>> };
  return Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).filter(([, op]) => op?.['x-panya-publishable']).map(([method]) => ({ method: method.toUpperCase(), path })));
}

describe('audiences, door by principal', () => {
  it('the API doors a widget uses show each visitor only their audiences; a secret key sees every document', async () => {
    const routes = await publishableRoutes();
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(expect.arrayContaining(['POST /api/search', 'POST /api/answer', 'POST /api/chat']));
    const callers: [keyof typeof READS, Record<string, string>][] = [
      ['anonymous', { Authorization: `Bearer ${pub}`, Origin: ORIGIN }],
      ['customer', { Authorization: `Bearer ${pub}`, Origin: ORIGIN, 'X-Panya-Visitor-Token': await token({ segments: [] }) }],
      ['partner', { Authorization: `Bearer ${pub}`, Origin: ORIGIN, 'X-Panya-Visitor-Token': await token({ segments: ['partner-th'] }) }],
      ['internal', acme.auth],
      // A secret key carrying a visitor token still reads as the server it is.
      ['internal', { ...acme.auth, 'X-Panya-Visitor-Token': await token({ segments: [] }) }],
    ];
    let searched = 0;
    for (const route of routes.filter((r) => r.method === 'POST')) {
      for (const [reader, headers] of callers) {
        const res = await request(app).post(route.path).set(headers).send({ query: QUESTION });
        expect(res.status, `${route.path} as ${reader}: ${res.text.slice(0, 200)}`).toBe(200);
        check(`${route.path}`, reader, res.text, { all: route.path === '/api/search' });
        if (route.path === '/api/search') {
          // Counted: exactly the readable documents' chunks, no more.
          expect(res.body.results.map((r: { documentId: string }) => r.documentId).sort()).toEqual(READS[reader]!.map((a) => docIds.get(a)!).sort());
          searched++;
        }
      }
    }
    expect(searched).toBe(callers.length);
  });

  it('MCP tools and Dify retrieval read as internal callers: every audience', async () => {
    const tools = await request(app).post('/api/mcp').set({ ...acme.auth, Accept: 'application/json, text/event-stream' }).send({ jsonrpc: '2.0', id: 1, method: 'tools/list' }).expect(200);
    const queried = (tools.body.result.tools as { name: string; inputSchema: { properties?: Record<string, unknown> } }[]).filter((t) => t.inputSchema.properties?.query);
    expect(queried.map((t) => t.name)).toEqual(expect.arrayContaining(['svc_search', 'svc_answer']));
    for (const tool of queried) {
      const res = await request(app)
        .post('/api/mcp')
        .set({ ...acme.auth, Accept: 'application/json, text/event-stream' })
        .send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: tool.name, arguments: { query: QUESTION } } })
        .expect(200);
      // A title filter (svc_list_docs) matches none of these titles: only what it must not show is checked there.
      check(`MCP ${tool.name}`, 'internal', res.text, { all: tool.name === 'svc_search', some: ['svc_search', 'svc_answer'].includes(tool.name) });
    }
    const dify = await request(app).post('/api/dify/retrieval').set(acme.auth).send({ knowledge_id: 'default', query: QUESTION, retrieval_setting: { top_k: 10, score_threshold: 0 } }).expect(200);
    check('Dify retrieval', 'internal', dify.text, { all: true });
  });

  it('the help center shows anonymous visitors public documents only, and a signed visitor their audiences, on every page', async () => {
    const site = (path: string) => request(app).get(`/acme${path}`).set('Host', HELP);
    const readers: [keyof typeof READS, string | null][] = [
      ['anonymous', null],
      ['customer', await token({ segments: [] })],
      ['partner', await token({ segments: ['partner-th'] })],
    ];
    for (const [reader, signed] of readers) {
      const cookie = signed ? { Cookie: `panya_vt=${signed}` } : {};
      const home = await site('/').set(cookie).expect(200);
      check('help center home', reader, home.text, { all: true });
      const found = await site(`/search?q=${encodeURIComponent(QUESTION)}`).set(cookie).expect(200);
      check('help center search', reader, found.text, { all: true });
      // Pages for a signed visitor are never kept by a shared cache.
      expect(home.headers['cache-control']).toMatch(signed ? /^private, no-store$/ : /^public/);
      for (const [audience, id] of docIds) {
        const article = await site(`/articles/${id}`).set(cookie);
        // An article outside the visitor's audiences is as missing as an unknown one.
        expect(article.status, `article ${audience} as ${reader}`).toBe(READS[reader]!.includes(audience) ? 200 : 404);
        if (article.status === 404) expect(article.text).not.toContain(AUDIENCES[audience]);
      }
      // The ask box answers through the key its pages carry, with the visitor's cookie.
      const siteKey = /svc_pub_[A-Za-z0-9_-]+/.exec(home.text)![0];
      const asked = await request(app)
        .post('/acme/ask')
        .set({ Host: HELP, Origin: `https://${HELP}`, Authorization: `Bearer ${siteKey}`, ...cookie })
        .send({ query: QUESTION });
      expect(asked.status, asked.text.slice(0, 200)).toBe(200);
      check('help center ask box', reader, asked.text);
    }
  });
});
