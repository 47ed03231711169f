import { MAX_CHAT_STREAMS_PER_KEY, MAX_CHAT_STREAMS_PER_TENANT, MAX_CHAT_STREAMS_PER_VISITOR, MAX_LONG_POLLS_PER_KEY, MAX_LONG_POLLS_PER_TENANT, MAX_LONG_POLLS_PER_VISITOR } from '../bounds.js';
import { panyaError, type PanyaError } from '../errors.js';
import type { RequestContext } from '../context.js';

/** A refused slot is worth retrying soon: streams last seconds. */
const RETRY_AFTER_SECONDS = 5;

export interface SlotLimits {
  perKey: number;
  perTenant: number;
  /** Per visitor of a public surface (a publishable key's caller, `RequestContext.visitor`). */
  perVisitor: number;
}

/**
 * Open long-lived requests (chat streams, long-polls) per caller, per tenant and per visitor of
 * a public surface, on this node: each holds a connection (a chat stream also a model stream
 * upstream), so their number is capped rather than their rate alone, and one visitor of a widget
 * cannot hold every slot of its key. A slot is held until the request ends; `release` is idempotent.
 */
export function createSlots(what: string, limits: SlotLimits) {
  const open = new Map<string, number>();
  const count = (key: string) => open.get(key) ?? 0;
  const adjust = (key: string, by: number) => {
    const next = count(key) + by;
    if (next <= 0) open.delete(key);
    else open.set(key, next);
  };

  return {
    acquire(ctx: RequestContext): { release(): void } | PanyaError {
      const counters: { key: string; limit: number; who: string }[] = [];
      if (ctx.principal.publishable && ctx.visitor !== undefined) counters.push({ key: `visitor:${ctx.principal.id}:${ctx.visitor}`, limit: limits.perVisitor, who: 'one visitor' });
      counters.push({ key: `caller:${ctx.principal.kind}:${ctx.principal.id}`, limit: limits.perKey, who: 'this key' }, { key: `tenant:${ctx.tenant.id}`, limit: limits.perTenant, who: 'this tenant' });
      const full = counters.find((c) => count(c.key) >= c.limit);
      if (full) {
        return panyaError('rate_limited', {
          message: `At most ${full.limit} ${what} may be open at once for ${full.who}; retry when one has finished.`,
          limit: full.limit,
          remaining: 0,
          resetAt: new Date(Date.now() + RETRY_AFTER_SECONDS * 1000),
          retryAfterSeconds: RETRY_AFTER_SECONDS,
        });
      }
      for (const c of counters) adjust(c.key, 1);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          for (const c of counters) adjust(c.key, -1);
        },
      };
    },
    /** Slots open now (for tests and metrics). */
    openFor: (tenantId: string) => count(`tenant:${tenantId}`),
  };
}

/** Chat streams (each holds a model stream upstream). */
export function createStreamSlots(limits: Partial<SlotLimits> = {}) {
  return createSlots('chat streams', { perKey: MAX_CHAT_STREAMS_PER_KEY, perTenant: MAX_CHAT_STREAMS_PER_TENANT, perVisitor: MAX_CHAT_STREAMS_PER_VISITOR, ...limits });
}

/** Long-polls waiting for a conversation's next message. */
export function createLongPollSlots(limits: Partial<SlotLimits> = {}) {
  return createSlots('long-polls', { perKey: MAX_LONG_POLLS_PER_KEY, perTenant: MAX_LONG_POLLS_PER_TENANT, perVisitor: MAX_LONG_POLLS_PER_VISITOR, ...limits });
}

export type StreamSlots = ReturnType<typeof createSlots>;
