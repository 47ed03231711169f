import { describe, expect, it } from 'vitest';
import { createHostLookupCache } from '../../src/hostnames/host-cache.js';

function fakeClock(start = Date.parse('2026-01-01T00:00:00Z')) {
  let now = start;
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

describe('host look-up cache', () => {
  it('answers from memory within the TTL and asks the store again after it (other nodes converge)', async () => {
    const clock = fakeClock();
    const cache = createHostLookupCache(clock, { ttlMs: 30_000 });
    let loads = 0;
    let registered = false;
    const load = async () => (loads++, registered);
    expect(await cache.lookup('help.acme.example', load)).toBe(false);
    registered = true; // another node registered it
    clock.advance(29_999);
    expect(await cache.lookup('help.acme.example', load)).toBe(false);
    expect(loads).toBe(1);
    clock.advance(2);
    expect(await cache.lookup('help.acme.example', load)).toBe(true);
    expect(loads).toBe(2);
  });

  it('a local write clears it at once, and a look-up racing the write does not store its stale answer', async () => {
    const cache = createHostLookupCache(fakeClock());
    let release!: (v: boolean) => void;
    const slow = cache.lookup('a.example', () => new Promise<boolean>((r) => (release = r)));
    cache.clear();
    release(false);
    expect(await slow).toBe(false);
    expect(await cache.lookup('a.example', async () => true)).toBe(true);
    cache.clear();
    expect(await cache.lookup('a.example', async () => false)).toBe(false);
  });

  it('keeps at most maxEntries hosts (random Host headers cannot grow it)', async () => {
    const cache = createHostLookupCache(fakeClock(), { maxEntries: 3 });
    for (const h of ['a', 'b', 'c', 'd']) await cache.lookup(h, async () => true);
    let asked = 0;
    await cache.lookup('a', async () => (asked++, true)); // evicted first
    await cache.lookup('d', async () => (asked++, true)); // still held
    expect(asked).toBe(1);
  });
});
