import { describe, expect, it } from 'vitest';
import { MAX_QUERY_GRAMS } from '../src/bounds.js';
import { LexicalIndex } from '../src/search/lexical-index.js';
import { unspacedTrigrams } from '../src/text/char-grams.js';
import { searchTerms } from '../src/text/query.js';
import { segmentWords, tokenize } from '../src/text/tokenizer.js';

describe('Thai normalisation', () => {
  it('recomposes SARA AM after NFKC, so the dictionary still finds the words', () => {
    // NFKC alone turns ำ into ํ + า and the segmenter then cuts "มหาวิทยาลัย" into syllables.
    expect(segmentWords('มหาวิทยาลัยดำเนินกิจการ')).toEqual(['มหาวิทยาลัย', 'ดำเนิน', 'กิจการ']);
    expect(segmentWords('จำนวน')).toEqual(['จำนวน']);
    expect(tokenize('แม่น้ำ')).toEqual(tokenize('แม่น\u0e49\u0e4d\u0e32'));
  });

  it('reads MAI YAMOK attached or apart, and a doubled tone mark, as the same word', () => {
    expect(tokenize('เล็กๆ')).toEqual(['เล็ก']);
    expect(tokenize('เล็ก ๆ')).toEqual(['เล็ก']);
    expect(tokenize('ให้่')).toEqual(tokenize('ให้'));
  });
});

describe('Thai questions', () => {
  it('drops interrogatives, whole or split by the segmenter, and keeps the topic', () => {
    expect(searchTerms('กาฬโรคปรากฏในประเทศอิสลามเมื่อใด').terms).not.toContain('เมื่อ');
    expect(searchTerms('ประเทศใด').terms).toEqual(['ประเทศ']);
    // "เมื่อ" alone ("when", as a conjunction) is an ordinary word.
    expect(searchTerms('เมื่อฝนตก').terms).toContain('เมื่อ');
  });

  it('searches the character trigrams of Thai runs, bounded, and none for other scripts', () => {
    expect(searchTerms('refund policy').grams).toEqual([]);
    const { grams } = searchTerms('ฟอซซิล');
    expect(grams).toEqual(unspacedTrigrams(['ฟอซซิล']));
    expect(grams).toHaveLength(4);
    expect(searchTerms('ก'.repeat(10) + 'ประวัติศาสตร์ของมหาวิทยาลัยฮาร์วาร์ดในสหรัฐอเมริกาและการก่อตั้ง'.repeat(3)).grams.length).toBeLessThanOrEqual(MAX_QUERY_GRAMS);
  });
});

describe('unspacedTrigrams', () => {
  it('joins adjacent Thai words into runs; any other word ends a run', () => {
    expect(unspacedTrigrams(['ผู้', 'นำ'])).toEqual(unspacedTrigrams(['ผู้นำ']));
    expect(unspacedTrigrams(['กข', 'abc', 'คง'])).toEqual([]);
    expect(unspacedTrigrams(['refund', 'polici'])).toEqual([]);
  });
});

describe('LexicalIndex with Thai', () => {
  it('finds a passage whose words the segmenter split differently, through trigrams', () => {
    // The passage spells the loanword "fossil" with ส, the question with ซ; the question's
    // words match nothing else, so only the shared trigrams can rank the passage.
    const index = new LexicalIndex();
    const wordsOnly = new LexicalIndex({ grams: 0 });
    const passage = { id: 'fossil', title: '', body: tokenize('ซากฟอสซิลที่พบมีอายุหลายล้านปี').join(' ') };
    for (const i of [index, wordsOnly]) {
      i.upsert(passage);
      for (let n = 0; n < 5; n++) i.upsert({ id: `x${n}`, title: '', body: tokenize('ทีมรับของแพนเธอร์สได้อันดับที่หก').join(' ') });
    }
    const query = searchTerms('ฟอซซิล');
    expect(query.terms.some((t) => passage.body.split(' ').includes(t))).toBe(false);
    expect(wordsOnly.search(query, 5)).toEqual([]);
    expect(index.search(query, 5).map((h) => h.chunkId)).toEqual(['fossil']);
  });

  it('leaves English scores untouched', () => {
    const withGrams = new LexicalIndex();
    const without = new LexicalIndex({ grams: 0 });
    for (const index of [withGrams, without]) {
      index.upsert({ id: 'a', title: 'refund', body: 'polici text' });
      index.upsert({ id: 'b', title: 'ship', body: 'refund later' });
    }
    const query = searchTerms('refund policy');
    expect(withGrams.search(query, 5)).toEqual(without.search(query, 5));
  });
});
