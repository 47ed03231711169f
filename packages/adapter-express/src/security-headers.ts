import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { PANYA_API_MAJOR } from './openapi.js';

/**
 * The admin app's policy: everything from this origin, nothing inline (its build emits module
 * scripts and stylesheet files only), no framing, no plugins.
 */
export const ADMIN_CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** The tenant API's addresses (and the MCP endpoint under them): their answers are tenant data. */
const TENANT_DATA = /^\/(?:c\/[^/]+\/(?:_w\/[^/]+\/)?)?api(?:\/|$)/;

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Headers every response carries, set first so a route may still override them: the request id
 * (the caller's, when well-formed); the API version (docs/decisions.md: the spec's paths are
 * version 1, every answer names it); `nosniff` always; `no-store` on tenant data (no shared or
 * browser cache keeps a key's answers); the strict policy on the admin app. Help-center pages set
 * their own (cacheable, hashed style).
 */
export function setBaseHeaders(req: IncomingMessage, res: ServerResponse, path: string): void {
  const incoming = req.headers['x-request-id'];
  res.setHeader('X-Request-Id', typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID());
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (TENANT_DATA.test(path)) res.setHeader('Cache-Control', 'no-store');
  if (path === '/admin' || path.startsWith('/admin/')) {
    res.setHeader('Content-Security-Policy', ADMIN_CSP);
    res.setHeader('Referrer-Policy', 'same-origin');
  }
  res.setHeader('Panya-Api-Version', PANYA_API_MAJOR);
}

export const baseHeaders: RequestHandler = (req, res, next) => {
  setBaseHeaders(req, res, req.path);
  next();
};
