import { rateLimitHeaders, type Credentials, type Engine, type PanyaError, type StoredResponse } from '@panya/core';
import { renderProblem, type ProblemRequest } from '../problem.js';
import { resolveLocale } from '@panya/core';
import type { Matched } from './match.js';

/** One tenant API request, whatever carries it (Node's request, a fetch `Request`): read, not yet run. */
export interface ApiRequest {
  method: string;
  /** The path and query as addressed (the idempotency fingerprint and `instance` of a problem). */
  url: string;
  /** The API root as the client addressed it, outer mounts included: `Location` is relative to it. */
  base: string;
  query: Record<string, unknown>;
  /** The JSON body, or undefined when none came. */
  body: unknown;
  credentials: Credentials;
  /** Read only for a publishable key (public budgets count per visitor). */
  readonly visitor: string | undefined;
  idempotencyKey: string | undefined;
  problem: ProblemRequest;
  readonly signal: AbortSignal | undefined;
}

/** What the transport writes: status, headers, and a JSON (or problem JSON) body. */
export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  body: string | undefined;
  /** The problem's code, for metrics and the access log. */
  problemCode?: string;
}

export type Operated = Extract<Matched, { kind: 'operation' }>;

const JSON_CONTENT = 'application/json; charset=utf-8';
const PROBLEM_CONTENT = 'application/problem+json; charset=utf-8';

/** A problem response in the writer's shape. */
export function problemReply(request: Pick<ApiRequest, 'problem' | 'body'>, error: PanyaError): ApiResponse {
  const asked = (request.body ?? {}) as { locale?: unknown; query?: unknown };
  const locale = resolveLocale({ explicit: asked.locale, acceptLanguage: request.problem.acceptLanguage, query: asked.query });
  const { status, headers, body } = renderProblem(request.problem, error, locale);
  return { status, headers: { ...headers, 'Content-Type': PROBLEM_CONTENT }, body, problemCode: error.code };
}

function replayed(response: StoredResponse): ApiResponse {
  return { status: response.status, headers: { ...response.headers, 'Idempotent-Replayed': 'true' }, body: response.body || undefined };
}

/**
 * The transport-free half of the compiled handler: a matched entry and its read request in, the
 * response out, through `engine.api`. The Node handler (`handler.ts`) reads and writes around it;
 * a fetch binding would do the same with `Request` and `Response`.
 */
export function createResponder(engine: Engine, onCaller?: (request: ApiRequest, tenant: string) => void) {
  return async (matched: Operated, request: ApiRequest): Promise<ApiResponse> => {
    const { operation } = matched;
    const done = await engine.api(operation.id, request.credentials, matched.addressing, { params: matched.params, query: request.query, body: request.body }, {
      get visitor() {
        return request.visitor;
      },
      get signal() {
        return request.signal;
      },
      ...(request.idempotencyKey !== undefined && request.method === 'POST' ? { idempotency: { key: request.idempotencyKey, path: request.url, base: request.base, problem: (error: PanyaError) => storedProblem(request, error) } } : {}),
      ...(onCaller ? { authenticated: (caller) => onCaller(request, caller.tenant.slug) } : {}),
    });
    if (done.isErr()) return problemReply(request, done.error);
    const reply = done.value;
    if (reply.kind === 'replay') return replayed(reply.response);
    const headers: Record<string, string> = reply.rateLimit ? rateLimitHeaders(reply.rateLimit) : {};
    if (reply.location) headers.Location = `${request.base}${reply.location}`;
    if (reply.value === undefined) return { status: reply.status, headers, body: undefined };
    headers['Content-Type'] = JSON_CONTENT;
    return { status: reply.status, headers, body: JSON.stringify(reply.value) };
  };
}

/** A refusal as an `Idempotency-Key` request keeps it (and a retry replays it). */
function storedProblem(request: ApiRequest, error: PanyaError): StoredResponse {
  const { status, headers, body } = problemReply(request, error);
  return { status, headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value])), body: body ?? '' };
}
