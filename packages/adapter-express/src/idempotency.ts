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

type End = ServerResponse['end'];

/**
 * Runs a request that carries `Idempotency-Key` (core's `idempotency` decides), on Node's
 * response: a retry of a kept request is answered here with the kept response and
 * `Idempotent-Replayed: true`; a reused key with another request, or one still running, is
 * `refuse`d (409). Both resolve false: the request is answered. Otherwise this resolves true and
 * the route runs: its response is stored before it is sent (so a retry sent the moment the answer
 * arrives finds it), and the key is given back if the client leaves first.
 */
export async function beginIdempotent(
  engine: Engine,
  ctx: RequestContext,
  key: string,
  req: IncomingMessage & { originalUrl?: string },
  res: ServerResponse,
  body: unknown,
  refuse: (error: PanyaError) => void,
): Promise<boolean> {
  const started = await engine.idempotency.begin(ctx, key, { method: req.method ?? 'POST', path: req.originalUrl ?? req.url ?? '', body });
  if (started.isErr()) {
    refuse(started.error);
    return false;
  }
  if (started.value.kind === 'replay') {
    const { status, headers, body: kept } = started.value.response;
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.setHeader('Idempotent-Replayed', 'true');
    res.statusCode = status;
    if (kept) res.setHeader('Content-Length', Buffer.byteLength(kept));
    res.end(kept || undefined);
    return false;
  }
  const { finish, abandon } = started.value;
  let settled = false;
  const failed = (error: unknown) => engine.logger.warn('idempotency record not saved', { key, error: String(error) });
  // The client went away before the response was written: the key is given back.
  res.once('close', () => {
    if (settled) return;
    settled = true;
    abandon().catch(failed);
  });
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.end = ((...args: unknown[]) => {
    if (settled) return end(...args);
    settled = true;
    const chunk = typeof args[0] === 'function' ? undefined : args[0];
    const sent = chunk === undefined || chunk === null ? '' : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : String(chunk);
    finish({ status: res.statusCode, headers: storedHeaders(res), body: sent } satisfies StoredResponse)
      .catch(failed)
      .finally(() => end(...args));
    return res;
  }) as End;
  return true;
}

/**
 * `Idempotency-Key` on a POST route (`beginIdempotent`). Mount it after authentication and the
 * JSON body parser, before the route's handler. Requests without the header pass untouched.
 */
export function idempotentRequests(engine: Engine): RequestHandler {
  return async (req: Request, res, next) => {
    const key = req.get('idempotency-key');
    if (key === undefined || req.method !== 'POST') return next();
    if (await beginIdempotent(engine, ctxOf(res), key, req, res, req.body, (error) => sendProblem(req, res, error))) next();
  };
}
