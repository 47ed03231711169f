import { describe, expect, it } from 'vitest';
import { createIds, randomBase62 } from '../src/system.js';
import { plainText } from '../src/text/plain.js';
import { queryFragments, segmentWords } from '../src/text/tokenizer.js';

describe('per-request helpers', () => {
  it('segmentWords answers a repeated text alike, and a caller changing its answer changes no later one', () => {
    const first = segmentWords('How long do refunds take?');
    expect(first).toEqual(['how', 'long', 'do', 'refunds', 'take']);
    first.push('tampered');
    first[0] = 'x';
    expect(segmentWords('How long do refunds take?')).toEqual(['how', 'long', 'do', 'refunds', 'take']);
    expect(queryFragments('How long do refunds take?')).toEqual(['long', 'refunds', 'take']);
    expect(segmentWords('Shipping times')).toEqual(['shipping', 'times']);
  });

  it('plainText leaves text without markup as it is and still strips markup', () => {
    const plain = 'Refunds take 7 days (business days only) & cost nothing.';
    expect(plainText(plain)).toBe(plain);
    expect(plainText('See [the policy](javascript:alert(1)) <img src=x onerror=alert(1)>now')).toBe('See the policy now');
    // Brackets alone (citations) are kept; a link, image or reference definition beside them is not.
    const cited = 'Shown in mice [12], [13–15] and (in vitro) [16].';
    expect(plainText(cited)).toBe(cited);
    expect(plainText('Cited [1] and ![a chart](x.png) then [docs][d]\n[d]: https://x.test\nend')).toBe('Cited [1] and a chart then [docs][d]\n\nend');
  });

  it('random base62 strings use the whole alphabet and never repeat', () => {
    const seen = new Set<string>();
    const chars = new Set<string>();
    for (let i = 0; i < 2_000; i++) {
      const s = randomBase62(11);
      expect(s).toMatch(/^[0-9A-Za-z]{11}$/);
      seen.add(s);
      for (const c of s) chars.add(c);
    }
    expect(seen.size).toBe(2_000);
    expect(chars.size).toBe(62);
    const ids = createIds();
    const evts = Array.from({ length: 1_000 }, () => ids.next('evt'));
    expect(new Set(evts).size).toBe(1_000);
    expect([...evts].sort()).toEqual(evts);
  });
});
