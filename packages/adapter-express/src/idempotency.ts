import type { Engine, StoredResponse } from '@panya/core';
import type { RequestHandler, Response } from 'express';
import { ctxOf } from './context.js';
import { sendProblem } from './problem.js';

/** The headers a replay repeats; the request id and the like belong to each request. */
const REPLAYED_HEADERS = ['content-type', 'location', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'];

function storedHeaders(res: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = res.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  return headers;
}

/**
 * `Idempotency-Key` on a POST route (core's `idempotency` decides): the first request runs and its
 * response is kept; a retry gets it again with `Idempotent-Replayed: true`; a reused key with
 * another request, or one still running, is a 409 problem. Mount it after authentication and the
 * JSON body parser, before the route's handler. Requests without the header pass untouched.
 */
export function idempotentRequests(engine: Engine): RequestHandler {
  return async (req, res, next) => {
    const key = req.get('idempotency-key');
    if (key === undefined || req.method !== 'POST') return next();
    const started = await engine.idempotency.begin(ctxOf(res), key, { method: req.method, path: req.originalUrl, body: req.body });
    if (started.isErr()) return sendProblem(req, res, started.error);
    if (started.value.kind === 'replay') {
      const { status, headers, body } = started.value.response;
      res.status(status).set(headers).set('Idempotent-Replayed', 'true');
      return body ? res.send(body) : res.end();
    }
    const { finish, abandon } = started.value;
    // Keep what the route sends; store it once the response is complete.
    let body = '';
    const send = res.send.bind(res);
    res.send = (chunk?: unknown) => {
      if (typeof chunk === 'string') body = chunk;
      else if (Buffer.isBuffer(chunk)) body = chunk.toString('utf8');
      return send(chunk);
    };
    let settled = false;
    const settle = (action: () => Promise<void>) => {
      if (settled) return;
      settled = true;
      action().catch((error: unknown) => engine.logger.warn('idempotency record not saved', { key, error: String(error) }));
    };
    res.once('finish', () => settle(() => finish({ status: res.statusCode, headers: storedHeaders(res), body } satisfies StoredResponse)));
    // The client went away before the response was written: the key is given back.
    res.once('close', () => settle(abandon));
    next();
  };
}
