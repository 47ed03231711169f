import { Validator } from '@seriousme/openapi-schema-validator';
import { HTTP_OPERATIONS, defineOperation, openApiDocument, type Operation } from '@panya/core';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { DECLARED_ROUTES } from '../src/openapi.js';
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
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['apiKey', 'cronSecret', 'session']);

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
