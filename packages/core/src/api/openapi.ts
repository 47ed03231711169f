import { z } from 'zod';
import { PROBLEM_STATUS } from '../problems.js';
import { HTTP_OPERATIONS } from './index.js';
import type { Operation } from '../operations/types.js';

/**
 * A route outside the operation table (multipart, SSE, sign-in, cron, webhooks, MCP, operations
 * endpoints), declared for the document. Every one has a response schema.
 */
export interface DeclaredRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The OpenAPI path, `{param}` style. */
  path: string;
  summary: string;
  /** Empty: no credential (public, or the request carries its own signature, see `summary`). */
  security: ('apiKey' | 'session' | 'cronSecret')[];
  /** Publishable keys (`svc_pub_…`) may call it too. */
  publishable?: true;
  /** Query parameters (strings). */
  query?: { name: string; required?: boolean; description: string }[];
  /** Path parameters with a fixed set of values (default: any string). */
  pathEnums?: Record<string, { values: readonly string[]; description: string }>;
  /** Request body media type and schema (zod where core has one), if any. */
  requestBody?: { contentType: string; schema: z.ZodType | Record<string, unknown> };
  /** The success status (default 200). */
  status?: number;
  /** The success response's media type. */
  responseType: string;
  /** The success response's schema (for `text/event-stream`: one event, `{event, data}`). */
  responseSchema: z.ZodType | Record<string, unknown>;
}

type Json = Record<string, unknown>;

const problemSchema: Json = {
  type: 'object',
  description: 'RFC 9457 problem details; `code` is the machine-readable error.',
  required: ['type', 'title', 'status', 'code'],
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    instance: { type: 'string' },
    code: { type: 'string', enum: Object.keys(PROBLEM_STATUS) },
    requestId: { type: 'string' },
  },
  additionalProperties: true,
};

/**
 * Shared and recursive parts of the schemas, moved to `components.schemas` (a `$ref` resolves from
 * the document root). Reset by each `openApiDocument` call, which is synchronous.
 */
let components: Record<string, Json> = {};

/** JSON Schema (2020-12, OpenAPI 3.1's dialect) of a zod schema; what JSON cannot express is left open. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  delete out.$schema;
  const defs = out.$defs as Record<string, Json> | undefined;
  if (!defs) return out;
  delete out.$defs;
  const names = new Map(Object.keys(defs).map((name) => [name, `S${Object.keys(components).length}_${name.replace(/[^A-Za-z0-9_.-]/g, '')}`]));
  let i = 0;
  for (const [name, unique] of names) names.set(name, `${unique}_${i++}`);
  const relink = (value: Json): Json => JSON.parse(JSON.stringify(value).replace(/"#\/\$defs\/([^"]+)"/g, (_, name: string) => JSON.stringify(`#/components/schemas/${names.get(name)}`)));
  for (const [name, def] of Object.entries(defs)) components[names.get(name)!] = relink(def);
  return relink(out);
}

/** Path and query parameters from an object schema's properties. */
function parameters(schema: z.ZodType | undefined, where: 'path' | 'query'): Json[] {
  if (!schema) return [];
  const s = jsonSchema(schema, 'input');
  const properties = (s.properties ?? {}) as Record<string, Json>;
  const required = new Set((s.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({ name, in: where, required: where === 'path' || required.has(name), schema: property }));
}

const openApiPath = (expressPath: string) => expressPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
const errorResponses: Json = { default: { description: 'Error', content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } } };
/** Every POST of the table takes `Idempotency-Key` (Stripe's semantics, kept 24 h). */
const idempotencyKeyHeader: Json = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'A retry with the same key and body gets the first response (`Idempotent-Replayed: true`); the same key with another body, or while the first is running, is 409. Keys are kept 24 hours.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};
const securityOf = (names: readonly string[]) => names.map((name) => ({ [name]: [] }));
const schemaOf = (schema: z.ZodType | Record<string, unknown>, io: 'input' | 'output') => (schema instanceof z.ZodType ? jsonSchema(schema, io) : schema);

function operationEntry(op: Operation): Json {
  const http = op.http!;
  if (!op.output) throw new Error(`Operation ${op.id} has no output schema.`);
  const status = typeof http.status === 'number' ? http.status : 200;
  const entry: Json = {
    operationId: op.id,
    ...(op.tool ? { summary: op.tool.title, description: op.tool.description } : {}),
    'x-panya-scope': op.scope,
    security: securityOf(op.acceptsPublishable ? ['apiKey', 'session', 'publishableKey'] : ['apiKey', 'session']),
    ...(op.acceptsPublishable ? { 'x-panya-publishable': true } : {}),
    parameters: [...parameters(op.input.params, 'path'), ...parameters(op.input.query, 'query'), ...(http.method === 'POST' ? [idempotencyKeyHeader] : [])],
    responses: {
      [String(status)]: { description: 'Success', content: { 'application/json': { schema: jsonSchema(op.output, 'output') } } },
      ...errorResponses,
    },
  };
  if (op.input.body) entry.requestBody = { required: true, content: { 'application/json': { schema: jsonSchema(op.input.body, 'input') } } };
  return entry;
}

/**
 * The OpenAPI 3.1 document of the tenant API, generated from the operation table's zod schemas
 * plus the declared routes that live outside it. Paths are under `/api`; the same API answers at
 * `/c/{tenantSlug}/api` and `/c/{tenantSlug}/_w/{workspaceSlug}/api`.
 */
export function openApiDocument(options: { version: string; operations?: readonly Operation[]; declared?: readonly DeclaredRoute[] }): Json {
  const paths: Record<string, Record<string, Json>> = {};
  components = {};
  for (const op of options.operations ?? HTTP_OPERATIONS) {
    const path = `/api${openApiPath(op.http!.path)}`;
    (paths[path] ??= {})[op.http!.method.toLowerCase()] = operationEntry(op);
  }
  for (const route of options.declared ?? []) {
    const pathParams = [...route.path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => {
      const fixed = route.pathEnums?.[m[1]!];
      return { name: m[1], in: 'path', required: true, ...(fixed ? { description: fixed.description, schema: { type: 'string', enum: [...fixed.values] } } : { schema: { type: 'string' } }) };
    });
    (paths[route.path] ??= {})[route.method.toLowerCase()] = {
      operationId: `${route.method.toLowerCase()}${route.path.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
      summary: route.summary,
      security: securityOf(route.publishable ? [...route.security, 'publishableKey'] : route.security),
      ...(route.publishable ? { 'x-panya-publishable': true } : {}),
      parameters: [...pathParams, ...(route.query ?? []).map((q) => ({ name: q.name, in: 'query', required: q.required ?? false, description: q.description, schema: { type: 'string' } }))],
      ...(route.requestBody ? { requestBody: { required: true, content: { [route.requestBody.contentType]: { schema: schemaOf(route.requestBody.schema, 'input') } } } } : {}),
      responses: { [String(route.status ?? 200)]: { description: 'Success', content: { [route.responseType]: { schema: schemaOf(route.responseSchema, 'output') } } }, ...errorResponses },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Panya API', version: options.version },
    paths,
    components: {
      schemas: { Problem: problemSchema, ...components },
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'An API key (`svc_live_…`).' },
        publishableKey: { type: 'http', scheme: 'bearer', description: 'A publishable key (`svc_pub_…`) from a page on one of the tenant\'s allowed origins: search, answer and chat only (`x-panya-publishable`).' },
        session: { type: 'apiKey', in: 'cookie', name: 'panya_session', description: 'The admin app session; writes also need `X-Requested-With`.' },
        cronSecret: { type: 'http', scheme: 'bearer', description: '`PANYA_CRON_SECRET`, for `/api/cron/*`.' },
      },
    },
  };
}
