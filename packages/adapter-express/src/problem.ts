import { resolveLocale, toProblem, type Locale, type PanyaError } from '@panya/core';
import type { Request, Response } from 'express';

export { rateLimitHeaders, toProblem, type Problem } from '@panya/core';

/**
 * The locale of user-facing error text: an explicit `locale` first, then Accept-Language,
 * then the script of the user's own query, else English (core's `resolveLocale`).
 */
export function requestLocale(req: Request, explicit?: unknown, query?: unknown): Locale {
  return resolveLocale({ explicit, acceptLanguage: req.get('accept-language'), query });
}

/** Sends a domain error as RFC 9457 problem JSON, with the request path and id. */
export function sendProblem(req: Request, res: Response, error: PanyaError, locale?: Locale): void {
  const { problem, headers } = toProblem(error, locale ?? requestLocale(req), { keySent: Boolean(req.get('authorization')) });
  problem.instance = req.originalUrl;
  // The access log and metrics count refusals by their code.
  res.locals.problemCode = error.code;
  const requestId = res.getHeader('X-Request-Id');
  if (requestId) problem.requestId = String(requestId);
  res.status(problem.status).set(headers).type('application/problem+json').send(JSON.stringify(problem));
}
