import { errors, type Engine } from '@panya/core';
import cors from 'cors';
import type { Request, RequestHandler } from 'express';
import { sendProblem } from './problem.js';

/** The tenant API addresses browsers may call (the help center and webhooks are not among them). */
export const API_PATHS = ['/api', '/c/:tenantSlug/api', '/c/:tenantSlug/_w/:workspaceSlug/api'];

/** Rate-limit and request headers a page may read. */
const EXPOSED_HEADERS = ['X-Request-Id', 'Location', 'Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy'];

/**
 * CORS for the tenant API: a preflight from an allowed origin is answered (204 with the allow
 * headers), from any other origin it gets no allow headers; responses carry
 * `Access-Control-Allow-Origin` only for allowed origins, with `Vary: Origin` always. Which origins
 * are allowed is core's rule (`engine.auth.corsAllows`); keys travel in `Authorization`, never
 * cookies, so credentials are not allowed.
 */
export function browserCors(engine: Engine): RequestHandler {
  const handler = cors((req, done) => {
    const origin = req.headers.origin;
    if (!origin) return done(null, { origin: false });
    const { tenantSlug } = (req as Request).params as { tenantSlug?: string };
    engine.auth.corsAllows(origin, tenantSlug).then(
      (allowed) =>
        done(null, {
          origin: allowed ? origin : false,
          methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
          allowedHeaders: ['Authorization', 'Content-Type', 'X-Request-Id', 'Last-Event-ID'],
          exposedHeaders: EXPOSED_HEADERS,
          maxAge: 600,
        }),
      (error: unknown) => done(error as Error),
    );
  });
  return (req, res, next) => {
    const origin = req.headers.origin;
    // No Origin (a server, most API traffic): CORS has nothing to allow or refuse.
    if (!origin) return next();
    res.vary('Origin');
    handler(req, res, (error?: unknown) => {
      if (error) return next(error);
      // A preflight the allow-list did not answer: say why, instead of asking for a key it never carries.
      if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
        return sendProblem(req, res, errors.forbidden(`The origin ${origin} is not in the tenant's allowed origins.`));
      }
      next();
    });
  };
}
