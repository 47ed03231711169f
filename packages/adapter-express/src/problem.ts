import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolveLocale, toProblem, type Locale, type PanyaError } from '@panya/core';
import type { Request, Response } from 'express';

export { rateLimitHeaders, toProblem, type Problem } from '@panya/core';

/**
 * The locale of user-facing error text: an explicit `locale` first, then Accept-Language,
 * then the script of the user's own query, else English (core's `resolveLocale`).
 */
export function requestLocale(req: IncomingMessage, explicit?: unknown, query?: unknown): Locale {
  return resolveLocale({ explicit, acceptLanguage: req.headers['accept-language'], query });
}

/** A domain error as an RFC 9457 problem response, with the request path and id. */
function problemResponse(req: IncomingMessage, res: ServerResponse, error: PanyaError, locale?: Locale): { status: number; headers: Record<string, string>; body: string } {
  const { problem, headers } = toProblem(error, locale ?? requestLocale(req), { keySent: Boolean(req.headers.authorization) });
  problem.instance = (req as Partial<Request>).originalUrl ?? req.url ?? '';
  const requestId = res.getHeader('X-Request-Id');
  if (requestId) problem.requestId = String(requestId);
  return { status: problem.status, headers, body: JSON.stringify(problem) };
}

/** Sends a domain error as RFC 9457 problem JSON from an Express route. */
export function sendProblem(req: Request, res: Response, error: PanyaError, locale?: Locale): void {
  const { status, headers, body } = problemResponse(req, res, error, locale);
  // The access log and metrics count refusals by their code.
  res.locals.problemCode = error.code;
  res.status(status).set(headers).type('application/problem+json').send(body);
}

/** Writes the same problem response on Node's own response, for a request answered without Express; returns the body. */
export function writeProblem(req: IncomingMessage, res: ServerResponse, error: PanyaError, locale?: Locale): string {
  const { status, headers, body } = problemResponse(req, res, error, locale);
  const bytes = Buffer.from(body);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', 'application/problem+json; charset=utf-8');
  res.setHeader('Content-Length', bytes.length);
  res.statusCode = status;
  res.end(bytes);
  return body;
}
