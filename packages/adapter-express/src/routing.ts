import { errors, HTTP_OPERATIONS, panyaError, type Operation, type PanyaError } from '@panya/core';
import { Router, type Request, type RequestHandler } from 'express';
import { sendProblem } from './problem.js';

/** A route of the tenant API: a method and an Express path relative to the API root. */
export interface ApiRoute {
  method: string;
  path: string;
  /** Publishable keys may call it (search, answer, chat). */
  acceptsPublishable?: boolean;
}

/** The REST routes of core's operation table. */
export function operationRoutes(operations: readonly Operation[] = HTTP_OPERATIONS): ApiRoute[] {
  return operations.map((op) => ({ method: op.http!.method, path: op.http!.path, ...(op.acceptsPublishable ? { acceptsPublishable: true } : {}) }));
}

/** `Allow` lists GET routes with HEAD too (Express answers HEAD from the GET handler). */
function allowHeader(methods: ReadonlySet<string>): string {
  const all = new Set(methods);
  if (all.has('GET')) all.add('HEAD');
  return [...all].sort().join(', ');
}

export const methodNotAllowed = (method: string, allowed: ReadonlySet<string>): PanyaError =>
  panyaError('method_not_allowed', { message: `${method} is not allowed here; use ${[...allowed].sort().join(' or ')}.`, allowed: allowHeader(allowed).split(', ') });

/**
 * Decides before authentication what a request's path and method can reach: a path no route
 * serves is 404 (with or without a key: nothing to authenticate for), a known path with another
 * method is 405 with `Allow`. Matching is Express's own (one `all` per path), so the answer agrees
 * with the routes it guards. OPTIONS passes through. It also marks the routes that accept
 * publishable keys (`res.locals.acceptsPublishable`) for authentication.
 */
export function routeGuard(routes: readonly ApiRoute[]): RequestHandler {
  const guard = Router({ mergeParams: true });
  const byPath = new Map<string, Set<string>>();
  const publishable = new Map<string, Set<string>>();
  for (const route of routes) {
    byPath.set(route.path, (byPath.get(route.path) ?? new Set()).add(route.method));
    if (route.acceptsPublishable) publishable.set(route.path, (publishable.get(route.path) ?? new Set()).add(route.method));
  }
  for (const [path, methods] of byPath) {
    guard.all(path, (req, res, next) => {
      const allowed: Set<string> = (res.locals.allowedMethods ??= new Set<string>());
      for (const m of methods) allowed.add(m);
      if (publishable.get(path)?.has(req.method)) res.locals.acceptsPublishable = true;
      next();
    });
  }
  guard.use((req, res, next) => {
    const allowed = res.locals.allowedMethods as Set<string> | undefined;
    delete res.locals.allowedMethods;
    if (req.method === 'OPTIONS') return next();
    if (!allowed) return sendProblem(req, res, errors.notFound(`Route ${req.method} ${req.baseUrl}${req.path}`));
    if (allowed.has(req.method) || (req.method === 'HEAD' && allowed.has('GET'))) return next();
    sendProblem(req, res, methodNotAllowed(req.method, allowed));
  });
  return guard;
}

/** For a hand-written route: any other method than `methods` is 405 with `Allow`. */
export function onlyMethods(...methods: string[]): RequestHandler {
  const allowed = new Set(methods);
  return (req, res, next) => {
    if (allowed.has(req.method) || (req.method === 'HEAD' && allowed.has('GET')) || req.method === 'OPTIONS') return next();
    sendProblem(req, res, methodNotAllowed(req.method, allowed));
  };
}

/** Whether the request announces a body (a length above zero, or chunked transfer). */
export function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/**
 * A JSON route's body must be JSON: anything else would reach validation as "no body" and be
 * reported as missing fields. Form encoding (curl's `-d` without a Content-Type) gets the fix.
 */
export function nonJsonBody(req: Request): PanyaError | null {
  if (!hasBody(req) || req.is(['application/json', 'application/*+json'])) return null;
  const type = req.get('content-type');
  const message = req.is('application/x-www-form-urlencoded')
    ? "The body is form-encoded (curl's -d sends application/x-www-form-urlencoded unless told otherwise): send JSON with the header Content-Type: application/json."
    : `The body must be JSON (Content-Type: application/json)${type ? `, not ${type.split(';')[0]}` : '; the request names no Content-Type'}.`;
  return panyaError('unsupported_media_type', { message, supported: ['application/json'] });
}
