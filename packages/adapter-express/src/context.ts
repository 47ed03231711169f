import type { Engine, RequestContext } from '@panya/core';
import { errors } from '@panya/core';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { sendProblem } from './problem.js';
import { isSafeForSession, sessionToken } from './session.js';

/** The resolved tenant/workspace/caller of an authenticated API request. */
export function ctxOf(res: Response): RequestContext {
  return res.locals.ctx as RequestContext;
}

export function bearer(req: Request): string | undefined {
  const header = req.get('authorization');
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

/**
 * Authenticates the API key and resolves the addressed tenant and workspace
 * (`/api`, `/c/{tenant}/api`, `/c/{tenant}/_w/{workspace}/api`).
 */
export function authenticate(engine: Engine): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    const params = req.params as { tenantSlug?: string; workspaceSlug?: string };
    const token = sessionToken(req);
    // A signed-in user (admin app) on a tenant path; API keys take precedence when both are sent.
    if (!req.get('authorization') && token && params.tenantSlug !== undefined) {
      if (!isSafeForSession(req)) return sendProblem(req, res, errors.forbidden('Cookie-authenticated writes need the X-Requested-With header.'));
      const user = await engine.users.authenticateSession(token);
      if (user.isErr()) return sendProblem(req, res, user.error);
      const ctx = await engine.users.resolve(user.value, params.tenantSlug, params.workspaceSlug);
      if (ctx.isErr()) return sendProblem(req, res, ctx.error);
      res.locals.ctx = ctx.value;
      return next();
    }
    const principal = await engine.apiKeys.authenticate(bearer(req));
    if (principal.isErr()) return sendProblem(req, res, principal.error);
    const ctx = await engine.access.resolve(principal.value, {
      ...(params.tenantSlug !== undefined ? { tenantSlug: params.tenantSlug } : {}),
      ...(params.workspaceSlug !== undefined ? { workspaceSlug: params.workspaceSlug } : {}),
    });
    if (ctx.isErr()) return sendProblem(req, res, ctx.error);
    res.locals.ctx = ctx.value;
    next();
  };
}

export const notFoundRoute: RequestHandler = (req, res) => sendProblem(req, res, errors.notFound(`Route ${req.method} ${req.path}`));
