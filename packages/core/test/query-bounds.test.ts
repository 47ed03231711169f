import { describe, expect, it } from 'vitest';
import { MAX_QUERY_FRAGMENTS, MAX_QUERY_PAIRS, MAX_QUERY_TERMS } from '../src/bounds.js';
import { boundTerms, searchTerms } from '../src/text/query.js';
import { queryFragments } from '../src/text/tokenizer.js';

const COMMON = 'patient cell study effect treatment disease protein gene result level risk group increase model human mouse expression clinical trial data analysis response factor role function activity process change system population sample method type rate test'.split(' ');

describe('query term bounds', () => {
  it('dedupes terms and pairs, keeping query order', () => {
    const { terms, pairs } = searchTerms('refund policy refund policy refund');
    expect(terms).toEqual(['refund', 'polici']);
    expect(pairs).toEqual([['refund', 'polici'], ['polici', 'refund']]);
  });

  it('keeps short queries whole', () => {
    expect(searchTerms('shipping costs to Chiang Mai').terms).toEqual(['ship', 'cost', 'chiang', 'mai']);
  });

  it('keeps at most MAX_QUERY_TERMS distinct terms and MAX_QUERY_PAIRS pairs whatever the length', () => {
    const words = Array.from({ length: 280 }, (_, i) => COMMON[i % COMMON.length]!);
    const { terms, pairs } = searchTerms(words.join(' '));
    expect(terms).toHaveLength(MAX_QUERY_TERMS);
    expect(new Set(terms).size).toBe(terms.length);
    expect(pairs.length).toBeLessThanOrEqual(MAX_QUERY_PAIRS);
    for (const [a, b] of pairs) expect(terms).toEqual(expect.arrayContaining([a, b]));
  });

  it('prefers the most selective terms: rare long words over short ones and function words', () => {
    const short = Array.from({ length: 40 }, (_, i) => `w${i}`);
    const query = [...short.slice(0, 20), 'immunohistochemistry', ...short.slice(20), 'และ', 'pharmacokinetics'].join(' ');
    const { terms } = searchTerms(query);
    expect(terms).toContain('immunohistochemistri');
    expect(terms).toContain('pharmacokinet');
    expect(terms).not.toContain('และ');
    // The survivors keep their order in the query.
    expect(terms.indexOf('immunohistochemistri')).toBeLessThan(terms.indexOf('pharmacokinet'));
  });

  it('bounds trigram fragments too', () => {
    const words = Array.from({ length: 100 }, (_, i) => `fragment${i}`);
    expect(boundTerms(queryFragments(words.join(' ')), MAX_QUERY_FRAGMENTS)).toHaveLength(MAX_QUERY_FRAGMENTS);
  });
});
