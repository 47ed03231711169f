import { detectLocale, type PanyaError, type PanyaErrorCode } from '@panya/core';
import { bearerChallenge } from '@panya/adapter-mcp';
import type { Request, Response } from 'express';

/** RFC 9457 problem details, as every error leaves the HTTP API. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  code: PanyaErrorCode | string;
  detail: string;
  instance?: string;
  errors?: { path: string; message: string }[];
  [extension: string]: unknown;
}

/** The one mapping from domain error codes to HTTP statuses. */
const STATUS: Record<PanyaErrorCode, number> = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  plan_required: 403,
  quota_exceeded: 403,
  not_found: 404,
  conflict: 409,
  unprocessable: 422,
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  request_timeout: 408,
  limit_exceeded: 422,
  hard_cap_reached: 402,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
};

const TITLE: Record<PanyaErrorCode, string> = {
  invalid_request: 'Invalid request',
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  plan_required: 'Plan upgrade required',
  quota_exceeded: 'Quota exceeded',
  not_found: 'Not found',
  conflict: 'Conflict',
  unprocessable: 'Unprocessable request',
  gone: 'Gone',
  payload_too_large: 'Payload too large',
  unsupported_media_type: 'Unsupported media type',
  request_timeout: 'Request timeout',
  limit_exceeded: 'Limit exceeded',
  hard_cap_reached: 'Usage cap reached',
  rate_limited: 'Too many requests',
  internal: 'Internal server error',
  unavailable: 'Service unavailable',
};

/** `RateLimit-*` headers (IETF draft): the limit, what is left, seconds until the window resets. */
export function rateLimitHeaders(status: { limit: number; remaining: number; resetSeconds: number }): Record<string, string> {
  return {
    'RateLimit-Limit': String(status.limit),
    'RateLimit-Remaining': String(status.remaining),
    'RateLimit-Reset': String(status.resetSeconds),
  };
}

export const problemType = (code: string) => `urn:panya:problem:${code}`;

/**
 * The locale of user-facing error text: an explicit `locale` first, then Accept-Language,
 * then the script of the user's own query, else English.
 */
export function requestLocale(req: Request, explicit?: unknown, query?: unknown): 'th' | 'en' {
  if (explicit === 'th' || explicit === 'en') return explicit;
  const accept = req.get('accept-language');
  if (accept) return /^th\b/i.test(accept) ? 'th' : 'en';
  return typeof query === 'string' ? detectLocale(query) : 'en';
}

export function toProblem(error: PanyaError, locale: 'th' | 'en' = 'en'): { problem: Problem; headers: Record<string, string> } {
  const status = STATUS[error.code];
  const problem: Problem = {
    type: problemType(error.code),
    title: TITLE[error.code],
    status,
    code: error.code,
    detail: error.localized ? error.localized[locale] : error.message,
  };
  const headers: Record<string, string> = {};
  switch (error.code) {
    case 'invalid_request':
    case 'unprocessable':
      problem.errors = error.issues;
      break;
    case 'not_found':
      if (error.issues) problem.errors = error.issues;
      break;
    case 'unauthorized':
      headers['WWW-Authenticate'] = 'Bearer realm="panya"';
      break;
    case 'forbidden':
      if (error.requiredScope) problem.requiredScope = error.requiredScope;
      break;
    case 'plan_required':
      problem.plan = error.plan;
      break;
    case 'quota_exceeded':
      problem.limit = error.limit;
      if (error.plan) problem.plan = error.plan;
      break;
    case 'rate_limited':
      Object.assign(headers, rateLimitHeaders({ limit: error.limit, remaining: 0, resetSeconds: error.retryAfterSeconds }));
      headers['Retry-After'] = String(error.retryAfterSeconds);
      problem.limit = error.limit;
      problem.retryAfter = error.retryAfterSeconds;
      break;
    case 'hard_cap_reached':
      problem.cap = error.cap;
      break;
    case 'gone':
      headers['Cache-Control'] = 'no-store';
      break;
    case 'payload_too_large':
      problem.maxBytes = error.maxBytes;
      if (error.limit) problem.limit = error.limit;
      break;
    case 'request_timeout':
      headers.Connection = 'close';
      problem.timeoutMs = error.timeoutMs;
      break;
    case 'limit_exceeded':
      problem.limit = error.limit;
      problem.max = error.max;
      break;
    case 'unsupported_media_type':
      problem.supported = error.supported;
      break;
    default:
      break;
  }
  return { problem, headers };
}

export function sendProblem(req: Request, res: Response, error: PanyaError, locale?: 'th' | 'en'): void {
  const { problem, headers } = toProblem(error, locale ?? requestLocale(req));
  if (error.code === 'unauthorized') headers['WWW-Authenticate'] = bearerChallenge(error, { keySent: Boolean(req.get('authorization')) });
  problem.instance = req.originalUrl;
  const requestId = res.getHeader('X-Request-Id');
  if (requestId) problem.requestId = String(requestId);
  res.status(problem.status).set(headers).type('application/problem+json').send(JSON.stringify(problem));
}
