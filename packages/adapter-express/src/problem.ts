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

/** What a problem document is rendered for: the request as addressed, its id, and the language asked for. */
export interface ProblemRequest {
  instance: string;
  requestId: string | undefined;
  acceptLanguage: string | undefined;
  /** The request carried a key (a 401 then says it was refused rather than missing). */
  keySent: boolean;
}

/** A domain error as an RFC 9457 problem response (status, headers, JSON text), whatever the transport. */
export function renderProblem(request: ProblemRequest, error: PanyaError, locale?: Locale): { status: number; headers: Record<string, string>; body: string } {
  const { problem, headers } = toProblem(error, locale ?? resolveLocale({ acceptLanguage: request.acceptLanguage }), { keySent: request.keySent });
  problem.instance = request.instance;
  if (request.requestId) problem.requestId = request.requestId;
  return { status: problem.status, headers, body: JSON.stringify(problem) };
}

/** The problem request of a Node request and its response (the request id is set on the response first). */
export function problemRequest(req: IncomingMessage, res: ServerResponse): ProblemRequest {
  const requestId = res.getHeader('X-Request-Id');
  return {
    instance: (req as Partial<Request>).originalUrl ?? req.url ?? '',
    requestId: requestId ? String(requestId) : undefined,
    acceptLanguage: req.headers['accept-language'],
    keySent: Boolean(req.headers.authorization),
  };
}

export function problemResponse(req: IncomingMessage, res: ServerResponse, error: PanyaError, locale?: Locale): { status: number; headers: Record<string, string>; body: string } {
  return renderProblem(problemRequest(req, res), error, locale);
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
