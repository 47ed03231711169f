import express, { Router } from 'express';
import fc from 'fast-check';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { HTTP_OPERATIONS } from '@panya/core';
import { HAND_WRITTEN_ROUTES } from '../src/app.js';
import { compileApiRoutes } from '../src/api/match.js';

/** The table as Express would route it: the hand-written routes first, then one layer per entry, in table order. */
function expressReference() {
  const routes = [...HAND_WRITTEN_ROUTES.map((r) => ({ ...r, id: `app:${r.path}` })), ...HTTP_OPERATIONS.map((op) => ({ method: op.http!.method, path: op.http!.path, id: op.id }))];
  const api = Router({ mergeParams: true });
  for (const route of routes) {
    api.all(route.path, (req, res, next) => {
      ((res.locals.allowed ??= new Set<string>()) as Set<string>).add(route.method);
      if (!res.locals.chosen && (req.method === route.method || (req.method === 'HEAD' && route.method === 'GET'))) {
        res.locals.chosen = route.id;
        const { tenantSlug: _t, workspaceSlug: _w, ...own } = req.params as Record<string, string>;
        res.locals.params = own;
      }
      next();
    });
  }
  const app = express();
  const answer: express.RequestHandler = (req, res) => {
    const allowed = res.locals.allowed as Set<string> | undefined;
    res.set({
      'x-allowed': allowed ? [...allowed].sort().join(',') : '-',
      'x-chosen': String(res.locals.chosen ?? '-'),
      'x-params': encodeURIComponent(JSON.stringify(res.locals.params ?? {})),
      'x-tenant': String((req.params as { tenantSlug?: string }).tenantSlug ?? '-'),
      'x-workspace': String((req.params as { workspaceSlug?: string }).workspaceSlug ?? '-'),
    }).end();
  };
  for (const mount of ['/api', '/c/:tenantSlug/_w/:workspaceSlug/api', '/c/:tenantSlug/api']) app.use(mount, api, answer);
  app.use((error: { status?: number }, _req: express.Request, res: express.Response, _next: express.NextFunction) => void res.status(error.status ?? 500).end());
  return app;
}

const segment = fc.oneof(
  fc.constantFrom('docs', 'search', 'chat', 'upload', 'bulk', 'chunks', 'reindex', 'DOCS', 'Search', 'conversations', 'tickets', 'workspaces', 'api-keys', 'usage', 'tenant', 'settings', 'widget', 'personas', 'flows', 'doc_1', ''),
  fc.constantFrom('%41', '%zz', 'a%2Fb', 'x.y', '%E0%B8%81'),
  fc.stringMatching(/^[A-Za-z0-9_.~-]{1,6}$/),
);
const method = fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE');
const root = fc.constantFrom('/api', '/c/acme/api', '/c/acme/_w/brand-b/api', '/C/acme/API', '/c/ac%41me/api');

describe('the compiled matcher', () => {
  it('finds the entry, parameters, addressing, 405 and Allow exactly as Express routes the table', async () => {
    const reference = expressReference();
    const match = compileApiRoutes(HTTP_OPERATIONS, HAND_WRITTEN_ROUTES);
    const own = HTTP_OPERATIONS.map((op) => ({ method: op.http!.method, root: '/api', path: op.http!.path.replace(/:[A-Za-z]+/g, 'x1') }));
    const samples = fc.sample(fc.record({ method, root, path: fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => `/${s.join('/')}`) }), { numRuns: 400, seed: 37 });
    for (const { method: m, root: r, path } of [...own, ...own.map((o) => ({ ...o, path: `${o.path}/` })), ...samples]) {
      const url = `${r}${path}`;
      const label = `${m} ${url}`;
      const want = await request(reference)[m.toLowerCase() as 'get'](url);
      let got: ReturnType<typeof match>;
      try {
        got = match(m, url);
      } catch (error) {
        expect(want.status, label).toBe((error as { status?: number }).status);
        continue;
      }
      if (want.status !== 200) {
        expect(want.status, label).toBe(404);
        expect(got.kind, label).toBe('elsewhere');
        continue;
      }
      const chosen = want.headers['x-chosen'];
      if (want.headers['x-allowed'] === '-') {
        expect(got.kind, label).toBe('elsewhere');
        continue;
      }
      if (chosen !== '-') {
        if (chosen!.startsWith('app:')) expect(got.kind, label).toBe('elsewhere');
        else {
          expect(got.kind === 'operation' && got.operation.id, label).toBe(chosen);
          if (got.kind !== 'operation') continue;
          expect(got.params, label).toEqual(JSON.parse(decodeURIComponent(want.headers['x-params']!)));
          expect(got.addressing.tenantSlug ?? '-', label).toBe(want.headers['x-tenant']);
          expect(got.addressing.workspaceSlug ?? '-', label).toBe(want.headers['x-workspace']);
        }
        continue;
      }
      expect(got.kind, label).toBe('method_not_allowed');
      if (got.kind === 'method_not_allowed') expect([...got.allowed].sort().join(','), label).toBe(want.headers['x-allowed']);
    }
  });

  it('names the route template and the API root as addressed', () => {
    const match = compileApiRoutes();
    expect(match('GET', '/c/acme/_w/brand-b/api/docs/doc_1')).toMatchObject({ kind: 'operation', route: '/c/:tenantSlug/_w/:workspaceSlug/api/docs/:id', base: '/c/acme/_w/brand-b/api', params: { id: 'doc_1' } });
    expect(match('POST', '/api/search')).toMatchObject({ kind: 'operation', route: '/api/search', base: '/api' });
    expect(match('POST', '/apis/search')).toEqual({ kind: 'elsewhere' });
    expect(match('GET', '/healthz')).toEqual({ kind: 'elsewhere' });
  });
});
