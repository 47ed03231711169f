import { panyaError, type PanyaError } from '../errors.js';
import type { RateBucket } from './ports/rate-limits.js';
import type { Store } from '../ports/store.js';

/**
 * Failed sign-ins allowed per account from one client address, and per client address over every
 * account, in widening windows: once the short window is spent the caller waits for it, and a
 * caller who keeps failing meets the hour and then the day window — the wait grows (5 min → 1 h →
 * 1 day) the longer guessing goes on. The account's counters are per address too, so failures
 * from one address never lock the account's owner out from another (the address is the real
 * client's: `PANYA_TRUST_PROXY` names the proxies in front of the server).
 */
export const LOGIN_THROTTLE = {
  account: [
    { windowMs: 5 * 60_000, failures: 5 },
    { windowMs: 3_600_000, failures: 10 },
    { windowMs: 86_400_000, failures: 30 },
  ],
  address: [
    { windowMs: 5 * 60_000, failures: 20 },
    { windowMs: 3_600_000, failures: 100 },
    { windowMs: 86_400_000, failures: 500 },
  ],
} as const;

type Tier = { windowMs: number; failures: number };

function buckets(kind: string, subject: string, tiers: readonly Tier[], now: Date): RateBucket[] {
  return tiers.map(({ windowMs, failures }) => {
    const start = Math.floor(now.getTime() / windowMs) * windowMs;
    return { key: `login:${kind}:${windowMs}:${subject}`, window: String(start), limit: failures, resetAt: new Date(start + windowMs).toISOString() };
  });
}

/**
 * Every attempt takes one unit from each counter before the password is checked (atomically, in
 * the store, so concurrent guesses and other nodes share one count). A correct password clears
 * the account's counters and gives the address its unit back: the address keeps its failures, so
 * signing in to one's own account between guesses at others wins nothing.
 */
export function createLoginThrottle(store: Store) {
  return {
    async attempt(email: string, address: string | undefined, now: Date): Promise<{ refused: PanyaError; scope: 'account' | 'address' } | { release(): Promise<void> }> {
      const account = buckets('account', address ? `${email}:${address}` : email, LOGIN_THROTTLE.account, now);
      const client = address ? buckets('address', address, LOGIN_THROTTLE.address, now) : [];
      const all = [...account, ...client];
      const decision = await store.rateLimits.consume(all, 1);
      if (!decision.allowed) {
        const spent = all.map((b, i) => ({ b, i })).filter(({ b, i }) => decision.counts[i]! + 1 > b.limit);
        const resetMs = Math.max(...spent.map(({ b }) => Date.parse(b.resetAt)));
        const retryAfterSeconds = Math.max(1, Math.ceil((resetMs - now.getTime()) / 1000));
        const limit = spent[0]!.b.limit;
        const scope = spent.some(({ i }) => i < account.length) ? 'account' : 'address';
        const message = `Too many failed sign-ins ${scope === 'account' ? 'for this account' : 'from this address'}; retry in ${retryAfterSeconds} s.`;
        return { scope, refused: panyaError('rate_limited', { message, limit, remaining: 0, resetAt: new Date(resetMs), retryAfterSeconds }) };
      }
      return {
        release: async () => {
          for (const [i, bucket] of account.entries()) await store.rateLimits.consume([bucket], -decision.counts[i]!);
          if (client.length > 0) await store.rateLimits.consume(client, -1);
        },
      };
    },
  };
}
