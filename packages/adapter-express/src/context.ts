import type { IncomingMessage } from 'node:http';
import type { Addressing, Credentials, Engine, RequestContext } from '@panya/core';
import { errors } from '@panya/core';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { sendProblem } from './problem.js';
import { sessionToken } from './session.js';
import { visitorOf, visitorTokenOf } from './visitor.js';

/** The resolved tenant/workspace/caller of an authenticated API request. */
export function ctxOf(res: Response): RequestContext {
  return res.locals.ctx as RequestContext;
}

/** What the request presents: its Authorization header, session cookie, CSRF header and browser origin. */
export function credentials(req: IncomingMessage & { signedCookies?: unknown }): Credentials {
  const { authorization, origin } = req.headers;
  return { authorization, sessionToken: sessionToken(req), method: req.method ?? '', requestedWith: req.headers['x-requested-with'] !== undefined, origin, visitorToken: visitorTokenOf(req) };
}

/** The tenant and workspace the path addresses (`/api`, `/c/{tenant}/api`, `/c/{tenant}/_w/{workspace}/api`). */
export function addressing(req: Request): Addressing {
  const params = req.params as { tenantSlug?: string; workspaceSlug?: string };
  return {
    ...(params.tenantSlug !== undefined ? { tenantSlug: params.tenantSlug } : {}),
    ...(params.workspaceSlug !== undefined ? { workspaceSlug: params.workspaceSlug } : {}),
  };
}

/** Authenticates with core's one authenticator and keeps the resolved context for the routes. */
export function authenticate(engine: Engine): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    const ctx = await engine.auth.authenticate(credentials(req), addressing(req), 'api', { acceptsPublishable: res.locals.acceptsPublishable === true });
    if (ctx.isErr()) return sendProblem(req, res, ctx.error);
    // A verified visitor is counted by their signed id; others by address and browser id.
    res.locals.ctx = ctx.value.principal.publishable && !ctx.value.visitor ? { ...ctx.value, visitor: visitorOf(req, req.ip) } : ctx.value;
    next();
  };
}

export const notFoundRoute: RequestHandler = (req, res) => sendProblem(req, res, errors.notFound(`Route ${req.method} ${req.path}`));
