import type { ServerResponse } from 'node:http';
import { executeOperation, HTTP_OPERATIONS, takesIdempotencyKey, type Engine, type Operation } from '@panya/core';
import { Router, type Request, type Response } from 'express';
import { ctxOf } from '../context.js';
import { rateLimitHeaders, requestLocale, sendProblem } from '../problem.js';
import { nonJsonBody } from '../routing.js';
import { idempotentRequests } from '../idempotency.js';

/**
 * Aborts when the client goes away before the response is complete, so the work stops with it
 * (no orphan generation). A response sent in full aborts nothing: an abort builds an error with a
 * stack trace, a cost every request would pay for nothing. The signal is made when first read
 * (already aborted if the client has left by then): most operations never read it.
 */
export function abortOnClose(res: ServerResponse): { readonly signal: AbortSignal } {
  let controller: AbortController | undefined;
  let left = false;
  res.once('close', () => {
    if (res.writableFinished) return;
    left = true;
    controller?.abort();
  });
  return {
    get signal() {
      if (!controller) {
        controller = new AbortController();
        if (left) controller.abort();
      }
      return controller.signal;
    },
  };
}

const METHODS = { GET: 'get', POST: 'post', PUT: 'put', PATCH: 'patch', DELETE: 'delete' } as const;

/** Mounts every REST entry of core's operation table: the route is translation only. */
export function operationsRouter(engine: Engine, operations: readonly Operation[] = HTTP_OPERATIONS): Router {
  const router = Router({ mergeParams: true });
  const idempotent = idempotentRequests(engine);
  for (const operation of operations) {
    const http = operation.http!;
    // POSTs that change something take `Idempotency-Key`; reads and the other methods need none.
    const before = takesIdempotencyKey(operation) ? [idempotent] : [];
    router[METHODS[http.method]](http.path, ...before, async (req: Request, res: Response) => {
      if (operation.input.body) {
        const notJson = nonJsonBody(req);
        if (notJson) return sendProblem(req, res, notJson);
      }
      const client = abortOnClose(res);
      const raw = { params: req.params, query: req.query, body: req.body };
      const done = await executeOperation(engine, operation, ctxOf(res), raw, {
        channel: { via: 'rest' },
        get signal() {
          return client.signal;
        },
      });
      if (done.isErr()) return sendProblem(req, res, done.error, requestLocale(req, req.body?.locale, req.body?.query));
      const { value, rateLimit, input } = done.value;
      if (rateLimit) res.set(rateLimitHeaders(rateLimit));
      if (http.location) res.location(`${req.baseUrl}${http.location(value)}`);
      const status = typeof http.status === 'function' ? http.status(input, value) : (http.status ?? 200);
      if (value === undefined) return res.status(status).end();
      res.status(status).json(value);
    });
  }
  return router;
}
