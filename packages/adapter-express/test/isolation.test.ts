/**
 * Route-driven isolation: every route of the OpenAPI document that takes an id (path, query or
 * body) is called with another tenant's and another workspace's ids, through every address,
 * by every kind of principal — and must refuse, show none of that data and write nothing.
 * Routes added later are enumerated the same way; no test code names a route.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, parseHelpHost, type Engine } from '@panya/core';
import { CloudflareEdge } from '@panya/edge';
import { startFakeCloudflare, type FakeCloudflare } from '@panya/edge/testing';
import { openSqliteStore } from '@panya/store-sqlite';
import { createPanyaApp } from '@panya/adapter-express';
import { makeTenant } from './helpers.js';
import { apiRoutes, checksum, exampleOf, fillPath, idPrefixOf, idsIn, isIdName, plainTables, recordFigures, type Route } from './security/harness.js';
import { engineInternals } from '@panya/core/testing';

const HELP = 'help.panya.example';
const MARKER = 'Zebracorn';
const PASSWORD = 'correct horse battery';
const ORIGIN = 'https://globex.example';
/** Routes that act on the operator's schedule or sign-in, not on tenant data by id. */
const NOT_TENANT_DATA = /^\/api\/(auth|cron)\//;

type Principal = { name: string; headers: Record<string, string>; agent?: ReturnType<typeof request.agent> };

const ZONE = '023e105f4ecef8ad9ca31a8372d0c353';
let cf: FakeCloudflare;
let engine: Engine;
let app: ReturnType<typeof createPanyaApp>;
let routes: Route[];
let db: { prepare(sql: string): { all(...params: unknown[]): unknown[] } };
let tables: string[];
let acmeId: string;
/** Values of acme's id fields by field name, and its prefixed ids by prefix, per workspace. */
const victim = { byField: new Map<string, Set<string>>(), brandByField: new Map<string, Set<string>>(), byPrefix: new Map<string, Set<string>>(), brandByPrefix: new Map<string, Set<string>>() };
/** The id prefix each path template's `{param}` takes, learned from acme's own successful reads. */
const paramPrefix = new Map<string, string>();

const add = (map: Map<string, Set<string>>, key: string, value: string) => map.set(key, (map.get(key) ?? new Set()).add(value));

/** Records acme's ids; brand-b's pool keeps only what the default workspace did not show (ids of the workspace itself are set apart). */
function harvest(value: unknown, brand: boolean) {
  for (const id of idsIn(value)) {
    const prefix = id.split('_')[0]!;
    if (brand && prefix !== 'ws' && prefix !== 'ten' && !victim.byPrefix.get(prefix)?.has(id)) add(victim.brandByPrefix, prefix, id);
    add(victim.byPrefix, prefix, id);
  }
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        if (typeof x === 'string' && isIdName(k) && k !== 'id') add(brand ? victim.brandByField : victim.byField, k, x);
        walk(x);
      }
  };
  walk(value);
}

/** The template up to a parameter: `/api/tickets/{id}/close` and `/api/tickets/{id}` share `{id}`. */
const upTo = (path: string, param: string) => path.slice(0, path.indexOf(`{${param}}`) + param.length + 2);

const first = (set: Set<string> | undefined) => (set ? [...set][0] : undefined);

beforeAll(async () => {
  // Custom hostnames go through a local stand-in for the edge provider's API.
  cf = await startFakeCloudflare({ zoneId: ZONE, hostnameToken: 'host-token', purgeToken: 'purge-token' });
  const edge = new CloudflareEdge({ apiUrl: cf.apiUrl, zoneId: ZONE, hostnameToken: 'host-token', purgeToken: 'purge-token', timeoutMs: 2_000 });
  engine = createEngine({ store: openSqliteStore({ path: ':memory:' }), helpHost: parseHelpHost(HELP), edge, edgeTarget: 'edge.panya.example' });
  app = createPanyaApp(engine);
  db = (engineInternals(engine).store as unknown as { db: typeof db }).db;
  routes = (await apiRoutes(app)).filter((r) => !NOT_TENANT_DATA.test(r.path));
  const acme = await makeTenant(engine, 'acme');
  acmeId = acme.tenant.id;
  const brandWorkspace = (await request(app).post('/api/workspaces').set(acme.auth).send({ slug: 'brand-b', name: 'Brand B' }).expect(201)).body.id as string;
  victim.brandByPrefix.set('ws', new Set([brandWorkspace]));
  (await engine.users.createUser({ email: 'owner@acme.test', password: PASSWORD, tenantSlug: 'acme', role: 'owner' }))._unsafeUnwrap();
  (await engine.users.createUser({ email: 'desk@acme.test', password: PASSWORD, tenantSlug: 'acme', workspaceSlug: 'default', role: 'admin' }))._unsafeUnwrap();

  // Acme's data, in both workspaces: every create route without path parameters, twice (the
  // second pass can refer to what the first made), then the sub-resources of what exists.
  for (const [base, brand] of [['/c/acme/api', false], ['/c/acme/_w/brand-b/api', true]] as const) {
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await request(app)[method.toLowerCase() as 'post'](`${base}${path}`).set(acme.auth).send(body as object);
      if (res.status < 300) harvest(res.body, brand);
      return res;
    };
    const idFor = (prefix: string) => first((brand ? victim.brandByPrefix : victim.byPrefix).get(prefix));
    await call('POST', '/docs?wait=true', { title: `${MARKER} refunds`, contentMd: `# ${MARKER}\n\n${MARKER} refunds take 7 days.`, externalId: `ext-${brand ? 'b' : 'a'}-1`, publicSurfaces: ['help_center'] });
    await call('POST', '/chat', { query: `${MARKER} refunds?` });
    await call('POST', '/answer', { query: `${MARKER} refunds?` });
    for (let pass = 0; pass < 2; pass++) {
      for (const route of routes.filter((r) => r.method === 'POST' && r.params.every((p) => p.in !== 'path') && r.body)) {
        await call('POST', route.path.slice(4), exampleOf(route.body, idFor));
      }
    }
    for (const route of routes.filter((r) => r.method === 'GET')) {
      const pathParams = route.params.filter((p) => p.in === 'path');
      if (pathParams.length === 0) {
        await call('GET', route.path.slice(4));
        continue;
      }
      // Learn which ids this template takes: the prefix whose id acme itself can read. A parameter
      // named like a field (`externalId`) is a name the caller chose, tried with the harvested values.
      const named = pathParams.every((p) => victim.byField.has(p.name));
      if (named) await call('GET', fillPath(route.path.slice(4), Object.fromEntries(pathParams.map((p) => [p.name, first(victim.byField.get(p.name))!]))));
      else for (const [prefix, ids] of (brand ? victim.brandByPrefix : victim.byPrefix).entries()) {
        const values = Object.fromEntries(pathParams.map((p) => [p.name, first(ids)!]));
        const res = await call('GET', fillPath(route.path.slice(4), values));
        if (res.status === 200 && pathParams.length === 1) {
          paramPrefix.set(upTo(route.path, pathParams[0]!.name), prefix);
          break;
        }
      }
    }
    for (const route of routes.filter((r) => r.method === 'POST' && r.params.some((p) => p.in === 'path') && r.body)) {
      const name = route.params.find((p) => p.in === 'path')!.name;
      const prefix = paramPrefix.get(upTo(route.path, name));
      const id = prefix ? idFor(prefix) : undefined;
      if (id) await call('POST', fillPath(route.path.slice(4), { [name]: id }), exampleOf(route.body, idFor));
    }
  }
  tables = plainTables(db);
}, 120_000);

afterAll(async () => {
  await engine?.close();
  await cf?.close();
});

async function principals(): Promise<{ outsiders: Principal[]; otherWorkspace: Principal[] }> {
  const globex = await makeTenant(engine, 'globex');
  await request(app).patch('/api/tenant/settings').set(globex.auth).send({ allowedOrigins: [ORIGIN] }).expect(200);
  const bound = (await engine.apiKeys.create(globex.tenant.id, { scopes: ['read', 'write', 'mcp', 'admin'], workspaceSlug: 'default' }))._unsafeUnwrap().key;
  const pub = (await engine.apiKeys.create(globex.tenant.id, { kind: 'publishable', scopes: ['read'], workspaceSlug: 'default' }))._unsafeUnwrap().key;
  (await engine.users.createUser({ email: 'owner@globex.test', password: PASSWORD, tenantSlug: 'globex', role: 'owner' }))._unsafeUnwrap();
  const session = request.agent(app);
  await session.post('/api/auth/login').send({ email: 'owner@globex.test', password: PASSWORD }).expect(200);
  const acmeBound = (await engine.apiKeys.create(acmeId, { scopes: ['read', 'write', 'mcp', 'admin'], workspaceSlug: 'default' }))._unsafeUnwrap().key;
  const desk = request.agent(app);
  await desk.post('/api/auth/login').send({ email: 'desk@acme.test', password: PASSWORD }).expect(200);
  return {
    outsiders: [
      { name: 'other tenant: key', headers: { Authorization: `Bearer ${globex.key}` } },
      { name: 'other tenant: workspace-bound key', headers: { Authorization: `Bearer ${bound}` } },
      { name: 'other tenant: publishable key', headers: { Authorization: `Bearer ${pub}`, Origin: ORIGIN } },
      { name: 'other tenant: session', headers: { 'X-Requested-With': 'panya' }, agent: session },
    ],
    otherWorkspace: [
      { name: 'other workspace: workspace-bound key', headers: { Authorization: `Bearer ${acmeBound}` } },
      { name: 'other workspace: workspace session', headers: { 'X-Requested-With': 'panya' }, agent: desk },
    ],
  };
}

/** The id-bearing inputs of a route: path parameters, and query or body fields taking a server-issued id. */
function idInputs(route: Route): { where: 'path' | 'query' | 'body'; name: string; prefix?: string }[] {
  const inputs: { where: 'path' | 'query' | 'body'; name: string; prefix?: string }[] = [];
  for (const p of route.params) {
    if (p.in === 'path') inputs.push({ where: 'path', name: p.name, ...optional(paramPrefix.get(upTo(route.path, p.name)) ?? idPrefixOf(p.schema)) });
    else if (idPrefixOf(p.schema)) inputs.push({ where: 'query', name: p.name, prefix: idPrefixOf(p.schema)! });
  }
  // A body or query field refers to something when it takes a server-issued id; a name the caller
  // chooses (e.g. `externalId` on create) is its own and refers to nothing.
  for (const [name, schema] of Object.entries<Record<string, unknown>>(route.body?.properties ?? {})) {
    if (idPrefixOf(schema)) inputs.push({ where: 'body', name, prefix: idPrefixOf(schema)! });
  }
  return inputs;
}

const optional = (prefix: string | undefined) => (prefix ? { prefix } : {});

describe('tenant and workspace isolation, route by route', () => {
  it('refuses every id of another tenant or workspace at every address, shows none of its data and writes nothing', async () => {
    const { outsiders, otherWorkspace } = await principals();
    const brandId = first(victim.brandByPrefix.get('ws'))!;
    const guarded = { tenant: { tenantId: acmeId }, workspace: { workspaceId: brandId } } as const;
    const totalChanges = () => (db.prepare('SELECT total_changes() AS n').all() as { n: number }[])[0]!.n;
    let seenChanges = totalChanges();
    let known = { tenant: checksum(db, tables, guarded.tenant), workspace: checksum(db, tables, guarded.workspace) };
    const failures: string[] = [];
    const cases = new Set<string>();
    const statuses = new Map<number, number>();
    let requests = 0;

    for (const route of routes) {
      for (const input of idInputs(route)) {
        for (const [group, who, pool, addresses] of [
          ['tenant', outsiders, victim.byPrefix, ['/api', '/c/acme/api', '/c/acme/_w/brand-b/api']],
          ['workspace', otherWorkspace, victim.brandByPrefix, ['/api', '/c/acme/api', '/c/acme/_w/brand-b/api']],
        ] as const) {
          const byName = (group === 'tenant' ? victim.byField : victim.brandByField).get(input.name);
          const candidates = [...new Set([...(input.prefix ? [first(pool.get(input.prefix))] : [...pool.values()].map(first)), first(byName)])].filter((v): v is string => !!v);
          for (const principal of who) {
            cases.add(`${route.method} ${route.path}|${input.where}:${input.name}|${principal.name}`);
            for (const id of candidates) {
              for (const address of addresses) {
                const idFor = (prefix: string) => first(pool.get(prefix));
                const pathValues = Object.fromEntries(route.params.filter((p) => p.in === 'path').map((p) => [p.name, input.name === p.name ? id : (idFor(paramPrefix.get(upTo(route.path, p.name)) ?? '') ?? id)]));
                const query = new URLSearchParams(input.where === 'query' ? { [input.name]: id } : {});
                // Writes the caller may legitimately make in its own workspace finish before the next case.
                if (route.params.some((p) => p.name === 'wait')) query.set('wait', 'true');
                const url = `${address}${fillPath(route.path.slice(4), pathValues)}${query.size ? `?${query}` : ''}`;
                const fieldType = (route.body?.properties as Record<string, { type?: string }> | undefined)?.[input.name]?.type;
                const body = route.body ? { ...(exampleOf(route.body, idFor) as object), ...(input.where === 'body' ? { [input.name]: fieldType === 'array' ? [id] : id } : {}) } : undefined;
                const client = principal.agent ?? request(app);
                let call = client[route.method.toLowerCase() as 'get'](url).set(principal.headers);
                if (body) call = call.send(body);
                const res = await call;
                requests++;
                statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
                const label = `${principal.name} ${route.method} ${url} (${input.where} ${input.name}) → ${res.status}`;
                const leaked = [...idsIn(res.body)].filter((x) => x !== id && (pool.get(x.split('_')[0]!)?.has(x) ?? false) && !url.includes(x));
                // A key the caller names itself (`externalId` of an upsert) may find or make the caller's own
                // object; a server-issued id of someone else's must be refused.
                const ownName = !input.prefix && input.name !== 'id';
                if (res.status >= 500 || (res.status < 400 && !ownName)) failures.push(`${label}: not refused`);
                if (res.text.includes(MARKER) || leaked.length > 0) failures.push(`${label}: shows the other's data ${leaked.join(', ')}`);
                if (res.headers['x-content-type-options'] !== 'nosniff') failures.push(`${label}: no nosniff`);
                // Most refusals write nothing at all; only when the database changed are the guarded rows compared.
                const changes = totalChanges();
                if (changes !== seenChanges) {
                  seenChanges = changes;
                  const now = { tenant: checksum(db, tables, guarded.tenant), workspace: checksum(db, tables, guarded.workspace) };
                  if (now[group] !== known[group]) {
                    failures.push(`${label}: wrote to the other's data`);
                    return expect(failures).toEqual([]);
                  }
                  known = now;
                }
              }
            }
          }
        }
      }
    }

    // The public help center: another site's articles are not found, whoever's id is asked for.
    let helpChecks = 0;
    for (const id of victim.byPrefix.get('doc') ?? []) {
      for (const path of [`/globex/articles/${id}`, `/globex/_w/default/articles/${id}`]) {
        const res = await request(app).get(path).set('Host', HELP);
        helpChecks++;
        if (res.status !== 404 || res.text.includes(MARKER)) failures.push(`help host ${path} → ${res.status}`);
      }
    }
    cases.add('GET help-host article|path:id|public');

    // Nothing the outsiders wrote in their own tenant refers to acme's ids either.
    const globexId = ((await engineInternals(engine).store.tenants.getBySlug('globex')) as { id: string }).id;
    const theirs = tables.flatMap((t) => {
      const cols = (db.prepare('SELECT name FROM pragma_table_info(?)').all(t) as { name: string }[]).map((c) => c.name);
      return cols.includes('tenant_id') ? (db.prepare(`SELECT * FROM "${t}" WHERE tenant_id = ?`).all(globexId) as unknown[]) : [];
    });
    const referenced = [...idsIn(theirs)].filter((x) => victim.byPrefix.get(x.split('_')[0]!)?.has(x));
    expect(referenced).toEqual([]);

    const summary = `Isolation: ${cases.size} (route, parameter, principal) cases over ${routes.length} routes, ${requests + helpChecks} requests; statuses ${[...statuses].sort().map(([s, n]) => `${s}×${n}`).join(' ')}`;
    console.info(summary);
    recordFigures('isolation', [
      `- (route, parameter, principal) cases: **${cases.size}** over ${routes.length} routes of the OpenAPI document`,
      `- requests made: **${requests + helpChecks}** (each id at \`/api\`, \`/c/{tenant}/api\`, \`/c/{tenant}/_w/{workspace}/api\` and the help host)`,
      `- answers by status (2xx only where the caller named its own \`externalId\`): ${[...statuses].sort().map(([s, n]) => `${s} × ${n}`).join(', ')}`,
      `- leaks, writes or unrefused calls: **${failures.length}**`,
    ]);
    expect(failures).toEqual([]);
    expect(cases.size).toBeGreaterThan(200);
  }, 600_000);
});
