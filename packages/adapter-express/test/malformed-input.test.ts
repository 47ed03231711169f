/**
 * Property-based malformed input on every route of the OpenAPI document: wrong JSON, wrong
 * types, hostile keys, broken headers, garbage multipart. Whatever arrives, the answer is never a
 * 5xx, a refusal is problem JSON, and a refused request leaves the database as it was.
 */
import fc from 'fast-check';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '@panya/core';
import { CloudflareEdge } from '@panya/edge';
import { startFakeCloudflare, type FakeCloudflare } from '@panya/edge/testing';
import { openSqliteStore } from '@panya/store-sqlite';
import { createPanyaApp } from '@panya/adapter-express';
import { makeTenant } from './helpers.js';
import { apiRoutes, checksum, exampleOf, fillPath, plainTables, recordFigures, type Route } from './security/harness.js';
import { engineInternals } from '@panya/core/testing';

/** Runs per route and property: bounded so the suite stays within a minute or two on two cores. */
const RUNS = Number(process.env.PANYA_FUZZ_RUNS ?? 12);
/**
 * Bookkeeping, not data: counters of sign-in throttling and rate limits, and the Idempotency-Key
 * replay cache (which keeps 4xx answers by design, like Stripe's).
 */
const BOOKKEEPING = new Set(['rate_counters', 'idempotency_keys']);

/**
 * Routes that speak another product's protocol may answer refusals in its error format instead of
 * problem JSON: Dify's external knowledge API (`{error_code, error_msg}`) and MCP's JSON-RPC.
 */
const FOREIGN_ERRORS: { path: RegExp; valid: (body: Record<string, unknown>) => boolean }[] = [
  { path: /^\/api\/dify\//, valid: (b) => typeof b.error_code === 'number' && typeof b.error_msg === 'string' },
  // MCP protocol refusals are JSON-RPC errors (see decisions); authentication refusals are problem JSON.
  { path: /^\/api\/mcp$/, valid: (b) => b.jsonrpc === '2.0' && typeof b.error === 'object' && b.error !== null },
];

const ZONE = '023e105f4ecef8ad9ca31a8372d0c353';
let cf: FakeCloudflare;
let engine: Engine;
let app: ReturnType<typeof createPanyaApp>;
let routes: Route[];
let auth: Record<string, string>;
let db: { prepare(sql: string): { all(...params: unknown[]): unknown[] } };
/** The request counters' file (rate limits, query events), beside the main one. */
let counters: typeof db;
let tables: string[];
let counterTables: string[];
let docId: string;

beforeAll(async () => {
  // Custom hostnames go through a local stand-in for the edge provider's API (without one they are 503 by design).
  cf = await startFakeCloudflare({ zoneId: ZONE, hostnameToken: 'host-token', purgeToken: 'purge-token' });
  const edge = new CloudflareEdge({ apiUrl: cf.apiUrl, zoneId: ZONE, hostnameToken: 'host-token', purgeToken: 'purge-token', timeoutMs: 2_000 });
  engine = createEngine({ store: openSqliteStore({ path: ':memory:' }), edge, edgeTarget: 'edge.panya.example' });
  app = createPanyaApp(engine);
  ({ db, countersDb: counters } = engineInternals(engine).store as unknown as { db: typeof db; countersDb: typeof db });
  routes = await apiRoutes(app);
  const acme = await makeTenant(engine, 'acme');
  auth = acme.auth;
  docId = (await request(app).post('/api/docs?wait=true').set(auth).send({ title: 'Refunds', contentMd: 'Refunds take 7 days.' }).expect(201)).body.id;
  tables = plainTables(db).filter((t) => !BOOKKEEPING.has(t));
  counterTables = plainTables(counters).filter((t) => !BOOKKEEPING.has(t));
}, 60_000);
afterAll(async () => {
  await engine?.close();
  await cf?.close();
});

const changesOf = (sql: typeof db) => (sql.prepare('SELECT total_changes() AS n').all() as { n: number }[])[0]!.n;
const totalChanges = () => changesOf(db) + changesOf(counters);
const state = () => checksum(db, tables) + checksum(counters, counterTables);

/** What one request must satisfy, and the running tallies for the figures. */
const tally = { inputs: 0, refused: 0, accepted: 0, failures: [] as string[] };
let seen = -1;
let known = '';

/** After an accepted request, work it started after answering (indexing, purges) is let finish and re-baselined. */
let settle = false;
async function settled() {
  if (!settle) return;
  settle = false;
  await new Promise((r) => setTimeout(r, 100));
  seen = totalChanges();
  known = state();
}

function expectSound(label: string, res: request.Response, route?: Route) {
  tally.inputs++;
  const problems: string[] = [];
  // An integration this test server runs without (billing: no payment processor) answers 503 naming it; that is configuration, not input.
  // So is /readyz reporting that this test server runs no ingest worker (`panya serve` starts one).
  const unconfigured = res.status === 503 && (/not configured/.test(String(res.body?.detail)) || route?.path === '/readyz');
  if (res.status >= 500 && !unconfigured) problems.push(`${res.status} ${res.text.slice(0, 200)}`);
  if (res.status >= 400) {
    tally.refused++;
    const foreign = route && FOREIGN_ERRORS.find((f) => f.path.test(route.path));
    const isProblem = /application\/problem\+json/.test(String(res.headers['content-type']));
    if (foreign && !isProblem) {
      if (!foreign.valid(res.body ?? {})) problems.push(`refusal is neither problem JSON nor the route's own error format: ${res.text.slice(0, 120)}`);
    } else if (!isProblem) problems.push(`refusal is ${res.headers['content-type']}, not problem JSON`);
    else if (typeof res.body?.type !== 'string' || res.body?.status !== res.status || typeof res.body?.title !== 'string') problems.push('problem JSON lacks type/status/title');
  } else tally.accepted++;
  const changes = totalChanges();
  if (res.status < 400) settle = true;
  if (changes !== seen) {
    seen = changes;
    const now = state();
    if (res.status >= 400 && now !== known) problems.push('a refused request changed the database');
    known = now;
  }
  if (problems.length) {
    tally.failures.push(`${label} → ${res.status}: ${problems.join('; ')}`);
    if (process.env.PANYA_FUZZ_DEBUG) console.error(tally.failures.at(-1));
  }
  return problems.length === 0;
}

/** A JSON value, including the keys that poison prototypes and the shapes that strain parsers. */
const hostileJson = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.constantFrom<unknown>({ __proto__: { admin: true } }, { constructor: { prototype: { x: 1 } } }, JSON.parse('{"__proto__":{"polluted":1}}'), [], null, 0, '', 'x'.repeat(5000)),
  fc.array(fc.constant('['), { maxLength: 3 }).map((a) => a.join('')),
);

/** The route's own minimal body with one field replaced, dropped, or joined by an unknown one. */
function mutated(route: Route) {
  const base = (exampleOf(route.body, (p) => (p === 'doc' ? docId : undefined)) ?? {}) as Record<string, unknown>;
  const names = Object.keys((route.body?.properties ?? {}) as object);
  if (names.length === 0) return hostileJson;
  return fc.record({ name: fc.constantFrom(...names), value: hostileJson, mode: fc.constantFrom('replace', 'drop', 'extra') }).map(({ name, value, mode }) => {
    const body = { ...base };
    if (mode === 'replace') body[name] = value;
    else if (mode === 'drop') delete body[name];
    else body[`${name}_unknown`] = value;
    return body;
  });
}

const url = (route: Route) => `${fillPath(route.path, { id: docId })}${route.params.some((p) => p.name === 'wait') ? '?wait=true' : ''}`;
const send = (route: Route) => request(app)[route.method.toLowerCase() as 'post'](url(route));

describe('malformed input on every route', () => {
  it('JSON bodies: random values, mutated fields and broken JSON text never give 5xx or change anything when refused', async () => {
    const jsonRoutes = routes.filter((r) => r.body && r.method !== 'DELETE');
    expect(jsonRoutes.length).toBeGreaterThan(20);
    seen = totalChanges();
    known = state();
    for (const route of jsonRoutes) {
      const label = `${route.method} ${route.path}`;
      await fc.assert(fc.asyncProperty(fc.oneof(hostileJson, mutated(route)), async (body) => expectSound(label, await send(route).set(auth).set('Content-Type', 'application/json').send(JSON.stringify(body) ?? 'null'), route)), { numRuns: RUNS });
      await fc.assert(
        fc.asyncProperty(fc.string({ maxLength: 200 }), async (text) => expectSound(`${label} (raw)`, await send(route).set(auth).set('Content-Type', 'application/json').send(`{${text}`), route)),
        { numRuns: Math.ceil(RUNS / 3) },
      );
    }
    expect(tally.failures).toEqual([]);
  }, 300_000);

  it('headers and query strings: garbage Authorization, Content-Type, Accept-Language, cookies and parameters', async () => {
    const header = fc.string({ maxLength: 120 }).map((s) => s.replace(/[^\t\x20-\x7e]/g, ''));
    const headers = fc.record(
      {
        Authorization: fc.oneof(header, header.map((s) => `Bearer ${s}`), fc.constant(auth.Authorization!)),
        'Content-Type': fc.oneof(header, fc.constantFrom('application/json; charset=latin1', 'text/plain', 'multipart/form-data', 'application/json;;')),
        'Accept-Language': header,
        Cookie: header.map((s) => `panya_session=${encodeURIComponent(s)}`),
        Origin: fc.oneof(header, fc.constant('null')),
        'X-Request-Id': header,
        'Idempotency-Key': header,
      },
      { requiredKeys: ['Authorization'] },
    );
    const queryValue = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('-1', '0', '1e309', 'NaN', '[]', '%', '9'.repeat(40)));
    for (const route of routes.filter((r) => !r.contentTypes.includes('multipart/form-data'))) {
      const names = route.params.filter((p) => p.in === 'query').map((p) => p.name);
      const label = `${route.method} ${route.path}`;
      await fc.assert(
        fc.asyncProperty(headers, fc.dictionary(fc.constantFrom(...names, 'unknown'), queryValue, { maxKeys: 3 }), async (h, query) => {
          // A long poll would wait for its timeout: keep it short.
          if ('timeout' in query) query.timeout = '0';
          // Writes finish before the answer, so the next request's checksum is its own.
          if (names.includes('wait')) query.wait = 'true';
          await settled();
          const res = await send(route).query(query).set(h as Record<string, string>).send(route.body ? '{}' : undefined);
          return expectSound(label, res, route);
        }),
        { numRuns: Math.ceil(RUNS / 2) },
      );
    }
    expect(tally.failures).toEqual([]);
  }, 300_000);

  it('deeply nested JSON (20,000 deep; metadata 2,000 deep) is 400 problem JSON on every JSON route, never 500', async () => {
    const deepArray = '['.repeat(20_000) + ']'.repeat(20_000);
    const deepObject = '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000);
    const nested = (depth: number): unknown => {
      let value: unknown = 'x';
      for (let i = 0; i < depth; i++) value = { a: value };
      return value;
    };
    const deepMetadata = `{"title":"Deep","contentMd":"x","metadata":${JSON.stringify(nested(2_000))}}`;
    const jsonRoutes = routes.filter((r) => r.body && r.method !== 'DELETE' && !r.contentTypes.includes('multipart/form-data'));
    const failures: string[] = [];
    let tried = 0;
    for (const route of jsonRoutes) {
      const label = `${route.method} ${route.path}`;
      for (const [what, text] of [['array', deepArray], ['object', deepObject], ['metadata', deepMetadata]] as const) {
        // With an Idempotency-Key too: its canonical form of the body must never meet such a value.
        const res = await send(route).set(auth).set('Content-Type', 'application/json').set('Idempotency-Key', `deep-${tried}`).send(text);
        tried++;
        // A webhook of a processor this server runs without answers 503 naming it before reading the body.
        if (res.status === 503 && /not configured/.test(String(res.body?.detail))) continue;
        const foreign = FOREIGN_ERRORS.find((f) => f.path.test(route.path));
        const refusedAsProblem = res.status === 400 && /application\/problem\+json/.test(String(res.headers['content-type']));
        const refusedInOwnFormat = foreign !== undefined && res.status < 500 && foreign.valid(res.body ?? {});
        if (!refusedAsProblem && !refusedInOwnFormat) failures.push(`${label} (${what}) → ${res.status} ${res.text.slice(0, 120)}`);
      }
    }
    // The direct search route and the help center's JSON ask box read JSON too.
    for (const text of [deepArray, deepObject]) {
      const res = await request(app).post('/api/search').set(auth).set('Content-Type', 'application/json').send(text);
      if (res.status !== 400) failures.push(`direct /api/search → ${res.status}`);
    }
    expect(failures).toEqual([]);
    expect(tried).toBeGreaterThan(60);
  }, 120_000);

  it('multipart uploads: random files, names, fields and broken boundaries', async () => {
    const uploads = routes.filter((r) => r.contentTypes.includes('multipart/form-data'));
    expect(uploads.length).toBeGreaterThan(0);
    const name = fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom('../../etc/passwd', 'a.md\u0000.exe', 'x.pdf', 'x.docx', 'x.html', '.md', 'CON', 'ü.txt'));
    for (const route of uploads) {
      const label = `${route.method} ${route.path}`;
      await fc.assert(
        fc.asyncProperty(fc.uint8Array({ maxLength: 3000 }), name, fc.constantFrom('file', 'files', 'upload', ''), async (bytes, filename, field) => {
          const req = send(route).set(auth);
          const res = field ? await req.attach(field, Buffer.from(bytes), { filename: filename || 'x', contentType: 'application/octet-stream' }) : await req.set('Content-Type', 'multipart/form-data; boundary=zz').send(Buffer.from(bytes));
          return expectSound(label, res);
        }),
        { numRuns: RUNS * 2 },
      );
      await fc.assert(
        fc.asyncProperty(fc.string({ maxLength: 300 }), async (text) =>
          expectSound(`${label} (broken)`, await send(route).set(auth).set('Content-Type', 'multipart/form-data; boundary=b').send(`--b\r\nContent-Disposition: form-data; name="file"; filename="a.md"\r\n\r\n${text}`)),
        ),
        { numRuns: RUNS },
      );
    }
    expect(tally.failures).toEqual([]);
    console.info(`Malformed input: ${tally.inputs} inputs over ${routes.length} routes; ${tally.refused} refused, ${tally.accepted} accepted; failures ${tally.failures.length}`);
    recordFigures('malformed', [
      `- inputs tried: **${tally.inputs}** over ${routes.length} routes (${RUNS} runs per route and property; \`PANYA_FUZZ_RUNS\` raises it)`,
      `- refused with problem JSON: ${tally.refused}; accepted: ${tally.accepted}`,
      `- 5xx answers, refusals without problem JSON, refused requests that changed the database: **${tally.failures.length}**`,
    ]);
  }, 300_000);
});
