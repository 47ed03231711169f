import { describe, expect, it } from 'vitest';
import { topK } from '../src/search/lexical-index.js';

/** The reference: every candidate sorted by score (best first), ties by id. */
const sorted = (candidates: number[], scores: Float64Array, ids: string[]) => [...candidates].sort((a, b) => scores[b]! - scores[a]! || (ids[a]! < ids[b]! ? -1 : 1));

describe('topK', () => {
  it('returns the best by score then id, as a full sort would, ties at the cut included', () => {
    let state = 11;
    const rand = (n: number) => ((state = (state * 1103515245 + 12345) & 0x7fffffff) % n);
    for (let round = 0; round < 200; round++) {
      const n = 1 + rand(400);
      // Few distinct scores: many ties, also across the cut.
      const distinct = 1 + rand(12);
      const scores = Float64Array.from({ length: n }, () => rand(distinct) / 7);
      const ids = Array.from({ length: n }, (_, i) => `c${rand(1000)}-${i}`);
      const candidates = Array.from({ length: n }, (_, i) => i).filter(() => rand(4) !== 0);
      const limit = 1 + rand(120);
      const expected = sorted(candidates, scores, ids).slice(0, limit);
      expect(topK(Int32Array.from(candidates), candidates.length, scores, ids, limit)).toEqual(expected);
    }
  });

  it('reads only the first `count` candidates and returns none for no room', () => {
    const scores = Float64Array.from([1, 5, 3, 9]);
    const ids = ['a', 'b', 'c', 'd'];
    expect(topK([0, 1, 2, 3], 3, scores, ids, 2)).toEqual([1, 2]);
    expect(topK([0, 1, 2, 3], 4, scores, ids, 0)).toEqual([]);
    expect(topK([0, 1, 2, 3], 0, scores, ids, 3)).toEqual([]);
  });
});
