/**
 * The one error type of the domain. Every service returns `Result<T, PanyaError>`;
 * adapters map `code` to HTTP statuses / MCP errors in one place each.
 */
import { providerUnavailable, type LocalizedText } from './messages.js';

export type PanyaErrorCode = PanyaError['code'];

export interface FieldIssue {
  /** Dotted path into the input, e.g. `create[3].title`. */
  path: string;
  message: string;
}

export type { LocalizedText };

interface Base {
  readonly [PANYA_ERROR]: true;
  message: string;
  localized?: LocalizedText;
}

export type PanyaError =
  | (Base & { code: 'invalid_request'; issues: FieldIssue[] })
  | (Base & { code: 'unauthorized' })
  | (Base & { code: 'forbidden'; requiredScope?: string })
  | (Base & { code: 'not_found'; resource: string; issues?: FieldIssue[] })
  | (Base & { code: 'gone' })
  /** `reason`: a machine-readable cause where callers act on it (e.g. `idempotency_key_reused`). */
  | (Base & { code: 'conflict'; reason?: string })
  /** Well-formed but not possible for this resource (e.g. checkout for a plan with no product). */
  | (Base & { code: 'unprocessable'; issues: FieldIssue[] })
  | (Base & { code: 'plan_required'; plan: string })
  | (Base & { code: 'quota_exceeded'; limit: number; plan?: string })
  | (Base & { code: 'rate_limited'; limit: number; remaining: number; resetAt: Date; retryAfterSeconds: number; quota?: string; windowSeconds?: number })
  | (Base & { code: 'hard_cap_reached'; cap: number })
  | (Base & { code: 'payload_too_large'; maxBytes: number; limit?: string })
  | (Base & { code: 'unsupported_media_type'; supported: string[] })
  | (Base & { code: 'request_timeout'; timeoutMs: number })
  /** Well-formed input that is too costly to process, e.g. a PDF past the page cap; `limit` names the constant. */
  | (Base & { code: 'limit_exceeded'; limit: string; max: number })
  /** Temporarily refused; with `limit` (the constant that held it back) and `retryAfterSeconds` when load, not an outage, is the cause. */
  | (Base & { code: 'unavailable'; limit?: string; max?: number; retryAfterSeconds?: number })
  /** The route exists, not with this method; `allowed` is the `Allow` header's list. */
  | (Base & { code: 'method_not_allowed'; allowed: string[] })
  /**
   * A model provider (generator, embedder) failed or could not be reached. `transient`: worth
   * retrying soon (unreachable, timed out, overloaded), else a fault to fix (refused key, unknown model).
   */
  | (Base & { code: 'upstream_unavailable'; provider: string; transient: boolean })
  | (Base & { code: 'internal' });

/** Recognised by a registry symbol rather than `instanceof`, so copies of core in one process agree. */
export const PANYA_ERROR = Symbol.for('panya.error');

type Fields<C extends PanyaErrorCode> = Omit<Extract<PanyaError, { code: C }>, typeof PANYA_ERROR | 'code'>;

export function panyaError<C extends PanyaErrorCode>(code: C, fields: Fields<C>): Extract<PanyaError, { code: C }> {
  return { [PANYA_ERROR]: true, code, ...fields } as Extract<PanyaError, { code: C }>;
}

export function isPanyaError(value: unknown): value is PanyaError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[PANYA_ERROR] === true;
}

export const errors = {
  invalid: (message: string, issues: FieldIssue[] = []) => panyaError('invalid_request', { message, issues }),
  unauthorized: (message = 'A valid API key is required.') => panyaError('unauthorized', { message }),
  forbidden: (message: string, requiredScope?: string) =>
    panyaError('forbidden', requiredScope ? { message, requiredScope } : { message }),
  notFound: (resource: string) => panyaError('not_found', { message: `${resource} not found.`, resource }),
  conflict: (message: string) => panyaError('conflict', { message }),
  unprocessable: (message: string, issues: FieldIssue[] = []) => panyaError('unprocessable', { message, issues }),
  internal: (message = 'Internal error.') => panyaError('internal', { message }),
};

/**
 * Error classes are recognised by a registry symbol (`Symbol.for`), never by prototype: two
 * copies of a package in one process (or a bundled and an installed one) still agree, and
 * `instanceof` is answered from the marker.
 */
export function hasMarker(value: unknown, marker: symbol): boolean {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
}
const marked = hasMarker;

const STORE_CONFLICT = Symbol.for('panya.error.store-conflict');
const ABORT_TRANSACTION = Symbol.for('panya.error.abort-transaction');
const EMBEDDER_MISMATCH = Symbol.for('panya.error.embedder-mismatch');
const UPSTREAM = Symbol.for('panya.error.upstream');
const STORE_BUSY = Symbol.for('panya.error.store-busy');

/**
 * Thrown by stores when a unique constraint is violated; services turn it into `conflict`.
 * Stores throw (ports are plain async interfaces); services return Results.
 */
export class StoreConflictError extends Error {
  readonly [STORE_CONFLICT] = true;
  static override [Symbol.hasInstance](value: unknown): boolean {
    return marked(value, STORE_CONFLICT);
  }
  constructor(message: string) {
    super(message);
    this.name = 'StoreConflictError';
  }
}

export function isStoreConflict(error: unknown): error is StoreConflictError {
  return marked(error, STORE_CONFLICT);
}

/**
 * Thrown by stores when a write could not take the database's write lock within the store's wait:
 * other writers held it (overload, not a fault). The HTTP adapter answers 503 with Retry-After.
 */
export class StoreBusyError extends Error {
  readonly [STORE_BUSY] = true;
  static override [Symbol.hasInstance](value: unknown): boolean {
    return marked(value, STORE_BUSY);
  }
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreBusyError';
  }
}

export function isStoreBusy(error: unknown): error is StoreBusyError {
  return marked(error, STORE_BUSY);
}

/** Seconds a client is told to wait when the database was too busy to take its write. */
export const STORE_BUSY_RETRY_AFTER_SECONDS = 2;

/** What a client is told when the database was too busy to take its write. */
export function storeBusy(): PanyaError {
  return panyaError('unavailable', { message: `The database is busy with other writes; nothing was changed. Try again in ${STORE_BUSY_RETRY_AFTER_SECONDS} s.`, retryAfterSeconds: STORE_BUSY_RETRY_AFTER_SECONDS });
}

/**
 * Thrown inside a transaction callback to roll it back and surface a domain error.
 * `Store.transaction` rethrows it; `runInTransaction` turns it back into an `err` Result.
 */
export class AbortTransaction extends Error {
  readonly [ABORT_TRANSACTION] = true;
  static override [Symbol.hasInstance](value: unknown): boolean {
    return marked(value, ABORT_TRANSACTION);
  }
  constructor(readonly error: PanyaError) {
    super(error.message);
    this.name = 'AbortTransaction';
  }
}

export function isAbortTransaction(error: unknown): error is AbortTransaction {
  return marked(error, ABORT_TRANSACTION);
}

/** The stored vectors come from another embedder than the configured one: they cannot be mixed. */
export class EmbedderMismatchError extends Error {
  readonly [EMBEDDER_MISMATCH] = true;
  static override [Symbol.hasInstance](value: unknown): boolean {
    return marked(value, EMBEDDER_MISMATCH);
  }
  constructor(
    readonly stored: { embedderId: string; dimension: number },
    readonly configured: { embedderId: string; dimension: number },
  ) {
    super(
      `The search index holds vectors from embedder "${stored.embedderId}" (${stored.dimension} dimensions), ` +
        `but the configured embedder is "${configured.embedderId}" (${configured.dimension} dimensions). ` +
        'Configure the original embedder again, or re-index every document with the new one: `panya reindex --all`.',
    );
    this.name = 'EmbedderMismatchError';
  }
}

export function isEmbedderMismatchError(error: unknown): error is EmbedderMismatchError {
  return marked(error, EMBEDDER_MISMATCH);
}

/**
 * Thrown by a model provider's adapter (an HTTP generator or embedder) when the provider failed
 * or could not be reached; services turn it into `upstream_unavailable` (502/503), never 500.
 */
export class UpstreamError extends Error {
  readonly [UPSTREAM] = true;
  static override [Symbol.hasInstance](value: unknown): boolean {
    return marked(value, UPSTREAM);
  }
  constructor(
    /** e.g. `openai:gpt-4o-mini`. */
    readonly provider: string,
    message: string,
    /** Worth retrying soon: unreachable, timed out, rate limited or a 5xx. */
    readonly transient: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'UpstreamError';
  }
}

export function isUpstreamError(error: unknown): error is UpstreamError {
  return marked(error, UPSTREAM);
}

/** Seconds a client is told to wait after a transient provider failure. */
export const UPSTREAM_RETRY_AFTER_SECONDS = 30;

/** The domain error of a provider failure: what the caller is told, in both locales (the provider's own text goes to the log). */
export function upstreamUnavailable(error: UpstreamError): PanyaError {
  const localized = providerUnavailable(error.provider, error.transient);
  return panyaError('upstream_unavailable', { message: localized.en, localized, provider: error.provider, transient: error.transient });
}
