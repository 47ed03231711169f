import { Validator } from '@seriousme/openapi-schema-validator';
import { HTTP_OPERATIONS, defineOperation, openApiDocument, type Operation } from '@panya/core';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { DECLARED_ROUTES } from '../src/openapi.js';
import { HAND_WRITTEN_ROUTES } from '../src/app.js';
import { setup } from './helpers.js';

const openApiPath = (path: string) => `/api${path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`;

describe('GET /api/openapi.json', () => {
  it('serves, without a key, an OpenAPI 3.1 document that validates and lists every route', async () => {
    const { app } = await setup();
    const res = await request(app).get('/api/openapi.json').expect(200);
    const doc = res.body;
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toMatch(/^1\./);
    expect(res.headers['panya-api-version']).toBe('1');
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['apiKey', 'cronSecret', 'publishableKey', 'session']);
    // The cron route names its jobs, each with its schedule.
    const job = doc.paths['/api/cron/{job}'].get.parameters.find((p: { name: string }) => p.name === 'job');
    expect(job.schema.enum).toEqual(['sla-breach', 'resolutions', 'retention', 'workspace-cleanup', 'usage-reporter', 'hostname-poll', 'vectorize-reindex', 'content-gaps']);
    expect(job.description).toContain('`usage-reporter` (`0 1 1 * *`)');

    for (const op of HTTP_OPERATIONS) {
      const entry = doc.paths[openApiPath(op.http!.path)]?.[op.http!.method.toLowerCase()];
      expect(entry, `${op.http!.method} ${op.http!.path}`).toBeDefined();
      expect(entry.operationId).toBe(op.id);
      const success = Object.entries(entry.responses).find(([status]) => status.startsWith('2'))!;
      expect(success[1]).toHaveProperty(['content', 'application/json', 'schema']);
      expect(entry.responses.default.content['application/problem+json'].schema).toEqual({ $ref: '#/components/schemas/Problem' });
      if (op.input.body) expect(entry.requestBody.content['application/json'].schema.type).toBeDefined();
      const pathParams = [...op.http!.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]).sort();
      expect(entry.parameters.filter((p: { in: string }) => p.in === 'path').map((p: { name: string }) => p.name).sort()).toEqual(pathParams);
    }
    for (const route of DECLARED_ROUTES) expect(doc.paths[route.path]?.[route.method.toLowerCase()]).toBeDefined();
    // Routes publishable keys may call are marked, and only those.
    const publishable = Object.entries(doc.paths as Record<string, Record<string, Record<string, unknown>>>).flatMap(([path, methods]) => Object.entries(methods).filter(([, e]) => e['x-panya-publishable']).map(([m]) => `${m.toUpperCase()} ${path}`));
    expect(publishable.sort()).toEqual(['GET /api/widget', 'POST /api/answer', 'POST /api/chat', 'POST /api/search']);
    expect(doc.paths['/api/search'].post.security).toContainEqual({ publishableKey: [] });
  });

  it('lists every route the app serves, each with a response schema', async () => {
    const { app } = await setup();
    const doc = (await request(app).get('/api/openapi.json').expect(200)).body as { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema?: unknown }> }> }>> };
    const documented = (method: string, path: string) => doc.paths[path]?.[method.toLowerCase()];
    // The hand-written tenant API routes (mounted under every API root).
    for (const route of HAND_WRITTEN_ROUTES) expect(documented(route.method, openApiPath(route.path)), `${route.method} /api${route.path}`).toBeDefined();
    // The app's own routes: tenant-addressed aliases of /api routes, and the OAuth refusals MCP hosts probe, excepted.
    const refusals = /^\/(\.well-known\/(oauth-authorization-server|openid-configuration)|register|authorize|token)/;
    const layers = (app as unknown as { router: { stack: { route?: { path: string | string[]; methods: Record<string, boolean> } }[] } }).router.stack;
    const routes = layers.flatMap((layer) => (layer.route ? [layer.route.path].flat().map((path) => ({ path, methods: Object.keys(layer.route!.methods) })) : []));
    expect(routes.length).toBeGreaterThan(10);
    for (const { path, methods } of routes) {
      if (refusals.test(path) || path.includes('*')) continue;
      const apiPath = path.replace(/^\/c\/:tenantSlug(\/_w\/:workspaceSlug)?\/api/, '/api').replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      // `app.all` (method guards, MCP) lists every method: the path must be there; others, each method.
      const served = methods.length > 8 ? [] : methods.filter((m) => m !== '_all' && m !== 'head').map((m) => m.toUpperCase());
      const entries = doc.paths[apiPath];
      expect(entries, `${path} is not in the OpenAPI document`).toBeDefined();
      for (const method of served) expect(entries![method.toLowerCase()], `${method} ${path}`).toBeDefined();
    }
    // Every documented success response has a schema.
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, entry] of Object.entries(methods)) {
        const success = Object.entries(entry.responses).find(([status]) => status.startsWith('2'))!;
        const content = Object.values(success[1].content ?? {});
        expect(content.length, `${method} ${path}`).toBeGreaterThan(0);
        for (const media of content) expect(media.schema, `${method} ${path}`).toBeDefined();
      }
    }
  });

  it('serves the rendered reference at /docs with its renderer from this server, no CDN', async () => {
    const { app } = await setup();
    const page = await request(app).get('/docs').expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('data-url="/api/openapi.json"');
    const scripts = [...page.text.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts).toEqual(['/docs/scalar.js']);
    expect(page.text).not.toMatch(/https?:\/\//);
    const bundle = await request(app).get('/docs/scalar.js').expect(200);
    expect(bundle.headers['content-type']).toMatch(/javascript/);
    expect(Number(bundle.headers['content-length'])).toBeGreaterThan(1_000_000);
  });

  it('the reference and the document answer If-None-Match with 304; tenant API answers carry no ETag', async () => {
    const { app, acme } = await setup();
    for (const path of ['/docs', '/api/openapi.json']) {
      const first = await request(app).get(path).expect(200);
      expect(first.headers.etag).toMatch(/^"[\w-]+"$/);
      await request(app).get(path).set('If-None-Match', first.headers.etag!).expect(304);
      await request(app).get(path).set('If-None-Match', '"other"').expect(200);
    }
    // `no-store` data: nothing may revalidate it, so no validator is computed from its body.
    const listed = await request(app).get('/api/docs').set(acme.auth).expect(200);
    expect(listed.headers['cache-control']).toBe('no-store');
    expect(listed.headers.etag).toBeUndefined();
    const searched = await request(app).post('/api/search').set(acme.auth).send({ query: 'anything' }).expect(200);
    expect(searched.headers.etag).toBeUndefined();
  });

  it('describes a body from its zod schema', () => {
    const doc = openApiDocument({ version: '0' }) as { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown>; required: string[] } }> } }>> };
    const create = doc.paths['/api/docs']!.post!.requestBody!.content['application/json']!.schema;
    expect(create.required).toEqual(expect.arrayContaining(['title', 'contentMd']));
  });

  it('refuses an operation registered without a schema', () => {
    const bare = defineOperation({
      id: 'bare',
      http: { method: 'GET', path: '/bare' },
      scope: 'read',
      counted: false,
      input: {},
      output: undefined as unknown as Operation['output'],
      run: async () => {
        throw new Error('not called');
      },
    });
    expect(() => openApiDocument({ version: '0', operations: [bare] })).toThrow(/bare has no output schema/);
  });
});
