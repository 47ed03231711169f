import { errors, HTTP_OPERATIONS, panyaError, type Operation, type PanyaError } from '@panya/core';
import type { Request, RequestHandler } from 'express';
import { match } from 'path-to-regexp';
import { sendProblem } from './problem.js';
import { decodeParam, type ApiRoute } from './api/match.js';
import { hasBody } from './api/body.js';

export type { ApiRoute };

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
 * A route path compiled as an Express router (non-strict, case-insensitive) compiles it: the
 * same path-to-regexp, trailing slashes loosened, an optional trailing slash matched.
 */
function expressMatcher(path: string): (pathname: string) => boolean {
  const test = match(path === '/' ? path : path.replace(/\/+$/, ''), { sensitive: false, end: true, trailing: true, decode: decodeParam });
  return (pathname) => test(pathname) !== false;
}

/**
 * Decides before authentication what a request's path and method can reach: a path no route
 * serves is 404 (with or without a key: nothing to authenticate for), a known path with another
 * method is 405 with `Allow`. Matching is Express's own (its path-to-regexp, its options), so the
 * answer agrees with the routes it guards; it is one middleware testing every path, not a router
 * layer per path (a request walked ~50 layers, ~4 % of a search request's CPU). OPTIONS passes
 * through. It also marks the routes that accept publishable keys (`res.locals.acceptsPublishable`)
 * for authentication.
 */
export function routeGuard(routes: readonly ApiRoute[]): RequestHandler {
  const byPath = new Map<string, { methods: Set<string>; publishable: Set<string> }>();
  for (const route of routes) {
    const entry = byPath.get(route.path) ?? { methods: new Set<string>(), publishable: new Set<string>() };
    entry.methods.add(route.method);
    if (route.acceptsPublishable) entry.publishable.add(route.method);
    byPath.set(route.path, entry);
  }
  const paths = [...byPath].map(([path, entry]) => ({ matches: expressMatcher(path), ...entry }));
  return (req, res, next) => {
    if (req.method === 'OPTIONS') return next();
    const pathname = req.path;
    let allowed: Set<string> | null = null;
    try {
      for (const path of paths) {
        if (!path.matches(pathname)) continue;
        allowed ??= new Set();
        for (const m of path.methods) allowed.add(m);
        if (path.publishable.has(req.method)) res.locals.acceptsPublishable = true;
      }
    } catch (error) {
      return next(error);
    }
    if (!allowed) return sendProblem(req, res, errors.notFound(`Route ${req.method} ${req.baseUrl}${req.path}`));
    if (allowed.has(req.method) || (req.method === 'HEAD' && allowed.has('GET'))) return next();
    sendProblem(req, res, methodNotAllowed(req.method, allowed));
  };
}

/** For a hand-written route: any other method than `methods` is 405 with `Allow`. */
export function onlyMethods(...methods: string[]): RequestHandler {
  const allowed = new Set(methods);
  return (req, res, next) => {
    if (allowed.has(req.method) || (req.method === 'HEAD' && allowed.has('GET')) || req.method === 'OPTIONS') return next();
    sendProblem(req, res, methodNotAllowed(req.method, allowed));
  };
}

export { hasBody };

/**
 * A JSON route's body must be JSON: anything else would reach validation as "no body" and be
 * reported as missing fields. Form encoding (curl's `-d` without a Content-Type) gets the fix.
 */
export function nonJsonBody(req: Request): PanyaError | null {
  // A body the JSON parser took had one of these types (it parses them only); else ask type-is.
  if (req.body !== undefined || !hasBody(req) || req.is(['application/json', 'application/*+json'])) return null;
  const type = req.get('content-type');
  const message = req.is('application/x-www-form-urlencoded')
    ? "The body is form-encoded (curl's -d sends application/x-www-form-urlencoded unless told otherwise): send JSON with the header Content-Type: application/json."
    : `The body must be JSON (Content-Type: application/json)${type ? `, not ${type.split(';')[0]}` : '; the request names no Content-Type'}.`;
  return panyaError('unsupported_media_type', { message, supported: ['application/json'] });
}
