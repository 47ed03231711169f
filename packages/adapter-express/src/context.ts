import type { Engine, RequestContext } from '@panya/core';
import { errors } from '@panya/core';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { sendProblem } from './problem.js';

/** The resolved tenant/workspace/caller of an authenticated API request. */
export function ctxOf(res: Response): RequestContext {
  return res.locals.ctx as RequestContext;
}

function bearer(req: Request): string | undefined {
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
    const principal = await engine.apiKeys.authenticate(bearer(req));
    if (principal.isErr()) return sendProblem(req, res, principal.error);
    const params = req.params as { tenantSlug?: string; workspaceSlug?: string };
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
