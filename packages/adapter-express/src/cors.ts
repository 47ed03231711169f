import { errors, type Engine } from '@panya/core';
import cors from 'cors';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { sendProblem } from './problem.js';

/** The tenant API addresses browsers may call (the help center and webhooks are not among them). */
export const API_PATHS = ['/api', '/c/:tenantSlug/api', '/c/:tenantSlug/_w/:workspaceSlug/api'];

/** Rate-limit and request headers a page may read. */
const EXPOSED_HEADERS = ['X-Request-Id', 'Location', 'Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy'];

/**
 * CORS for the tenant API, on Node's response (the compiled handler and the Express routes): an
 * allowed origin's preflight is answered (204 with the allow headers; the returned promise then
 * never settles, the response is complete); any other request gets `Access-Control-Allow-Origin`
 * only from an allowed origin, and `Vary: Origin` always. Which origins are allowed is core's
 * rule (`engine.auth.corsAllows`); keys travel in `Authorization`, never cookies, so credentials
 * are not allowed. For requests with an `Origin` only.
 */
export function corsHeaders(engine: Engine): (req: IncomingMessage, res: ServerResponse, tenantSlug: string | undefined) => Promise<void> {
  const options = { methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], allowedHeaders: ['Authorization', 'Content-Type', 'X-Request-Id', 'Last-Event-ID', 'X-Panya-Visitor', 'X-Panya-Visitor-Token', 'Idempotency-Key'], exposedHeaders: EXPOSED_HEADERS, maxAge: 600 };
  // The allowed origin is reflected; a refused one gets no CORS headers (and a refused preflight goes on).
  const allowed = cors({ ...options, origin: true });
  const refused = cors({ ...options, origin: false });
  return async (req, res, tenantSlug) => {
    const origin = req.headers.origin;
    // The response's first Vary (CORS runs before every route); an allowed origin's headers add to it.
    res.setHeader('Vary', 'Origin');
    const handler = origin && (await engine.auth.corsAllows(origin, tenantSlug)) ? allowed : refused;
    return new Promise((resolve, reject) => handler(req, res, (error?: unknown) => (error ? reject(error as Error) : resolve())));
  };
}

/** `corsHeaders` for the Express app's tenant API paths; a preflight the allow-list did not answer is a 403 problem. */
export function browserCors(engine: Engine): RequestHandler {
  const apply = corsHeaders(engine);
  return (req, res, next) => {
    const origin = req.headers.origin;
    // No Origin (a server, most API traffic): CORS has nothing to allow or refuse.
    if (!origin) return next();
    apply(req, res, (req.params as { tenantSlug?: string }).tenantSlug).then(() => {
      // A preflight the allow-list did not answer: say why, instead of asking for a key it never carries.
      if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
        return sendProblem(req, res, errors.forbidden(`The origin ${origin} is not in the tenant's allowed origins.`));
      }
      next();
    }, next);
  };
}
