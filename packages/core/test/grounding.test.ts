import { describe, expect, it } from 'vitest';
import { CitationNumbering, numberCitations, type GroundingContext } from '../src/answers/grounding.js';

const context: GroundingContext = {
  passages: [1, 2, 3, 4].map((n) => ({ n, chunkId: `chk_${n}`, documentId: `doc_${n}`, title: `Doc ${n}`, headingPath: [], text: `Text ${n}` })),
  urls: new Map([['doc_3', 'https://help.example/3']]),
};

describe('citation numbering', () => {
  it('renumbers cited passages 1..n in order of first use and keeps the passage behind each number', () => {
    const { text, citations } = numberCitations('Fees apply. [3] Bangkok is faster. [2] Fees again. [3]', context);
    expect(text).toBe('Fees apply. [1] Bangkok is faster. [2] Fees again. [1]');
    expect(citations.map((c) => [c.n, c.chunkId, c.url])).toEqual([
      [1, 'chk_3', 'https://help.example/3'],
      [2, 'chk_2', null],
    ]);
  });

  it('drops markers that name no passage', () => {
    const { text, citations } = numberCitations('Invented. [9] Real. [4]', context);
    expect(text).toBe('Invented. Real. [1]');
    expect(citations.map((c) => c.chunkId)).toEqual(['chk_4']);
  });

  it('rewrites a stream whose markers are split across pieces, holding back only an open marker', () => {
    const numbering = new CitationNumbering(context);
    const out = ['First [', '4', '] then [2', '] and [4] end [1', ']', ' and [2'].map((p) => numbering.push(p));
    expect(out).toEqual(['First', '', ' [1] then', ' [2] and [1] end', ' [3]', ' and']);
    // An unclosed bracket at the end is text.
    expect(numbering.flush()).toBe(' [2');
    expect(numbering.citations().map((c) => [c.n, c.chunkId])).toEqual([[1, 'chk_4'], [2, 'chk_2'], [3, 'chk_1']]);
  });

  it('leaves text without markers untouched, including brackets that are no marker', () => {
    const numbering = new CitationNumbering(context);
    expect(numbering.push('Use [Settings] or [12345].')).toBe('Use [Settings] or [12345].');
    expect(numbering.flush()).toBe('');
    expect(numbering.citations()).toEqual([]);
  });
});
