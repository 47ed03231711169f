import { describe, expect, it } from 'vitest';
import { LexicalIndex, LexicalRanker, type LexicalDoc } from '../src/index.js';
import type { LexicalSource, LexicalVersion } from '../src/search/ports/search-index.js';

const scope = { tenantId: 't1', workspaceId: 'w1' };

/** BM25 of one term as FTS5 computes it (k1 1.2, b 0.75), for checking the index by hand. */
function bm25(tf: number, length: number, avgdl: number, n: number, df: number) {
  const idf = Math.max(Math.log((n - df + 0.5) / (df + 0.5)), 1e-6);
  return (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * length) / avgdl));
}

describe('LexicalIndex', () => {
  it('scores BM25 with the title weighted and lengths from live chunks only', () => {
    const index = new LexicalIndex({ title: 3, body: 1, proximity: 0 });
    index.upsert({ id: 'a', title: 'refund', body: 'polici text' });
    index.upsert({ id: 'b', title: 'ship', body: 'refund refund later' });
    for (let i = 0; i < 8; i++) index.upsert({ id: `x${i}`, title: 'other', body: 'unrel word' });
    index.upsert({ id: 'gone', title: 'refund', body: 'refund' });
    index.remove('gone');
    const hits = index.search({ terms: ['refund'], pairs: [] }, 10);
    // 10 live chunks, lengths + 1 each: a 4, b 5, others 4 → avgdl 4.1; df 2.
    expect(hits.map((h) => h.chunkId)).toEqual(['a', 'b']);
    expect(hits[0]!.score).toBeCloseTo(bm25(3, 4, 4.1, 10, 2), 9);
    expect(hits[1]!.score).toBeCloseTo(bm25(2, 5, 4.1, 10, 2), 9);
  });

  it('adds the proximity weight times the pair BM25 to chunks holding the pair', () => {
    const index = new LexicalIndex({ title: 1, body: 1, proximity: 0.5 });
    index.upsert({ id: 'near', title: '', body: 'gift card expir' });
    index.upsert({ id: 'apart', title: '', body: 'card for gift' });
    for (let i = 0; i < 6; i++) index.upsert({ id: `x${i}`, title: '', body: 'filler word here' });
    const plain = index.search({ terms: ['gift', 'card'], pairs: [] }, 10);
    const near = index.search({ terms: ['gift', 'card'], pairs: [['gift', 'card']] }, 10);
    expect(plain[0]!.score).toBeCloseTo(plain[1]!.score, 9);
    expect(near[0]!.chunkId).toBe('near');
    expect(near[0]!.score - plain.find((h) => h.chunkId === 'near')!.score).toBeCloseTo(0.5 * bm25(1, 4, 4, 8, 1), 9);
    expect(near.find((h) => h.chunkId === 'apart')!.score).toBeCloseTo(plain.find((h) => h.chunkId === 'apart')!.score, 9);
  });

  it('ranks as a plain BM25 over every chunk does, through thousands of distinct pairs, replacements, removals and a compaction', () => {
    let seed = 7;
    const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const word = () => `w${Math.floor(rand() ** 2 * 400)}`;
    const text = (n: number) => Array.from({ length: n }, word).join(' ');
    const weights = { title: 3, body: 1, proximity: 0.15, grams: 0 };
    const index = new LexicalIndex(weights);
    const docs = new Map<string, LexicalDoc>();
    const put = (doc: LexicalDoc) => (docs.set(doc.id, doc), index.upsert(doc));
    for (let i = 0; i < 600; i++) put({ id: `d${i}`, title: text(3), body: text(40) });
    for (const _ of index.compact()) void _;
    for (let i = 0; i < 150; i++) put({ id: `d${Math.floor(rand() * 700)}`, title: text(2), body: text(30) });
    for (let i = 0; i < 80; i++) {
      const id = `d${Math.floor(rand() * 700)}`;
      docs.delete(id);
      index.remove(id);
    }
    // The reference: each key's column-weighted frequency per live chunk, statistics from live chunks only.
    const freq = (doc: LexicalDoc) => {
      const tf = new Map<string, number>();
      let length = 0;
      for (const [t, w] of [[doc.title, weights.title], [doc.body, weights.body]] as const) {
        const terms = t.split(' ');
        terms.forEach((term, k) => {
          length++;
          tf.set(term, (tf.get(term) ?? 0) + w);
          if (k > 0) tf.set(`${terms[k - 1]} ${term}`, (tf.get(`${terms[k - 1]} ${term}`) ?? 0) + w);
        });
      }
      return { tf, length: length + 1 };
    };
    const live = [...docs.values()].map((d) => ({ id: d.id, ...freq(d) }));
    const avgdl = live.reduce((sum, d) => sum + d.length, 0) / live.length;
    const dfs: Record<string, number> = {};
    const score = (key: string, weight: number, d: (typeof live)[number]) => {
      const df = (dfs[key] ??= live.filter((x) => x.tf.has(key)).length);
      return d.tf.has(key) ? weight * bm25(d.tf.get(key)!, d.length, avgdl, live.length, df) : 0;
    };
    for (let q = 0; q < 25; q++) {
      const terms = text(4).split(' ');
      const pairs = terms.slice(1).map((t, k) => [terms[k]!, t] as [string, string]);
      const expected = live
        .map((d) => ({ id: d.id, s: terms.reduce((sum, t) => sum + score(t, 1, d), 0), matched: terms.some((t) => d.tf.has(t)) }))
        .filter((d) => d.matched)
        .map((d) => ({ id: d.id, s: d.s + [...new Set(pairs.map((p) => p.join(' ')))].reduce((sum, p) => sum + score(p, weights.proximity, live.find((x) => x.id === d.id)!), 0) }))
        .sort((a, b) => b.s - a.s || (a.id < b.id ? -1 : 1))
        .slice(0, 20);
      const hits = index.search({ terms, pairs }, 20);
      expect(hits.map((h) => h.chunkId)).toEqual(expected.map((e) => e.id));
      hits.forEach((h, k) => expect(h.score).toBeCloseTo(expected[k]!.s, 9));
    }
  });

  it('keeps the best k by score, ties by chunk id', () => {
    const index = new LexicalIndex();
    for (const id of ['d', 'b', 'c', 'a']) index.upsert({ id, title: '', body: 'same words' });
    index.upsert({ id: 'z', title: '', body: 'other' });
    expect(index.search({ terms: ['same'], pairs: [] }, 3).map((h) => h.chunkId)).toEqual(['a', 'b', 'c']);
  });
});

/** A store double: a tenant's rows, a version, and a change list, as the stores keep them. */
function fakeSource() {
  const rows = new Map<string, LexicalDoc>();
  const changes: { seq: number; id: string }[] = [];
  const version: LexicalVersion = { seq: 0, floor: 0 };
  const calls = { version: 0, load: 0, changes: 0 };
  const source: LexicalSource = {
    async version() {
      calls.version++;
      return { ...version };
    },
    async load() {
      calls.load++;
      await new Promise((r) => setTimeout(r, 5));
      return [...rows.values()];
    },
    async changes(_scope, since) {
      calls.changes++;
      const ids = [...new Set(changes.filter((c) => c.seq > since).map((c) => c.id))];
      return { upserts: ids.filter((id) => rows.has(id)).map((id) => rows.get(id)!), removed: ids.filter((id) => !rows.has(id)) };
    },
  };
  const write = (doc: LexicalDoc | { id: string; delete: true }) => {
    version.seq++;
    if ('delete' in doc) rows.delete(doc.id);
    else rows.set(doc.id, doc);
    changes.push({ seq: version.seq, id: doc.id });
  };
  return { source, write, version, calls };
}

describe('LexicalRanker', () => {
  const q = (term: string) => ({ terms: [term], pairs: [] as [string, string][] });

  it('builds a workspace once for concurrent searches, then applies only the changes', async () => {
    const { source, write, calls } = fakeSource();
    write({ id: 'a', title: '', body: 'alpha' });
    const ranker = new LexicalRanker(source);
    const results = await Promise.all([ranker.search(scope, q('alpha'), 5), ranker.search(scope, q('alpha'), 5), ranker.search(scope, q('alpha'), 5)]);
    expect(results.map((r) => r.map((h) => h.chunkId))).toEqual([['a'], ['a'], ['a']]);
    expect(calls.load).toBe(1);
    write({ id: 'b', title: '', body: 'alpha beta' });
    write({ id: 'a', delete: true });
    expect((await ranker.search(scope, q('alpha'), 5)).map((h) => h.chunkId)).toEqual(['b']);
    expect(calls).toMatchObject({ load: 1, changes: 1 });
    // Unchanged: one version read, nothing else.
    await ranker.search(scope, q('beta'), 5);
    expect(calls).toMatchObject({ load: 1, changes: 1 });
  });

  it('rebuilds when the change list no longer reaches back to the cached index', async () => {
    const { source, write, version, calls } = fakeSource();
    write({ id: 'a', title: '', body: 'alpha' });
    const ranker = new LexicalRanker(source);
    await ranker.search(scope, q('alpha'), 5);
    write({ id: 'b', title: '', body: 'alpha' });
    version.floor = version.seq;
    expect((await ranker.search(scope, q('alpha'), 5)).map((h) => h.chunkId).sort()).toEqual(['a', 'b']);
    expect(calls).toMatchObject({ load: 2, changes: 0 });
  });

  it('rebuilds when changes are pruned between reading the version and reading the changes', async () => {
    const { source, write, version, calls } = fakeSource();
    write({ id: 'a', title: '', body: 'alpha' });
    const ranker = new LexicalRanker(source);
    await ranker.search(scope, q('alpha'), 5);
    write({ id: 'b', title: '', body: 'alpha' });
    write({ id: 'c', title: '', body: 'alpha' });
    // The retention job prunes right after this search read the version: the change list it then
    // reads has lost b's change (as a store's would), and the floor has passed the cached index.
    const changes = source.changes.bind(source);
    source.changes = async (s, since) => {
      version.floor = version.seq - 1;
      const listed = await changes(s, version.floor);
      return listed;
    };
    expect((await ranker.search(scope, q('alpha'), 5)).map((h) => h.chunkId).sort()).toEqual(['a', 'b', 'c']);
    expect(calls.load).toBe(2);
  });

  it('warms a workspace ahead of its first search', async () => {
    const { source, write, calls } = fakeSource();
    write({ id: 'a', title: '', body: 'alpha' });
    const ranker = new LexicalRanker(source);
    await ranker.warm(scope);
    expect(calls.load).toBe(1);
    expect((await ranker.search(scope, q('alpha'), 5)).map((h) => h.chunkId)).toEqual(['a']);
    expect(calls.load).toBe(1);
    const uncached = fakeSource();
    await new LexicalRanker(uncached.source, { cache: false }).warm(scope);
    expect(uncached.calls.load).toBe(0);
  });

  it('never caches when asked not to (a transaction’s view)', async () => {
    const { source, write, calls } = fakeSource();
    write({ id: 'a', title: '', body: 'alpha' });
    const ranker = new LexicalRanker(source, { cache: false });
    await ranker.search(scope, q('alpha'), 5);
    await ranker.search(scope, q('alpha'), 5);
    expect(calls).toMatchObject({ load: 2, version: 0 });
  });
});
