import { HTTP_OPERATIONS, type Addressing, type Operation } from '@panya/core';
import { match as compilePath } from 'path-to-regexp';

/** A route of the tenant API: a method and a path relative to the API root. */
export interface ApiRoute {
  method: string;
  path: string;
  /** Publishable keys may call it (search, answer, chat). */
  acceptsPublishable?: boolean;
}

/** What a request's method and path reach. */
export type Matched =
  | {
      kind: 'operation';
      operation: Operation;
      params: Record<string, string>;
      addressing: Addressing;
      /** The API root as addressed (`/api`, `/c/acme/api`, …): `Location` is relative to it. */
      base: string;
      /** The route as a template (`/c/:tenantSlug/api/docs/:id`), for metrics and the access log. */
      route: string;
    }
  /** A known path with another method: 405 with `Allow`. */
  | { kind: 'method_not_allowed'; allowed: ReadonlySet<string>; addressing: Addressing }
  /** A route the table does not describe (upload, chat) or no tenant API route at all: the app's own. */
  | { kind: 'elsewhere' };

/** The three addresses of the tenant API, case-insensitive like Express's mount paths. */
const API_ROOT = /^\/(?:c\/([^/]+)\/(?:_w\/([^/]+)\/)?)?api(?=\/|$)/i;

/** Express's parameter decoding: a malformed percent-encoding is a 400. */
export function decodeParam(value: string): string {
  if (value.length === 0 || !value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch (error) {
    if (error instanceof URIError) Object.assign(error, { message: `Failed to decode param '${value}'`, status: 400, statusCode: 400 });
    throw error;
  }
}

interface Entry {
  /** Position in the table: where several routes take a path, the first wins (as registered in a router). */
  order: number;
  method: string;
  /** Undefined for a route the app serves itself. */
  operation?: Operation;
}

const isStatic = (path: string) => !/[:*{(]/.test(path);
/** A path as Express compares it: case-insensitive, one trailing slash optional. */
const normal = (path: string) => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path).toLowerCase();

/**
 * One matcher built once from the operation table (and the few tenant API routes the app serves
 * itself, which win as they are mounted first): the API root and its addressing, then the entry
 * and its path parameters. Static paths are one map lookup; parameterized ones are tried in table
 * order only while they could still win.
 */
export function compileApiRoutes(operations: readonly Operation[] = HTTP_OPERATIONS, external: readonly ApiRoute[] = []): (method: string, pathname: string) => Matched {
  const statics = new Map<string, Entry[]>();
  const dynamic: (Entry & { test: ReturnType<typeof compilePath> })[] = [];
  const routes = [...external.map((route) => ({ route, operation: undefined })), ...operations.map((operation) => ({ route: { method: operation.http!.method, path: operation.http!.path }, operation }))];
  routes.forEach(({ route, operation }, order) => {
    const entry: Entry = { order, method: route.method, ...(operation ? { operation } : {}) };
    if (isStatic(route.path)) {
      const key = normal(route.path);
      statics.set(key, [...(statics.get(key) ?? []), entry]);
    } else {
      dynamic.push({ ...entry, test: compilePath(route.path.replace(/\/+$/, ''), { sensitive: false, end: true, trailing: true, decode: decodeParam }) });
    }
  });
  const takes = (entry: Entry, method: string) => entry.method === method || (method === 'HEAD' && entry.method === 'GET');

  return (method, pathname) => {
    const root = API_ROOT.exec(pathname);
    if (!root) return { kind: 'elsewhere' };
    const [prefix, tenant, workspace] = root;
    const rest = pathname.slice(prefix.length) || '/';
    const addressing: Addressing = {
      ...(tenant !== undefined ? { tenantSlug: decodeParam(tenant) } : {}),
      ...(workspace !== undefined ? { workspaceSlug: decodeParam(workspace) } : {}),
    };
    let best: { entry: Entry; params: Record<string, string> } | null = null;
    const allowed = new Set<string>();
    for (const entry of statics.get(normal(rest)) ?? []) {
      allowed.add(entry.method);
      if (!best && takes(entry, method)) best = { entry, params: {} };
    }
    for (const entry of dynamic) {
      // A route after the one found cannot win; the Allow list is only needed when none is found.
      if (best && entry.order > best.entry.order) break;
      const found = entry.test(rest);
      if (!found) continue;
      allowed.add(entry.method);
      if (takes(entry, method) && (!best || entry.order < best.entry.order)) best = { entry, params: found.params as Record<string, string> };
    }
    if (best) {
      const { operation } = best.entry;
      if (!operation) return { kind: 'elsewhere' };
      const mount = tenant === undefined ? '/api' : workspace === undefined ? '/c/:tenantSlug/api' : '/c/:tenantSlug/_w/:workspaceSlug/api';
      return { kind: 'operation', operation, params: best.params, addressing, base: prefix, route: `${mount}${operation.http!.path}` };
    }
    if (allowed.size > 0) return { kind: 'method_not_allowed', allowed, addressing };
    return { kind: 'elsewhere' };
  };
}
