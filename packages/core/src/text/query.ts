/**
 * What a question is about: the words of a query that name its topic. Question words, Thai
 * particles and the frame of quantity questions ("how long does … take") are dropped, so they
 * neither match nor make a passage look relevant. Used by search and by the extractive generator.
 */
import { MAX_QUERY_GRAMS, MAX_QUERY_PAIRS, MAX_QUERY_TERMS } from '../bounds.js';
import { unspacedTrigrams } from './char-grams.js';
import { ENGLISH_STOPWORDS } from './stopwords.js';
import { segmentWords, termOf } from './tokenizer.js';

/**
 * Words that only frame a question or request: they never name its topic, and a passage must not
 * look relevant because it contains one. Dropped from search queries and by the extractive generator.
 */
const QUESTION_WORDS = new Set([
  // English words that carry no topic in a support question (function words are stopwords already)
  'please', 'tell', 'know', 'explain', 'hi', 'hello', 'thanks', 'thank', 'question', 'anyone',
  // Thai question words, polite particles and request frames
  'กี่', 'ไหม', 'มั้ย', 'มั๊ย', 'ไม๊', 'หรือไม่', 'หรือเปล่า', 'เปล่า', 'อะไร', 'ไร', 'ยังไง', 'อย่างไร', 'ไหน', 'ที่ไหน',
  'เมื่อไหร่', 'เมื่อไร', 'ทำไม', 'ใคร', 'บ้าง', 'เท่าไหร่', 'เท่าไร', 'ไหร่', 'ครับ', 'คับ', 'ค่ะ', 'คะ', 'จ้ะ', 'จ้า',
  'ใด', 'เท่าใด', 'เมื่อใด', 'อันใด', 'ผู้ใด', 'ล่ะ', 'หล่ะ', 'นะ', 'หรอ', 'เหรอ', 'กรุณา', 'ช่วย', 'บอก', 'อยาก', 'ทราบ', 'ขอ', 'สอบถาม',
]);

/**
 * The commonest Thai function words and pronouns. The index keeps them (Thai has no stopword list,
 * BM25's IDF discounts them), so search keeps them too; only the extractive generator ignores them
 * when judging whether a sentence answers the question.
 */
export const THAI_FUNCTION_WORDS: ReadonlySet<string> = new Set([
  'แล้ว', 'ได้', 'คือ', 'การ', 'ที่', 'และ', 'ของ', 'ใน', 'จะ', 'มี', 'เป็น', 'ให้', 'กับ', 'ก็', 'นี้', 'นั้น', 'นี่',
  'นั่น', 'หรือ', 'ว่า', 'จาก', 'โดย', 'อยู่', 'ไป', 'มา', 'ผม', 'ฉัน', 'ดิฉัน', 'หนู', 'เรา', 'คุณ', 'มัน', 'เขา', 'ความ',
  'ถ้า', 'หาก', 'แบบ',
]);
/** "how long", "how much", "เท่าไหร่": the second word asks for a quantity, it is not the topic. */
const HOW_QUANTIFIERS = new Set(['long', 'much', 'many', 'often', 'far', 'soon', 'big', 'old']);
/** Verbs that only frame a quantity question ("how long does it take", "how much does it cost"). */
const QUANTITY_FRAME_VERBS = new Set(['take', 'takes', 'took', 'cost', 'costs', 'last', 'lasts', 'need', 'needs']);
/**
 * Thai interrogatives the segmenter may split in two: เท่า|ไหร่ "how much", เมื่อ|ใด "when",
 * อย่าง|ไร "how", ที่|ไหน "where", เหตุ|ใด "why", ยัง|ไง "how", แค่|ไหน "how much", ทำ|อะไร "do what". Either half alone is an ordinary word, so only the pair is dropped.
 */
const THAI_QUESTION_PAIRS = new Map([
  ['เท่า', new Set(['ไหร่', 'ไร', 'ใด'])],
  ['เมื่อ', new Set(['ไหร่', 'ไร', 'ใด'])],
  ['อย่าง', new Set(['ไร', 'ใด'])],
  ['ที่', new Set(['ไหน', 'ใด'])],
  ['เหตุ', new Set(['ใด'])],
  ['ยัง', new Set(['ไง'])],
  ['แค่', new Set(['ไหน'])],
  ['ทำ', new Set(['อะไร', 'ไร'])],
]);

/**
 * The topic words of a question, in runs: a dropped question word ends a run, so words on either
 * side of it are not treated as adjacent. English stopwords are dropped without ending a run, as
 * the index drops them too.
 */
export function queryTopicRuns(words: readonly string[]): string[][] {
  const runs: string[][] = [[]];
  const asksQuantity = words.some((w, i) => HOW_QUANTIFIERS.has(w) && words[i - 1] === 'how');
  const cut = () => {
    if (runs.at(-1)!.length > 0) runs.push([]);
  };
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (ENGLISH_STOPWORDS.has(w)) continue;
    if (QUESTION_WORDS.has(w) || (HOW_QUANTIFIERS.has(w) && words[i - 1] === 'how') || (asksQuantity && QUANTITY_FRAME_VERBS.has(w))) {
      cut();
      continue;
    }
    const pair = THAI_QUESTION_PAIRS.get(w);
    if (pair && i + 1 < words.length && pair.has(words[i + 1]!)) {
      i++;
      cut();
      continue;
    }
    runs.at(-1)!.push(w);
  }
  return runs.filter((r) => r.length > 0);
}

/** Segmented words of a question that name its topic, for judging whether a sentence answers it. */
export function queryContentWords(words: readonly string[]): string[] {
  return queryTopicRuns(words).flat().filter((w) => !THAI_FUNCTION_WORDS.has(w));
}

export interface SearchTerms {
  /** Distinct index terms of the topic words, in query order (at most `MAX_QUERY_TERMS`). */
  terms: string[];
  /** Distinct adjacent term pairs within a run, for the proximity boost (at most `MAX_QUERY_PAIRS`). */
  pairs: [string, string][];
  /** Distinct character trigrams of the topic's Thai (and other unspaced-script) runs (at most `MAX_QUERY_GRAMS`). */
  grams: string[];
}

/**
 * How selective a term probably is, without asking the index: function words match nearly every
 * passage, and longer words are rarer than short ones. Higher is more selective.
 */
function selectivity(term: string): number {
  if (THAI_FUNCTION_WORDS.has(term)) return 0;
  return [...term].length;
}

/**
 * The distinct terms a query searches for, bounded: past `MAX_QUERY_TERMS`, only the most
 * selective are kept (ties: earlier in the query), so a query's cost no longer grows with its length.
 */
export function boundTerms(terms: readonly string[], max = MAX_QUERY_TERMS): string[] {
  const distinct = [...new Set(terms)];
  if (distinct.length <= max) return distinct;
  const keep = new Set(
    distinct
      .map((term, at) => ({ term, at, score: selectivity(term) }))
      .sort((a, b) => b.score - a.score || a.at - b.at)
      .slice(0, max)
      .map((t) => t.term),
  );
  return distinct.filter((t) => keep.has(t));
}

/** What the lexical channel searches for: the topic's distinct index terms and their adjacent pairs, bounded. */
export function searchTerms(query: string): SearchTerms {
  const runs = queryTopicRuns(segmentWords(query)).map((run) => run.map((w) => termOf(w)).filter((t): t is string => Boolean(t)));
  const terms = boundTerms(runs.flat());
  const kept = new Set(terms);
  const pairs = new Map<string, [string, string]>();
  for (const run of runs) {
    for (let i = 1; i < run.length && pairs.size < MAX_QUERY_PAIRS; i++) {
      const [a, b] = [run[i - 1]!, run[i]!];
      if (a !== b && kept.has(a) && kept.has(b)) pairs.set(`${a} ${b}`, [a, b]);
    }
  }
  const grams = new Set<string>();
  for (const run of runs) {
    for (const gram of unspacedTrigrams(run)) if (grams.size < MAX_QUERY_GRAMS) grams.add(gram);
  }
  return { terms, pairs: [...pairs.values()], grams: [...grams] };
}
