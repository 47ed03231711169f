import { describe, expect, it } from 'vitest';
import { fragmentText, rankFragments, ScanTexts, type ScanChunk } from '../src/index.js';

/** A deterministic generator, so a failure names the case it met. */
function rng(seed: number) {
  return () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
}

const WORDS = ['order', 'SKU-4471', 'ships', 'ขนส่ง', 'สินค้า', 'café', 'Ünïcode', '😀emoji', 'returns', 'ord', 'rder', 'sku', 'ku-4'];

function chunks(seed: number, n: number): ScanChunk[] {
  const next = rng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
  return Array.from({ length: n }, (_, i) => ({
    id: `c${String(i).padStart(3, '0')}`,
    title: pick(WORDS),
    text: Array.from({ length: 1 + Math.floor(next() * 30) }, () => pick(WORDS)).join(next() < 0.5 ? ' ' : ''),
    audiences: pick([null, ['public'], ['internal'], ['public', 'customers']]),
  }));
}

describe('ScanTexts: a small workspace kept for the trigram scan', () => {
  it('ranks as rankFragments does, to the same scores, for any reader', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const kept = chunks(seed, 1 + (seed % 25));
      const texts = ScanTexts.of(kept);
      for (const fragments of [['ord'], ['sku-4471', 'ขนส่ง'], ['café', '😀emo', 'rder'], ['ünïcode', 'ships', 'nothing-here'], ['returnsorder']]) {
        for (const audiences of [null, ['public'], ['customers'], []]) {
          const readable = kept.filter((c) => audiences === null || (c.audiences !== null && c.audiences.some((a) => audiences.includes(a))));
          const expected = rankFragments(readable.map((c) => ({ id: c.id, body: fragmentText(c.title, c.text) })), fragments, 10);
          expect(texts.rank(fragments, 10, audiences), `seed ${seed}, ${fragments.join('|')}, ${JSON.stringify(audiences)}`).toEqual(expected);
        }
      }
    }
  });

  it('never counts a match running from one chunk into the next', () => {
    const texts = ScanTexts.of([
      { id: 'a', title: 'x', text: 'ends with abc', audiences: null },
      { id: 'b', title: 'def then', text: 'abc again', audiences: null },
    ]);
    // "abc" + the next chunk's "def" are adjacent in the buffer; the fragment is in neither chunk.
    expect(texts.rank(['abcdef', 'cde'], 10, null)).toEqual([]);
    expect(texts.rank(['abc'], 10, null).map((h) => h.chunkId).sort()).toEqual(['a', 'b']);
  });

  it('counts non-overlapping occurrences, as SQL replace() does', () => {
    const texts = ScanTexts.of([{ id: 'a', title: 't', text: 'aaaaa', audiences: null }]);
    const [hit] = texts.rank(['aaa', 'aa'], 10, null);
    expect(hit).toEqual(rankFragments([{ id: 'a', body: 't\naaaaa' }], ['aaa', 'aa'], 10)[0]);
  });
});
