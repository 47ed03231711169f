import { afterEach, describe, expect, it } from 'vitest';
import { configureIndexCache, defaultIndexCacheBytes, indexCacheStats, LexicalRanker, type LexicalSource, type LexicalSourceDoc } from '@panya/core';

/** A store's lexical source over fixed workspaces, counting whole loads. */
function source(workspaces: Record<string, LexicalSourceDoc[]>) {
  const loads: string[] = [];
  const src: LexicalSource = {
    version: async () => ({ seq: 1, floor: 0 }),
    load: async (scope) => {
      loads.push(scope.workspaceId);
      return workspaces[scope.workspaceId] ?? [];
    },
    changes: async () => ({ upserts: [], removed: [] }),
  };
  return { src, loads };
}

const docs = (prefix: string, n: number): LexicalSourceDoc[] =>
  Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, title: `titl ${prefix}`, body: `shipment ${prefix}word${i} order deliveri ${i % 7} warehous` }));

const query = { terms: ['shipment'], pairs: [] as [string, string][] };
const scope = (workspaceId: string) => ({ tenantId: 't', workspaceId });

afterEach(() => configureIndexCache(defaultIndexCacheBytes()));

describe('the index cache', () => {
  it('is bounded in bytes: the least recently searched workspace leaves first, and is loaded again when asked', async () => {
    const { src, loads } = source({ a: docs('a', 300), b: docs('b', 300), c: docs('c', 300) });
    const ranker = new LexicalRanker(src);
    // The cache is the process's: earlier files in this worker may have left indexes in it.
    const before = indexCacheStats().bytes;
    await ranker.search(scope('a'), query, 5);
    const one = indexCacheStats().bytes - before;
    expect(one).toBeGreaterThan(300 * 50);
    // Room for about two such indexes (the older ones leave first).
    configureIndexCache(Math.floor(one * 2.5));
    await ranker.search(scope('b'), query, 5);
    await ranker.search(scope('a'), query, 5); // a is now the most recent
    await ranker.search(scope('c'), query, 5); // b leaves
    expect(indexCacheStats().bytes).toBeLessThanOrEqual(one * 2.5);
    expect(loads).toEqual(['a', 'b', 'c']);
    await ranker.search(scope('a'), query, 5);
    expect(loads).toEqual(['a', 'b', 'c']);
    await ranker.search(scope('b'), query, 5);
    expect(loads).toEqual(['a', 'b', 'c', 'b']);
  });

  it('counts hits, loads and load time', async () => {
    const { src } = source({ a: docs('a', 50) });
    const ranker = new LexicalRanker(src);
    const before = indexCacheStats();
    await ranker.search(scope('a'), query, 5);
    await ranker.search(scope('a'), query, 5);
    const after = indexCacheStats();
    expect(after.loads - before.loads).toBe(1);
    expect(after.hits - before.hits).toBe(1);
    expect(after.loadSeconds).toBeGreaterThan(before.loadSeconds);
  });

  it('refuses a budget that is not a positive number of bytes', () => {
    expect(() => configureIndexCache(0)).toThrow(/positive/);
    expect(() => configureIndexCache(Number.NaN)).toThrow(/positive/);
  });
});
