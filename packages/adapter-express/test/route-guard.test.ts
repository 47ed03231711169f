import express, { Router } from 'express';
import fc from 'fast-check';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { HAND_WRITTEN_ROUTES } from '../src/app.js';
import { operationRoutes, routeGuard, type ApiRoute } from '../src/routing.js';

const ROUTES: ApiRoute[] = [...operationRoutes(), ...HAND_WRITTEN_ROUTES];

/** The guard as Express routes it: one `all` layer per path, methods and publishable marks unioned. */
function expressGuard(routes: readonly ApiRoute[]) {
  const guard = Router({ mergeParams: true });
  for (const route of routes) {
    guard.all(route.path, (req, res, next) => {
      ((res.locals.allowed ??= new Set<string>()) as Set<string>).add(route.method);
      if (route.acceptsPublishable && req.method === route.method) res.locals.publishable = true;
      next();
    });
  }
  return guard;
}

/** An app answering what a guard decided: the status, `Allow`, and whether a publishable key may pass. */
function appWith(guard: express.RequestHandler, reference: boolean) {
  const app = express();
  app.use('/api', guard, (_req, res) => {
    // Headers, not a body: HEAD answers carry none.
    if (reference) {
      const allowed = res.locals.allowed as Set<string> | undefined;
      return void res.set({ 'x-allowed': allowed ? [...allowed].sort().join(',') : '-', 'x-publishable': String(res.locals.publishable === true) }).end();
    }
    res.set('x-publishable', String(res.locals.acceptsPublishable === true)).end();
  });
  app.use((error: { status?: number }, _req: express.Request, res: express.Response, _next: express.NextFunction) => void res.status(error.status ?? 500).json({ error: true }));
  return app;
}

const segment = fc.oneof(
  fc.constantFrom('docs', 'search', 'chat', 'upload', 'bulk', 'chunks', 'reindex', 'DOCS', 'Search', 'conversations', 'tickets', 'workspaces', 'keys', 'usage', 'tenant', 'settings', 'widget', 'personas', 'flows', 'doc_1', ''),
  fc.constantFrom('%41', '%zz', '%', 'a%2Fb', 'x.y', '%E0%B8%81'),
  fc.stringMatching(/^[A-Za-z0-9_.~-]{1,6}$/),
);
const method = fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE');

describe('route guard', () => {
  it('decides every path and method as one Express layer per route would (404, 405 with Allow, 400, publishable)', async () => {
    const reference = appWith(expressGuard(ROUTES), true);
    const guarded = appWith(routeGuard(ROUTES), false);
    // Every route's own path with sample parameters, then arbitrary paths made of route words.
    const own = ROUTES.map((r) => ({ method: r.method, path: r.path.replace(/:[A-Za-z]+/g, 'x1') }));
    const samples = fc.sample(fc.record({ method, path: fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => `/${s.join('/')}`) }), { numRuns: 400, seed: 14 });
    for (const { method: m, path } of [...own, ...own.map((o) => ({ ...o, path: `${o.path}/` })), ...samples]) {
      const call = (app: express.Express) => request(app)[m.toLowerCase() as 'get'](`/api${path}`);
      const [want, got] = await Promise.all([call(reference), call(guarded)]);
      const label = `${m} ${path}`;
      if (want.status !== 200) {
        expect(got.status, label).toBe(want.status); // a malformed parameter is 400 either way
        continue;
      }
      const allowed = want.headers['x-allowed'] === '-' ? null : want.headers['x-allowed']!.split(',');
      if (!allowed) {
        expect(got.status, label).toBe(404);
        continue;
      }
      const passes = allowed.includes(m) || (m === 'HEAD' && allowed.includes('GET'));
      expect(got.status, label).toBe(passes ? 200 : 405);
      if (!passes) expect(got.headers.allow, label).toBe([...new Set([...allowed, ...(allowed.includes('GET') ? ['HEAD'] : [])])].sort().join(', '));
      else expect(got.headers['x-publishable'], label).toBe(want.headers['x-publishable']);
    }
  });
});
