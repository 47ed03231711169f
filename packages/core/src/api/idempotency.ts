import { createHash } from 'node:crypto';
import { err, ok, type Result } from 'neverthrow';
import { IDEMPOTENCY_BYTES_PER_KEY_PER_DAY, IDEMPOTENCY_BYTES_PER_TENANT_PER_DAY, MAX_IDEMPOTENT_RESPONSE_BYTES } from '../bounds.js';
import { errors, panyaError, type PanyaError } from '../errors.js';
import type { Operation } from '../operations/types.js';
import type { RateBucket } from '../tenancy/ports/rate-limits.js';
import type { StoredResponse } from '../ports/store.js';
import { API_KEY_PREFIX, PUBLISHABLE_KEY_PREFIX } from '../tenancy/api-keys.js';
import { CONNECTOR_SECRET_PREFIX } from '../knowledge/connectors.js';
import type { RequestContext, ServiceDeps } from '../context.js';

/** How long a key is remembered (Stripe's 24 h): a retry within it gets the first answer. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * A key still marked in flight after this long belongs to a request that never finished (its node
 * stopped): the next request with the key runs. Longer than any request may take.
 */
export const IDEMPOTENCY_IN_FLIGHT_MS = 10 * 60 * 1000;
/** Keys are printable ASCII (they travel in a header), at most 255 characters, like Stripe's. */
const KEY = /^[\x21-\x7e]{1,255}$/;

/** The request a key is used with: a retry must repeat all of it. */
export interface IdempotentRequest {
  method: string;
  /** The path as addressed (tenant and workspace prefixes included) with its query string. */
  path: string;
  body: unknown;
}

/** Run the request and report its response, or replay the stored one. */
export type IdempotencyStart =
  | { kind: 'run'; finish(response: StoredResponse): Promise<void>; abandon(): Promise<void> }
  | { kind: 'replay'; response: StoredResponse };

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` are the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** Whether a response is the request's outcome (replayed) or a refusal before it ran (the key is given back). */
export const isReplayable = (status: number) => status < 500 && status !== 429;

/**
 * Whether an operation takes `Idempotency-Key`: POSTs that change something. Billable queries
 * (search, answer) only read: a retry simply asks again, so nothing of theirs is kept.
 */
export function takesIdempotencyKey(operation: Pick<Operation, 'http' | 'counted'>): boolean {
  return operation.http?.method === 'POST' && operation.counted === false;
}

/** Credentials a response may carry (a new key, a connector's signing secret): never kept, never replayed. */
const SECRET_PREFIXES = [API_KEY_PREFIX, PUBLISHABLE_KEY_PREFIX, CONNECTOR_SECRET_PREFIX];
export const carriesSecret = (body: string) => SECRET_PREFIXES.some((prefix) => body.includes(prefix));

/** Why a kept response has no body: a replay answers 409 saying so instead. */
export type Withheld = 'secret' | 'size' | 'budget';

const WITHHELD_MESSAGES: Record<Withheld, string> = {
  secret: 'its response carried a secret, which is never kept',
  size: `its response was larger than ${MAX_IDEMPOTENT_RESPONSE_BYTES} bytes, more than is kept for a retry`,
  budget: 'the caller had used up the bytes kept for retries today',
};

const DAY_MS = 86_400_000;

/**
 * `Idempotency-Key` with Stripe's semantics: the first request with a key runs and its response is
 * stored for 24 h; a retry with the same key and the same request gets that response again; the
 * same key with a different request is a 409, and so is a retry while the first is still running.
 * Responses to refusals that did not run the request (429, 5xx) are not kept, so a retry runs.
 * Keys are per caller (API key or user), so a page's publishable key can never claim a key a
 * server will use; held in the store so every node sees them.
 *
 * What is kept is bounded: a response that carries a secret is kept without its body (the request
 * still runs once; a retry learns it ran, with 409), and so is one past the size limit or past its
 * key's or tenant's daily byte budget.
 */
export function createIdempotencyService(deps: ServiceDeps) {
  /** Why a response is kept without its body, or null to keep it whole (its bytes taken from the day's budgets). */
  async function withholding(ctx: RequestContext, response: StoredResponse, now: Date): Promise<Withheld | null> {
    if (carriesSecret(response.body)) return 'secret';
    const bytes = Buffer.byteLength(response.body);
    if (bytes > MAX_IDEMPOTENT_RESPONSE_BYTES) return 'size';
    const start = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
    const window = new Date(start).toISOString().slice(0, 10);
    const resetAt = new Date(start + DAY_MS).toISOString();
    const buckets: RateBucket[] = [
      { key: `idem:tenant:${ctx.tenant.id}`, window, limit: Math.ceil(IDEMPOTENCY_BYTES_PER_TENANT_PER_DAY / 1024), resetAt },
      { key: `idem:caller:${ctx.principal.kind}:${ctx.principal.id}`, window, limit: Math.ceil(IDEMPOTENCY_BYTES_PER_KEY_PER_DAY / 1024), resetAt },
    ];
    // Counted in KiB: every kept response costs at least one.
    const decision = await deps.store.rateLimits.consume(buckets, Math.max(1, Math.ceil(bytes / 1024)));
    return decision.allowed ? null : 'budget';
  }

  return {
    async begin(ctx: RequestContext, key: string, request: IdempotentRequest): Promise<Result<IdempotencyStart, PanyaError>> {
      if (!KEY.test(key)) return err(errors.invalid('Idempotency-Key must be 1 to 255 printable ASCII characters without spaces.', [{ path: 'Idempotency-Key', message: 'invalid key' }]));
      const tenantId = ctx.tenant.id;
      const { principal } = ctx;
      const namespaced = `${principal.kind}:${principal.id}:${key}`;
      const fingerprint = createHash('sha256')
        .update(canonical([ctx.principal.kind, ctx.principal.id, request.method.toUpperCase(), request.path, request.body]))
        .digest('hex');
      const now = deps.clock.now();
      const claim = await deps.store.idempotency.claim(
        { tenantId, key: namespaced, fingerprint, createdAt: now.toISOString(), expiresAt: new Date(now.getTime() + IDEMPOTENCY_KEY_TTL_MS).toISOString() },
        new Date(now.getTime() - IDEMPOTENCY_IN_FLIGHT_MS).toISOString(),
      );
      if (!claim.claimed) {
        const { existing } = claim;
        if (existing.fingerprint !== fingerprint) {
          return err(panyaError('conflict', { message: `Idempotency-Key "${key}" was used with a different request in the last 24 hours; use a new key for a new request.`, reason: 'idempotency_key_reused' }));
        }
        if (!existing.response) return err(panyaError('conflict', { message: `A request with Idempotency-Key "${key}" is still in progress; retry once it has finished.`, reason: 'idempotency_key_in_use' }));
        const withheld = (existing.response as StoredResponse & { withheld?: Withheld }).withheld;
        if (withheld) {
          return err(panyaError('conflict', { message: `The request with Idempotency-Key "${key}" already ran (status ${existing.response.status}), but ${WITHHELD_MESSAGES[withheld]}: read the result from its resource instead of retrying.`, reason: 'idempotency_response_not_kept' }));
        }
        return ok({ kind: 'replay', response: existing.response });
      }
      const keep = async (response: StoredResponse) => {
        const withheld = await withholding(ctx, response, now);
        await deps.store.idempotency.complete(tenantId, namespaced, withheld ? ({ status: response.status, headers: {}, body: '', withheld } as StoredResponse) : response);
      };
      return ok({
        kind: 'run',
        finish: (response) => (isReplayable(response.status) ? keep(response) : deps.store.idempotency.release(tenantId, namespaced)),
        abandon: () => deps.store.idempotency.release(tenantId, namespaced),
      });
    },
  };
}

export type IdempotencyService = ReturnType<typeof createIdempotencyService>;
