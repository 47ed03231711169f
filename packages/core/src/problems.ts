import { UPSTREAM_RETRY_AFTER_SECONDS, type PanyaError, type PanyaErrorCode } from './errors.js';
import type { Problem } from './schemas/responses.js';
import { detectLocale, type Locale } from './messages.js';

/** The one mapping from domain error codes to HTTP statuses (MCP's transport refusals use it too). */
export const PROBLEM_STATUS: Record<PanyaErrorCode, number> = {
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
  method_not_allowed: 405,
  /** 503 instead when the failure is transient (see `toProblem`). */
  upstream_unavailable: 502,
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
  method_not_allowed: 'Method not allowed',
  upstream_unavailable: 'Model provider unavailable',
};

export const problemType = (code: string) => `urn:panya:problem:${code}`;

/** `RateLimit-*` headers (IETF draft): the limit, what is left, seconds until the window resets. */
export function rateLimitHeaders(status: { limit: number; remaining: number; resetSeconds: number; quota?: string | undefined; windowSeconds?: number | undefined }): Record<string, string> {
  return {
    'RateLimit-Limit': String(status.limit),
    'RateLimit-Remaining': String(status.remaining),
    'RateLimit-Reset': String(status.resetSeconds),
    // Which limit and its window (`60;w=3600;comment="perKeyPerHour"`), when known.
    ...(status.windowSeconds ? { 'RateLimit-Policy': `${status.limit};w=${status.windowSeconds}${status.quota ? `;comment="${status.quota}"` : ''}` } : {}),
  };
}

/** What a request says about its reader's language. */
export interface LocaleHints {
  /** A `locale` the caller asked for (any value; only `th`/`en` count). */
  explicit?: unknown;
  /** The `Accept-Language` header. */
  acceptLanguage?: string | undefined;
  /** The user's own text (a query), whose script decides last. */
  query?: unknown;
}

/**
 * The locale of user-facing text: an explicit `locale` first, then Accept-Language, then the
 * script of the user's own query, else English.
 */
export function resolveLocale(hints: LocaleHints = {}): Locale {
  if (hints.explicit === 'th' || hints.explicit === 'en') return hints.explicit;
  if (hints.acceptLanguage) return /^th\b/i.test(hints.acceptLanguage) ? 'th' : 'en';
  return typeof hints.query === 'string' ? detectLocale(hints.query) : 'en';
}

/** An RFC 7230 quoted string: header values are ASCII, so anything else is spelled out or dropped. */
const quoted = (text: string) => `"${text.replace(/…/g, '...').replace(/["\\]/g, "'").replace(/[^\x20-\x7e]/g, '')}"`;

/** What the `WWW-Authenticate` challenge of a 401 may say. */
export interface ChallengeOptions {
  /** A key was sent and refused: the challenge names it `invalid_token` with the reason. */
  keySent?: boolean;
  /** RFC 9728 protected-resource metadata address (the MCP endpoint). */
  resourceMetadata?: string;
}

/**
 * The `WWW-Authenticate` challenge of a 401 (RFC 6750 §3): `invalid_token` when a key was sent
 * and refused, plus, on the MCP endpoint, `resource_metadata` (RFC 9728 §5.1).
 */
export function bearerChallenge(error: PanyaError, options: ChallengeOptions = {}): string {
  const params = ['realm="panya"'];
  if (options.keySent) params.push('error="invalid_token"', `error_description=${quoted(error.message)}`);
  if (options.resourceMetadata) params.push(`resource_metadata=${quoted(options.resourceMetadata)}`);
  return `Bearer ${params.join(', ')}`;
}

/** A domain error as an RFC 9457 problem body plus the headers that go with it. */
export function toProblem(error: PanyaError, locale: Locale = 'en', challenge: ChallengeOptions = {}): { problem: Problem; headers: Record<string, string> } {
  const status = PROBLEM_STATUS[error.code];
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
      headers['WWW-Authenticate'] = bearerChallenge(error, challenge);
      break;
    case 'conflict':
      if (error.reason) problem.reason = error.reason;
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
      Object.assign(headers, rateLimitHeaders({ limit: error.limit, remaining: 0, resetSeconds: error.retryAfterSeconds, quota: error.quota, windowSeconds: error.windowSeconds }));
      headers['Retry-After'] = String(error.retryAfterSeconds);
      problem.limit = error.limit;
      problem.retryAfter = error.retryAfterSeconds;
      if (error.quota) problem.quota = error.quota;
      problem.resetAt = error.resetAt.toISOString();
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
    case 'method_not_allowed':
      headers.Allow = error.allowed.join(', ');
      break;
    case 'unavailable':
      if (error.limit) (problem.limit = error.limit), (problem.max = error.max);
      if (error.retryAfterSeconds) (headers['Retry-After'] = String(error.retryAfterSeconds)), (problem.retryAfter = error.retryAfterSeconds);
      break;
    case 'upstream_unavailable':
      problem.provider = error.provider;
      if (error.transient) {
        problem.status = 503;
        headers['Retry-After'] = String(UPSTREAM_RETRY_AFTER_SECONDS);
      }
      break;
    default:
      break;
  }
  return { problem, headers };
}
