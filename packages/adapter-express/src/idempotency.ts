import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Engine, PanyaError, RequestContext, StoredResponse } from '@panya/core';
import type { Request, RequestHandler } from 'express';
import { ctxOf } from './context.js';
import { sendProblem } from './problem.js';

/** The headers a replay repeats; the request id and the like belong to each request. */
const REPLAYED_HEADERS = ['content-type', 'location', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'];

function storedHeaders(res: ServerResponse): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = res.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  return headers;
}

/**
 * Begins a request that carries `Idempotency-Key` (core's `idempotency` decides), on Node's
 * response: a retry of a kept request is answered here with the kept response and
 * `Idempotent-Replayed: true`; a reused key with another request, or one still running, is
 * `refuse`d (409). Both resolve null: the request is answered. Otherwise the request runs and
 * this resolves `keep`, to be given the body the route sends; the response is stored once
 * complete, and the key given back if the client leaves first.
 */
export async function beginIdempotent(
  engine: Engine,
  ctx: RequestContext,
  key: string,
  req: IncomingMessage & { originalUrl?: string },
  res: ServerResponse,
  body: unknown,
  refuse: (error: PanyaError) => void,
): Promise<((sent: string) => void) | null> {
  const started = await engine.idempotency.begin(ctx, key, { method: req.method ?? 'POST', path: req.originalUrl ?? req.url ?? '', body });
  if (started.isErr()) {
    refuse(started.error);
    return null;
  }
  if (started.value.kind === 'replay') {
    const { status, headers, body: kept } = started.value.response;
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.setHeader('Idempotent-Replayed', 'true');
    res.statusCode = status;
    if (kept) res.setHeader('Content-Length', Buffer.byteLength(kept));
    res.end(kept || undefined);
    return null;
  }
  const { finish, abandon } = started.value;
  let sent = '';
  let settled = false;
  const settle = (action: () => Promise<void>) => {
    if (settled) return;
    settled = true;
    action().catch((error: unknown) => engine.logger.warn('idempotency record not saved', { key, error: String(error) }));
  };
  res.once('finish', () => settle(() => finish({ status: res.statusCode, headers: storedHeaders(res), body: sent } satisfies StoredResponse)));
  // The client went away before the response was written: the key is given back.
  res.once('close', () => settle(abandon));
  return (body) => {
    sent = body;
  };
}

/**
 * `Idempotency-Key` on a POST route (`beginIdempotent`). Mount it after authentication and the
 * JSON body parser, before the route's handler. Requests without the header pass untouched.
 */
export function idempotentRequests(engine: Engine): RequestHandler {
  return async (req: Request, res, next) => {
    const key = req.get('idempotency-key');
    if (key === undefined || req.method !== 'POST') return next();
    const keep = await beginIdempotent(engine, ctxOf(res), key, req, res, req.body, (error) => sendProblem(req, res, error));
    if (!keep) return;
    // Keep what the route sends.
    const send = res.send.bind(res);
    res.send = (chunk?: unknown) => {
      if (typeof chunk === 'string') keep(chunk);
      else if (Buffer.isBuffer(chunk)) keep(chunk.toString('utf8'));
      return send(chunk);
    };
    next();
  };
}
