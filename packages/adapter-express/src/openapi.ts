import { chatEventSchema, chatSchema, difyRetrievalResponseSchema, difyRetrievalSchema, loginSchema, openApiDocument, type DeclaredRoute } from '@panya/core';
import type { RequestHandler } from 'express';

/** Routes with HTTP plumbing of their own, outside the operation table: listed here for the document. */
export const DECLARED_ROUTES: readonly DeclaredRoute[] = [
  {
    method: 'POST',
    path: '/api/docs/upload',
    summary: 'Upload files (multipart field `file`) as documents; `?wait=true` answers once indexed.',
    security: ['apiKey', 'session'],
    requestBody: { contentType: 'multipart/form-data', schema: { type: 'object', properties: { file: { type: 'array', items: { type: 'string', format: 'binary' } } }, required: ['file'] } },
    responseType: 'application/json',
  },
  {
    method: 'POST',
    path: '/api/chat',
    summary: 'Streaming multi-turn chat as server-sent events.',
    security: ['apiKey', 'session'],
    requestBody: { contentType: 'application/json', schema: chatSchema },
    responseType: 'text/event-stream',
    responseSchema: chatEventSchema.describe('One server-sent event: its `event` name and its parsed JSON `data`.'),
  },
  {
    method: 'POST',
    path: '/api/auth/login',
    summary: 'Sign in to the admin app; sets the session cookie.',
    security: [],
    requestBody: { contentType: 'application/json', schema: loginSchema },
    responseType: 'application/json',
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
  { method: 'POST', path: '/api/auth/logout', summary: 'Ends the session.', security: ['session'], responseType: 'application/json' },
  { method: 'POST', path: '/api/cron/{job}', summary: 'Runs one scheduled job (also GET).', security: ['cronSecret'], responseType: 'application/json' },
];

/** The `info.version` of the OpenAPI document: the API's version. */
export const PANYA_API_VERSION = '0.1.0';

/** The whole document: the operation table and the declared routes. */
export const apiDocument = () => openApiDocument({ version: PANYA_API_VERSION, declared: DECLARED_ROUTES });

/** `GET /api/openapi.json`: public, built once per app. */
export function openApiRoute(): RequestHandler {
  const document = JSON.stringify(apiDocument());
  return (_req, res) => {
    res.type('application/json').send(document);
  };
}
