import type { RequestHandler } from 'express';

/**
 * The admin app's policy: everything from this origin, nothing inline (its build emits module
 * scripts and stylesheet files only), no framing, no plugins.
 */
export const ADMIN_CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** The tenant API's addresses (and the MCP endpoint under them): their answers are tenant data. */
const TENANT_DATA = /^\/(?:c\/[^/]+\/(?:_w\/[^/]+\/)?)?api(?:\/|$)/;

/**
 * Headers every response carries, set first so a route may still override them: `nosniff`
 * always; `no-store` on tenant data (no shared or browser cache keeps a key's answers); the
 * strict policy on the admin app. Help-center pages set their own (cacheable, hashed style).
 */
export const securityHeaders: RequestHandler = (req, res, next) => {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (TENANT_DATA.test(req.path)) res.setHeader('Cache-Control', 'no-store');
  if (req.path === '/admin' || req.path.startsWith('/admin/')) {
    res.setHeader('Content-Security-Policy', ADMIN_CSP);
    res.setHeader('Referrer-Policy', 'same-origin');
  }
  next();
};
