/**
 * Whether a hostname is served by the help center, remembered for a short time: every API
 * request on a dotted host asks, and without this each one would cost two store look-ups
 * (custom hostnames, tombstones). A local write (hostname added or removed, tenant erased)
 * clears it at once; other nodes converge within the TTL.
 */
import type { Clock } from '../ports/system.js';

/** How long another node's hostname change may go unseen here. */
export const HOST_LOOKUP_TTL_MS = 30_000;
/** Entries kept at most (random Host headers cannot grow it without bound). */
export const HOST_LOOKUP_MAX_ENTRIES = 10_000;

export interface HostLookupCache {
  /** The cached answer for `host`, or `load()`'s (then cached). */
  lookup(host: string, load: () => Promise<boolean>): Promise<boolean>;
  /** Forgets every answer (after a local write). */
  clear(): void;
}

export function createHostLookupCache(clock: Clock, options: { ttlMs?: number; maxEntries?: number } = {}): HostLookupCache {
  const ttl = options.ttlMs ?? HOST_LOOKUP_TTL_MS;
  const max = options.maxEntries ?? HOST_LOOKUP_MAX_ENTRIES;
  const entries = new Map<string, { value: boolean; expires: number }>();
  // A look-up that started before a clear must not store its (possibly stale) answer.
  let generation = 0;
  return {
    async lookup(host, load) {
      const now = clock.now().getTime();
      const hit = entries.get(host);
      if (hit && hit.expires > now) return hit.value;
      const started = generation;
      const value = await load();
      if (started === generation) {
        entries.delete(host);
        if (entries.size >= max) entries.delete(entries.keys().next().value!);
        entries.set(host, { value, expires: now + ttl });
      }
      return value;
    },
    clear() {
      generation += 1;
      entries.clear();
    },
  };
}
