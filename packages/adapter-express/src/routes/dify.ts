import { errors, toProblem, type Engine, type PanyaError } from '@panya/core';
import type { Request, RequestHandler, Response } from 'express';
import { credentials } from '../context.js';
import { rateLimitHeaders, requestLocale } from '../problem.js';
import { nonJsonBody } from '../routing.js';

/** Dify's published error codes for an external knowledge API. */
export const DIFY_ERRORS = {
  /** The Authorization header is missing or not `Bearer <key>`. */
  invalidAuthorizationHeader: 1001,
  /** The key is refused (unknown, revoked, wrong scope or workspace). */
  authorizationFailed: 1002,
  /** `knowledge_id` names no workspace the key can reach. */
  knowledgeNotFound: 2001,
} as const;

/**
 * A failure in Dify's shape, `{error_code, error_msg}`, with the HTTP status and headers
 * (`Retry-After`, …) of the problem it stands for, and the problem's own fields beside them
 * for clients that read those. Failures Dify has no code for carry the HTTP status as `error_code`.
 */
function sendDifyError(req: Request, res: Response, error: PanyaError, difyCode?: number): void {
  const { problem, headers } = toProblem(error, requestLocale(req));
  res.locals.problemCode = error.code;
  const code = difyCode ?? (error.code === 'unauthorized' || error.code === 'forbidden' ? DIFY_ERRORS.authorizationFailed : error.code === 'not_found' ? DIFY_ERRORS.knowledgeNotFound : problem.status);
  res.status(problem.status).set(headers).json({ error_code: code, error_msg: problem.detail ?? problem.title, ...problem });
}

const BEARER = /^Bearer\s+\S+$/i;

/**
 * `POST /api/dify/retrieval`: Dify's external knowledge API. Register `{server}/api/dify` as the
 * endpoint in Dify (it appends `/retrieval`), a Panya key with the `read` scope as its API key,
 * and a workspace slug as the knowledge id. Counted and rate-limited as a search.
 */
export function difyRetrievalRoute(engine: Engine): RequestHandler {
  return async (req, res) => {
    const authorization = req.get('authorization');
    if (!authorization || !BEARER.test(authorization)) {
      return sendDifyError(req, res, errors.unauthorized("Invalid Authorization header format. Expected 'Bearer <api-key>' format."), DIFY_ERRORS.invalidAuthorizationHeader);
    }
    const notJson = nonJsonBody(req);
    if (notJson) return sendDifyError(req, res, notJson);
    // `knowledge_id` addresses the workspace (the operation's own addressing in `engine.api`).
    let authenticated = false;
    const done = await engine.api('dify_retrieval', credentials(req), {}, { body: req.body }, {
      authenticated: (caller) => {
        authenticated = true;
        res.locals.ctx = caller;
      },
    });
    // A key refused (unknown, revoked, wrong scope) is Dify's "authorization failed".
    if (done.isErr()) return sendDifyError(req, res, done.error, authenticated ? undefined : DIFY_ERRORS.authorizationFailed);
    if (done.value.kind !== 'result') return sendDifyError(req, res, errors.internal());
    if (done.value.rateLimit) res.set(rateLimitHeaders(done.value.rateLimit));
    res.json(done.value.value);
  };
}
