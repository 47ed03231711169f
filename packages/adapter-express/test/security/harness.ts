/**
 * What the security suites share: the routes as the OpenAPI document lists them (so a route
 * added later is covered without new test code), minimal valid inputs generated from their
 * schemas, a checksum of the database, and a figure writer for docs/reliability.md.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import type { Express } from 'express';

type Json = Record<string, any>;

export interface RouteParam {
  name: string;
  in: 'path' | 'query';
  schema: Json;
}

export interface Route {
  method: string;
  /** OpenAPI path, e.g. `/api/docs/{id}`. */
  path: string;
  params: RouteParam[];
  /** The JSON request body's schema, if the route takes JSON. */
  body?: Json;
  contentTypes: string[];
}

/** Every tenant API route of the served OpenAPI document (`/api/...`), `$ref`s resolved. */
export async function apiRoutes(app: Express): Promise<Route[]> {
  const doc = (await request(app).get('/api/openapi.json').expect(200)).body as Json;
  const resolve = (schema: Json | undefined): Json | undefined => {
    if (!schema) return schema;
    if (typeof schema.$ref === 'string') return resolve(schema.$ref.split('/').slice(1).reduce((node: Json, key: string) => node[key], doc));
    return schema;
  };
  const routes: Route[] = [];
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    for (const [method, op] of Object.entries<Json>(item)) {
      if (typeof op !== 'object' || !op.responses) continue;
      const content = (op.requestBody?.content ?? {}) as Json;
      routes.push({
        method: method.toUpperCase(),
        path,
        params: ((op.parameters ?? []) as Json[]).map((p) => ({ name: p.name, in: p.in, schema: resolve(p.schema) ?? {} })),
        ...(content['application/json'] ? { body: resolveDeep(content['application/json'].schema, resolve) } : {}),
        contentTypes: Object.keys(content),
      });
    }
  }
  return routes;
}

function resolveDeep(schema: Json, resolve: (s: Json | undefined) => Json | undefined, depth = 0): Json {
  const s = resolve(schema) ?? {};
  if (depth > 8 || typeof s !== 'object') return s;
  const out: Json = Array.isArray(s) ? [] : {};
  for (const [k, v] of Object.entries(s)) out[k] = v && typeof v === 'object' ? resolveDeep(v, resolve, depth + 1) : v;
  return out;
}

/** The id prefix a schema's pattern demands (`^doc_[0-9A-Za-z]{22}$` → `doc`). */
export function idPrefixOf(schema: Json | undefined): string | undefined {
  const pattern = schema?.pattern ?? schema?.items?.pattern;
  return typeof pattern === 'string' ? /^\^([a-z]{2,6})_/.exec(pattern)?.[1] : undefined;
}

/** Whether a name holds an id (`id`, `conversationId`, `documentIds`, `externalId`). */
export const isIdName = (name: string) => /^(id|ids)$|Ids?$/.test(name);

/** A minimal value the schema accepts; `idFor` supplies ids for id-patterned strings. */
export function exampleOf(schema: Json | undefined, idFor: (prefix: string) => string | undefined = () => undefined, depth = 0): unknown {
  if (!schema || depth > 6) return undefined;
  if ('const' in schema) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const variants = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(variants)) return exampleOf(variants.find((v: Json) => v.type !== 'null') ?? variants[0], idFor, depth + 1);
  if (Array.isArray(schema.allOf)) return exampleOf(Object.assign({}, ...schema.allOf), idFor, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Json = {};
      for (const name of (schema.required ?? []) as string[]) {
        const value = exampleOf(schema.properties?.[name], idFor, depth + 1);
        if (value !== undefined) out[name] = value;
      }
      return out;
    }
    case 'array': {
      const item = exampleOf(schema.items, idFor, depth + 1);
      return Array.from({ length: Math.max(1, schema.minItems ?? 0) }, () => item);
    }
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 1, schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return true;
    case 'string': {
      const prefix = idPrefixOf(schema);
      if (prefix) return idFor(prefix) ?? `${prefix}_${'0'.repeat(22)}`;
      if (schema.format === 'email') return 'someone@example.com';
      if (schema.format === 'uri' || schema.format === 'url') return 'https://example.com/page';
      if (schema.format === 'date-time') return '2031-01-01T00:00:00.000Z';
      if (schema.format === 'date') return '2031-01-01';
      if (typeof schema.pattern === 'string' && /\[a-z0-9\]|\[a-z\]/.test(schema.pattern)) return 'slug-one'.slice(0, Math.max(schema.minLength ?? 0, 8));
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    }
    default:
      return undefined;
  }
}

/** Fills `{name}` path parameters. */
export const fillPath = (path: string, values: Record<string, string>) => path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(values[name] ?? `none_${name}`));

/** Every id-like string (`doc_…`, `conv_…`) in a JSON value. */
export function idsIn(value: unknown, into = new Set<string>()): Set<string> {
  if (typeof value === 'string') {
    for (const m of value.matchAll(/\b([a-z]{2,6}_[0-9A-Za-z]{22})\b/g)) into.add(m[1]!);
  } else if (Array.isArray(value)) value.forEach((v) => idsIn(v, into));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => idsIn(v, into));
  return into;
}

type Sql = { prepare(sql: string): { all(...params: unknown[]): unknown[] } };

/**
 * A hash of every row of the given tables (SQLite), in a stable order; with a scope, only that
 * tenant's rows (a `tenant_id` column, and its `tenants` row) or that workspace's (a
 * `workspace_id` column, and its `workspaces` row).
 */
export function checksum(db: Sql, tables: readonly string[], scope?: { tenantId: string } | { workspaceId: string }): string {
  const hash = createHash('sha256');
  const [column, own, value] = !scope ? [null, null, null] : 'tenantId' in scope ? ['tenant_id', 'tenants', scope.tenantId] : ['workspace_id', 'workspaces', scope.workspaceId];
  for (const table of tables) {
    const columns = (db.prepare('SELECT name FROM pragma_table_info(?)').all(table) as { name: string }[]).map((c) => c.name);
    const filter = column === null ? null : columns.includes(column) ? column : table === own ? 'id' : undefined;
    if (filter === undefined) continue;
    const rows = db.prepare(`SELECT * FROM "${table}"${filter ? ` WHERE "${filter}" = ?` : ''}`).all(...(filter ? [value] : []));
    hash.update(table).update(JSON.stringify(rows.map((r) => JSON.stringify(withoutBookkeeping(r as Record<string, unknown>))).sort()));
  }
  return hash.digest('hex');
}

/** Columns that record that a request happened (an API key's last use), not what it asked for. */
const BOOKKEEPING_COLUMNS = ['last_used_at'];

function withoutBookkeeping(row: Record<string, unknown>): Record<string, unknown> {
  const rest = { ...row };
  for (const column of BOOKKEEPING_COLUMNS) delete rest[column];
  return rest;
}

/** The ordinary tables of a SQLite database (no FTS/vector shadow tables or virtual tables). */
export function plainTables(db: Sql): string[] {
  return (db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string; sql: string | null }[])
    .filter((t) => t.sql && !/VIRTUAL TABLE/i.test(t.sql) && !/_(data|idx|content|docsize|config|chunks|rowids|info|vector_chunks\d*|metadata\w*)$/.test(t.name))
    .map((t) => t.name)
    .sort();
}

const REPORT = join(__dirname, '../../../../docs/reliability.md');

/**
 * Writes one suite's figures between its markers in docs/reliability.md, when the suites run to
 * regenerate it (`pnpm reliability`); ordinary test runs leave the file alone.
 */
export function recordFigures(section: string, lines: string[]): void {
  if (!process.env.PANYA_RELIABILITY_REPORT) return;
  const text = readFileSync(REPORT, 'utf8');
  const start = `<!-- figures:${section} -->`;
  const end = `<!-- /figures:${section} -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < 0) throw new Error(`docs/reliability.md has no ${start} … ${end} section`);
  writeFileSync(REPORT, `${text.slice(0, from + start.length)}\n${lines.join('\n')}\n${text.slice(to)}`);
}
