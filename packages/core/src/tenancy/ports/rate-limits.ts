/**
 * Rate-limit counters live in the store so that several API nodes sharing one database enforce
 * one limit.
 */

/** One fixed-window counter a request draws from, e.g. a tenant's queries on one UTC day. */
export interface RateBucket {
  /** e.g. `q:day:<tenantId>`; together with `window` it names one counter. */
  key: string;
  /** Window label, e.g. `2026-11-21` or `2026-11-21T10`. */
  window: string;
  limit: number;
  /** When the window ends; expired counters may be purged. */
  resetAt: string;
}

export interface RateDecision {
  allowed: boolean;
  /** Each bucket's count after this request (unchanged for all buckets when refused). */
  counts: number[];
}

export interface RateLimitStore {
  /**
   * Atomically takes `cost` from every bucket, or from none when any would exceed its limit
   * (so a refused request never uses up another bucket). Safe under concurrency and across nodes.
   */
  consume(buckets: readonly RateBucket[], cost: number): Promise<RateDecision>;
  purgeExpired(before: string): Promise<number>;
  /**
   * Deletes every counter whose key has one of `subjects` as one of its `:`-separated parts
   * (tenant erasure: its tenant id, key and user ids, e-mail addresses); returns how many.
   */
  forget(subjects: readonly string[]): Promise<number>;
}
