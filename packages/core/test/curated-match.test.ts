import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CURATED_MATCH_THRESHOLD, matchQuestion, questionKey, questionSimilarity } from '../src/answers/curated-match.js';

interface Item {
  question: string;
  paraphrases: string[];
  others: string[];
}
const { items } = JSON.parse(readFileSync(new URL('./fixtures/curated-paraphrases.json', import.meta.url), 'utf8')) as { items: Item[] };

const scores = (pick: (i: Item) => string[]) => items.flatMap((i) => pick(i).map((text) => questionSimilarity(questionKey(i.question), questionKey(text))));

describe('curated-answer matching', () => {
  it('rejects every non-paraphrase of the measured set at the threshold and accepts at least 80% of the paraphrases', () => {
    const negatives = scores((i) => i.others);
    const positives = scores((i) => i.paraphrases);
    expect(negatives.length).toBeGreaterThanOrEqual(45);
    expect(negatives.filter((s) => s >= CURATED_MATCH_THRESHOLD)).toEqual([]);
    expect(positives.filter((s) => s >= CURATED_MATCH_THRESHOLD).length / positives.length).toBeGreaterThanOrEqual(0.8);
  });

  it('never matches a question naming other numbers, in Arabic or Thai digits', () => {
    const entry = { question: 'Can I return an item after 30 days?', paraphrases: [] };
    expect(matchQuestion('can I return an item after 30 days', [entry])).not.toBeNull();
    expect(matchQuestion('can I return an item after 31 days', [entry])).toBeNull();
    expect(matchQuestion('Can I return an item after 300 days?', [entry])).toBeNull();
    expect(matchQuestion('คืนสินค้าหลัง ๓๐ วันได้ไหม', [{ question: 'คืนสินค้าหลัง 30 วันได้ไหม', paraphrases: [] }])).not.toBeNull();
    expect(matchQuestion('คืนสินค้าหลัง ๗ วันได้ไหม', [{ question: 'คืนสินค้าหลัง 30 วันได้ไหม', paraphrases: [] }])).toBeNull();
  });

  it('matches on a paraphrase and picks the closest entry', () => {
    const a = { question: 'How do I cancel my subscription?', paraphrases: ['stop my membership'] };
    const b = { question: 'How do I cancel my order?', paraphrases: [] };
    expect(matchQuestion('I want to stop my membership', [b, a])).toBe(a);
    expect(matchQuestion('cancel my order please', [a, b])).toBe(b);
    expect(matchQuestion('what?', [a, b])).toBeNull();
  });
});
