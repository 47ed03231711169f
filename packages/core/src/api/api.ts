import { err, ok, type Result } from 'neverthrow';
import { errors, type PanyaError } from '../errors.js';
import { rateLimitHeaders, toProblem } from '../problems.js';
import type { StoredResponse } from '../ports/store.js';
import type { Logger } from '../ports/system.js';
import type { AnswerInput } from '../answers/schemas.js';
import type { AnswerResponse, SearchResponse } from '../schemas/responses.js';
import type { SearchInput } from '../search/schemas.js';
import type { AccessService, Addressing } from '../tenancy/access.js';
import type { AuthService, Credentials } from '../tenancy/authenticate.js';
import type { RequestContext } from '../context.js';
import type { HelpCenterService, HelpSite } from '../hostnames/help-center.js';
import { takesIdempotencyKey, type IdempotencyService } from './idempotency.js';
import type { RateLimitStatus } from '../billing/limits.js';
import type { QueryChannel, QueryService } from '../search/queries.js';
import { executeOperation } from './execute.js';
import type { Operation, OperationServices, RawInput } from '../operations/types.js';

/** What `engine.api` is wired to: the operations' services and the pipeline's own. */
export type ApiDeps = OperationServices & {
  queries: QueryService;
  auth: AuthService;
  access: AccessService;
  idempotency: IdempotencyService;
  helpCenter: HelpCenterService;
  logger: Logger;
};

/** How a door asks, beyond the request itself. */
export interface ApiOptions {
  /** REST (default), or an MCP tool call (counted under the tool's name). */
  channel?: QueryChannel;
  /** The caller went away: the work stops (read lazily; most operations never read it). */
  readonly signal?: AbortSignal | undefined;
  /** The visitor behind a publishable key's request (the door derives it from the client). */
  visitor?: string;
  /**
   * `Idempotency-Key` of a request that changes something: `path` is the request as addressed
   * (a retry must repeat it), `base` the API root its `Location` is relative to, and `problem`
   * how the door renders a refusal (kept and replayed as it was sent).
   */
  idempotency?: { key: string; path: string; base: string; problem?(error: PanyaError): StoredResponse };
  /** The help center's ask box: the caller's key must be this site's own. */
  helpCenter?: HelpSite;
  /** Told who the caller is once authenticated (access logs name the tenant). */
  authenticated?(caller: RequestContext): void;
}

/** An operation's outcome, as every door renders it. */
export type ApiReply<O = unknown> =
  | {
      kind: 'result';
      value: O;
      /** The operation's HTTP status (200 when it has no HTTP binding). */
      status: number;
      /** Where what was created lives, relative to the API root. */
      location: string | null;
      rateLimit: RateLimitStatus | null;
      caller: RequestContext;
    }
  /** A retry of a kept `Idempotency-Key` request: the first response, as it was sent. */
  | { kind: 'replay'; response: StoredResponse; caller: RequestContext };

/** Who asks: what the request presents, or a context a door already authenticated (an MCP session, the operator's tools). */
export type ApiCaller = Credentials | RequestContext;

const isContext = (caller: ApiCaller): caller is RequestContext => 'principal' in caller && 'tenant' in caller;

export interface Api {
  /**
   * Runs one entry of the operation table for one request, in this order for every door (HTTP,
   * MCP, the help center's ask box, Dify, library code): authenticate (the operation's
   * publishable-key rule included), the help-center site check, the operation's own addressing
   * (Dify's `knowledge_id`), `Idempotency-Key`, then `executeOperation` — publishable-key rule,
   * scope, validation, rate limits, the operation, metering and the usage event.
   */
  (operationId: string, caller: ApiCaller, addressing: Addressing, raw: RawInput, options?: ApiOptions): Promise<Result<ApiReply, PanyaError>>;
  /** `POST /api/search` for library code: counted and filtered exactly as over HTTP. */
  search(caller: ApiCaller, input: SearchInput, options?: ApiOptions & { addressing?: Addressing }): Promise<Result<SearchResponse, PanyaError>>;
  /** `POST /api/answer` for library code. */
  answer(caller: ApiCaller, input: AnswerInput, options?: ApiOptions & { addressing?: Addressing }): Promise<Result<AnswerResponse, PanyaError>>;
  /** The table the calls run from, by id. */
  readonly operations: ReadonlyMap<string, Operation>;
}

/** The response an `Idempotency-Key` request keeps: what the HTTP door sends for it. */
function keptResponse(reply: { value: unknown; status: number; location: string | null; rateLimit: RateLimitStatus | null }, base: string): StoredResponse {
  const headers: Record<string, string> = {};
  if (reply.value !== undefined) headers['content-type'] = 'application/json; charset=utf-8';
  if (reply.location) headers.location = `${base}${reply.location}`;
  if (reply.rateLimit) for (const [name, value] of Object.entries(rateLimitHeaders(reply.rateLimit))) headers[name.toLowerCase()] = value;
  return { status: reply.status, headers, body: reply.value === undefined ? '' : JSON.stringify(reply.value) };
}

/** The default rendering of a kept refusal (doors pass their own). */
export function plainProblem(error: PanyaError): StoredResponse {
  const { problem, headers } = toProblem(error);
  return { status: problem.status, headers: { ...Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])), 'content-type': 'application/problem+json; charset=utf-8' }, body: JSON.stringify(problem) };
}

export function createApi(deps: ApiDeps, operations: readonly Operation[]): Api {
  const byId = new Map(operations.map((op) => [op.id, op]));

  async function call(operationId: string, caller: ApiCaller, addressing: Addressing, raw: RawInput, options: ApiOptions = {}): Promise<Result<ApiReply, PanyaError>> {
    const operation = byId.get(operationId);
    if (!operation) return err(errors.notFound(`Operation "${operationId}"`));
    // 1. Who asks (a publishable key only where the operation takes one).
    let ctx: RequestContext;
    if (isContext(caller)) ctx = caller;
    else {
      const authenticated = await deps.auth.authenticate(caller, addressing, 'api', { acceptsPublishable: operation.acceptsPublishable === true });
      if (authenticated.isErr()) return err(authenticated.error);
      ctx = authenticated.value;
    }
    options.authenticated?.(ctx);
    // 2. A help center answers only through its own site's key.
    if (options.helpCenter && !deps.helpCenter.admits(options.helpCenter, ctx)) return err(errors.forbidden('This key does not answer on this help center: use the key its pages carry.'));
    // 3. An operation that names its workspace in its input (Dify's knowledge_id).
    if (operation.address) {
      const addressed = await operation.address(deps, ctx, raw);
      if (addressed.isErr()) return err(addressed.error);
      ctx = addressed.value;
      options.authenticated?.(ctx);
    }
    if (ctx.principal.publishable && !ctx.visitor) {
      // A signed visitor keeps their verified id; others are counted by what the door derives.
      // Read only here: deriving it costs a hash the other callers need not pay.
      const visitor = options.visitor;
      if (visitor !== undefined) ctx = { ...ctx, visitor };
    }
    const execute = () => executeOperation(deps, operation, ctx, raw, { channel: options.channel ?? { via: 'rest' }, get signal() { return options.signal; } });
    const reply = (done: Awaited<ReturnType<typeof execute>>): Result<ApiReply, PanyaError> => {
      if (done.isErr()) return err(done.error);
      const { value, rateLimit, input } = done.value;
      const http = operation.http;
      const status = typeof http?.status === 'function' ? http.status(input, value) : (http?.status ?? 200);
      return ok({ kind: 'result', value, status, location: http?.location ? http.location(value) : null, rateLimit, caller: ctx });
    };
    // 4. `Idempotency-Key` (POSTs that change something): a retry gets the first response.
    const idempotency = options.idempotency;
    if (!idempotency || !takesIdempotencyKey(operation)) return reply(await execute());
    const started = await deps.idempotency.begin(ctx, idempotency.key, { method: 'POST', path: idempotency.path, body: raw.body });
    if (started.isErr()) return err(started.error);
    if (started.value.kind === 'replay') return ok({ kind: 'replay', response: started.value.response, caller: ctx });
    const { finish, abandon } = started.value;
    let done: Result<ApiReply, PanyaError>;
    try {
      done = reply(await execute());
    } catch (error) {
      await abandon().catch(() => undefined);
      throw error;
    }
    const kept = done.isOk() ? keptResponse(done.value as Extract<ApiReply, { kind: 'result' }>, idempotency.base) : (idempotency.problem ?? plainProblem)(done.error);
    // Not kept: a retry runs the request again (it is answered either way).
    await finish(kept).catch((error: unknown) => deps.logger.warn('idempotency record not saved', { key: idempotency.key, error: String(error) }));
    return done;
  }

  const typed =
    <O>(operationId: string) =>
    async (caller: ApiCaller, input: unknown, options: ApiOptions & { addressing?: Addressing } = {}): Promise<Result<O, PanyaError>> => {
      const done = await call(operationId, caller, options.addressing ?? {}, { body: input }, options);
      if (done.isErr()) return err(done.error);
      return done.value.kind === 'result' ? ok(done.value.value as O) : err(errors.internal());
    };

  return Object.assign(call, { search: typed<SearchResponse>('search'), answer: typed<AnswerResponse>('answer'), operations: byId as ReadonlyMap<string, Operation> });
}
