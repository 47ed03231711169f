import { chatEventSchema, chatSchema, difyRetrievalResponseSchema, difyRetrievalSchema, JOB_NAMES, JOBS, loginSchema, openApiDocument, type DeclaredRoute } from '@panya/core';
import type { RequestHandler } from 'express';
import { etagOf } from './etag.js';

type Json = Record<string, unknown>;
const object = (properties: Record<string, Json>, required: string[] = Object.keys(properties)): Json => ({ type: 'object', properties, required, additionalProperties: true });
const anyObject: Json = { type: 'object', additionalProperties: true };
const text: Json = { type: 'string' };
const jsonRpc: Json = { ...object({ jsonrpc: { const: '2.0' } }), description: 'A JSON-RPC 2.0 message (or batch) of the Model Context Protocol.' };

/**
 * Every route with HTTP plumbing of its own, outside the operation table: listed here for the
 * document (`openapi.test.ts` fails when a route of the app or a hand-written API route is not).
 * The same tenant API also answers under `/c/{tenantSlug}` and `/c/{tenantSlug}/_w/{workspaceSlug}`.
 */
export const DECLARED_ROUTES: readonly DeclaredRoute[] = [
  {
    method: 'POST',
    path: '/api/docs/upload',
    summary: 'Upload files (multipart field `file`) as documents; `?wait=true` answers once indexed.',
    security: ['apiKey', 'session'],
    query: [{ name: 'wait', description: '`true`: answer once the documents are indexed.' }],
    requestBody: { contentType: 'multipart/form-data', schema: { type: 'object', properties: { file: { type: 'array', items: { type: 'string', format: 'binary' } } }, required: ['file'] } },
    status: 201,
    responseType: 'application/json',
    responseSchema: object({ data: { type: 'array', items: anyObject } }),
  },
  {
    method: 'POST',
    path: '/api/chat',
    summary: 'Streaming multi-turn chat as server-sent events.',
    security: ['apiKey', 'session'],
    publishable: true,
    requestBody: { contentType: 'application/json', schema: chatSchema },
    responseType: 'text/event-stream',
    responseSchema: chatEventSchema.describe('One server-sent event: its `event` name and its parsed JSON `data`.'),
  },
  {
    method: 'GET',
    path: '/api/audit/export',
    summary: 'The audit log oldest first as JSON lines (one entry per line, with its chain hashes); `panya audit verify` checks the chain.',
    security: ['apiKey', 'session'],
    responseType: 'application/x-ndjson',
    responseSchema: anyObject,
  },
  {
    method: 'POST',
    path: '/api/dify/retrieval',
    summary: "Dify's external knowledge API: register `{server}/api/dify` as the endpoint; `knowledge_id` is a workspace slug or id; errors are `{error_code, error_msg}`.",
    security: ['apiKey'],
    requestBody: { contentType: 'application/json', schema: difyRetrievalSchema },
    responseType: 'application/json',
    responseSchema: difyRetrievalResponseSchema,
  },
  {
    method: 'POST',
    path: '/api/mcp',
    summary: 'The MCP tool server (Streamable HTTP): a key with the `mcp` scope; also under the tenant and workspace addresses.',
    security: ['apiKey'],
    requestBody: { contentType: 'application/json', schema: jsonRpc },
    responseType: 'application/json',
    responseSchema: jsonRpc,
  },
  { method: 'GET', path: '/api/mcp', summary: 'MCP: the server-to-client event stream (Streamable HTTP).', security: ['apiKey'], responseType: 'text/event-stream', responseSchema: jsonRpc },
  { method: 'DELETE', path: '/api/mcp', summary: 'MCP: ends a session (Streamable HTTP).', security: ['apiKey'], responseType: 'application/json', responseSchema: anyObject },
  {
    method: 'GET',
    path: '/.well-known/oauth-protected-resource',
    summary: 'RFC 9728 metadata for MCP hosts: no authorization server; the API key is the credential.',
    security: [],
    responseType: 'application/json',
    responseSchema: anyObject,
  },
  {
    method: 'POST',
    path: '/api/auth/login',
    summary: 'Sign in to the admin app; sets the session cookie.',
    security: [],
    requestBody: { contentType: 'application/json', schema: loginSchema },
    responseType: 'application/json',
    responseSchema: anyObject,
  },
  { method: 'POST', path: '/api/auth/logout', summary: 'Ends the session.', security: ['session'], status: 204, responseType: 'application/json', responseSchema: {} },
  { method: 'GET', path: '/api/auth/session', summary: 'Who is signed in, and the tenants and roles the admin app may open.', security: ['session'], responseType: 'application/json', responseSchema: anyObject },
  {
    method: 'GET',
    path: '/api/cron/{job}',
    summary: 'Runs one scheduled job for every tenant (`/c/{tenantSlug}/api/cron/{job}`: one tenant, also with an owner session).',
    security: ['cronSecret'],
    pathEnums: { job: { values: JOB_NAMES, description: `The job; its UTC schedule under \`panya serve --cron\`: ${JOB_NAMES.map((name) => `\`${name}\` ${JOBS[name].schedule ? `(\`${JOBS[name].schedule}\`)` : '(on demand)'}`).join(', ')}.` } },
    query: [{ name: 'budgetMs', description: 'Time budget of jobs that work in slices (1..600000).' }],
    responseType: 'application/json',
    responseSchema: object({ job: text, ran: { type: 'boolean' } }),
  },
  {
    method: 'POST',
    path: '/api/billing/webhook',
    summary: "The payment processor's events; the `Stripe-Signature` header over the raw body is the credential.",
    security: [],
    requestBody: { contentType: 'application/json', schema: anyObject },
    responseType: 'application/json',
    responseSchema: anyObject,
  },
  {
    method: 'POST',
    path: '/api/connectors/webhook',
    summary: 'Content-sync events (`document.upsert`, `document.delete`) signed with the tenant\'s secret (`Panya-Signature`); the tenant from the address or `Panya-Tenant`.',
    security: [],
    requestBody: { contentType: 'application/json', schema: object({ id: text, type: { enum: ['document.upsert', 'document.delete'] }, externalId: text }) },
    responseType: 'application/json',
    responseSchema: anyObject,
  },
  {
    method: 'GET',
    path: '/api/edge/tls-allowed',
    summary: "The reverse proxy's on-demand TLS ask: 200 for an active custom hostname, else 404.",
    security: [],
    query: [{ name: 'domain', required: true, description: 'The hostname a certificate is asked for.' }],
    responseType: 'text/plain',
    responseSchema: text,
  },
  { method: 'GET', path: '/api/ops/hostnames', summary: "The operator's view of custom hostnames.", security: ['cronSecret'], responseType: 'application/json', responseSchema: anyObject },
  { method: 'GET', path: '/healthz', summary: 'Liveness: the process answers.', security: [], responseType: 'application/json', responseSchema: object({ status: { const: 'ok' } }) },
  {
    method: 'GET',
    path: '/readyz',
    summary: 'Readiness: database reachable, migrations current, ingest worker alive (else 503 naming what failed).',
    security: [],
    responseType: 'application/json',
    responseSchema: object({ status: { const: 'ready' }, checks: anyObject }),
  },
  { method: 'GET', path: '/metrics', summary: 'Prometheus metrics (text exposition format); keep it on the private network.', security: [], responseType: 'text/plain', responseSchema: text },
  { method: 'GET', path: '/api/openapi.json', summary: 'This document.', security: [], responseType: 'application/json', responseSchema: anyObject },
  { method: 'GET', path: '/docs', summary: 'The rendered API reference of this document.', security: [], responseType: 'text/html', responseSchema: text },
  { method: 'GET', path: '/docs/scalar.js', summary: 'The reference page\'s renderer (Scalar), served from this server.', security: [], responseType: 'text/javascript', responseSchema: text },
  { method: 'GET', path: '/widget.js', summary: 'The chat widget: embed with <script src=".../widget.js" data-key="svc_pub_…" async>.', security: [], responseType: 'text/javascript', responseSchema: text },
];

/** The `info.version` of the OpenAPI document: the API's version. */
export const PANYA_API_VERSION = '1.0.0';
/** The major version every response names (`Panya-Api-Version`); a breaking change would add `/api/v2/…` paths beside these. */
export const PANYA_API_MAJOR = '1';

/** The whole document: the operation table and the declared routes. */
export const apiDocument = () => openApiDocument({ version: PANYA_API_VERSION, declared: DECLARED_ROUTES });

/** `GET /api/openapi.json`: public, built once per app. */
export function openApiRoute(): RequestHandler {
  const document = JSON.stringify(apiDocument());
  const etag = etagOf(document);
  return (_req, res) => {
    res.type('application/json').set('ETag', etag).send(document);
  };
}
