import { createHash } from 'node:crypto';
import { err, ok, type Result } from 'neverthrow';
import { errors, panyaError, type PanyaError } from '../errors.js';
import type { StoredResponse } from '../ports/store.js';
import type { RequestContext, ServiceDeps } from './context.js';

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
 * `Idempotency-Key` with Stripe's semantics: the first request with a key runs and its response is
 * stored for 24 h; a retry with the same key and the same request gets that response again; the
 * same key with a different request (or caller) is a 409, and so is a retry while the first is
 * still running. Responses to refusals that did not run the request (429, 5xx) are not kept, so a
 * retry runs. Keys are per tenant, held in the store so every node sees them.
 */
export function createIdempotencyService(deps: ServiceDeps) {
  return {
    async begin(ctx: RequestContext, key: string, request: IdempotentRequest): Promise<Result<IdempotencyStart, PanyaError>> {
      if (!KEY.test(key)) return err(errors.invalid('Idempotency-Key must be 1 to 255 printable ASCII characters without spaces.', [{ path: 'Idempotency-Key', message: 'invalid key' }]));
      const tenantId = ctx.tenant.id;
      const fingerprint = createHash('sha256')
        .update(canonical([ctx.principal.kind, ctx.principal.id, request.method.toUpperCase(), request.path, request.body]))
        .digest('hex');
      const now = deps.clock.now();
      const claim = await deps.store.idempotency.claim(
        { tenantId, key, fingerprint, createdAt: now.toISOString(), expiresAt: new Date(now.getTime() + IDEMPOTENCY_KEY_TTL_MS).toISOString() },
        new Date(now.getTime() - IDEMPOTENCY_IN_FLIGHT_MS).toISOString(),
      );
      if (!claim.claimed) {
        const { existing } = claim;
        if (existing.fingerprint !== fingerprint) {
          return err(panyaError('conflict', { message: `Idempotency-Key "${key}" was used with a different request in the last 24 hours; use a new key for a new request.`, reason: 'idempotency_key_reused' }));
        }
        if (!existing.response) return err(panyaError('conflict', { message: `A request with Idempotency-Key "${key}" is still in progress; retry once it has finished.`, reason: 'idempotency_key_in_use' }));
        return ok({ kind: 'replay', response: existing.response });
      }
      return ok({
        kind: 'run',
        finish: (response) => (isReplayable(response.status) ? deps.store.idempotency.complete(tenantId, key, response) : deps.store.idempotency.release(tenantId, key)),
        abandon: () => deps.store.idempotency.release(tenantId, key),
      });
    },
  };
}

export type IdempotencyService = ReturnType<typeof createIdempotencyService>;
