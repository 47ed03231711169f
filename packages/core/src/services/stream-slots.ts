import { MAX_CHAT_STREAMS_PER_KEY, MAX_CHAT_STREAMS_PER_TENANT } from '../bounds.js';
import { panyaError, type PanyaError } from '../errors.js';
import type { RequestContext } from './context.js';

/** A refused stream is worth retrying soon: streams last seconds. */
const RETRY_AFTER_SECONDS = 5;

/**
 * Open chat streams per caller and per tenant on this node: each holds a model stream upstream,
 * so their number is capped rather than their rate alone. A slot is held from before the quota
 * is taken until the stream ends or is abandoned; `release` is idempotent.
 */
export function createStreamSlots(limits: { perKey: number; perTenant: number } = { perKey: MAX_CHAT_STREAMS_PER_KEY, perTenant: MAX_CHAT_STREAMS_PER_TENANT }) {
  const open = new Map<string, number>();
  const count = (key: string) => open.get(key) ?? 0;
  const adjust = (key: string, by: number) => {
    const next = count(key) + by;
    if (next <= 0) open.delete(key);
    else open.set(key, next);
  };

  return {
    acquire(ctx: RequestContext): { release(): void } | PanyaError {
      const caller = `caller:${ctx.principal.kind}:${ctx.principal.id}`;
      const tenant = `tenant:${ctx.tenant.id}`;
      const full = count(caller) >= limits.perKey ? { limit: limits.perKey, who: 'this key' } : count(tenant) >= limits.perTenant ? { limit: limits.perTenant, who: 'this tenant' } : null;
      if (full) {
        return panyaError('rate_limited', {
          message: `At most ${full.limit} chat streams may be open at once for ${full.who}; retry when one has finished.`,
          limit: full.limit,
          remaining: 0,
          resetAt: new Date(Date.now() + RETRY_AFTER_SECONDS * 1000),
          retryAfterSeconds: RETRY_AFTER_SECONDS,
        });
      }
      adjust(caller, 1);
      adjust(tenant, 1);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          adjust(caller, -1);
          adjust(tenant, -1);
        },
      };
    },
    /** Streams open now (for tests and metrics). */
    openFor: (tenantId: string) => count(`tenant:${tenantId}`),
  };
}

export type StreamSlots = ReturnType<typeof createStreamSlots>;
