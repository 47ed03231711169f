/**
 * Whether a question is one a curated answer was written for: a lexical match on the normalised
 * question with the core tokenizer (Thai and English), no model. The question's topic terms are
 * compared by weighted Dice overlap (longer terms weigh more: "refund" tells more than "get"), and
 * the numbers it names must be the same numbers — "refund after 7 days" is not "after 30 days".
 */
import { THAI_FUNCTION_WORDS } from '../text/query.js';
import { segmentWords, termOf } from '../text/tokenizer.js';

/**
 * The least similarity at which a curated answer is given instead of a generated one. Measured on
 * the paraphrase set in `packages/core/test/fixtures/curated-paraphrases.json` (see
 * docs/decisions.md): the lowest value that rejects every non-paraphrase of the set.
 */
export const CURATED_MATCH_THRESHOLD = 0.85;

/** Questions longer than this are compared on their first `MAX_MATCH_CHARS` characters (bounded cost). */
export const MAX_MATCH_CHARS = 500;

const THAI_DIGITS = /[\u0e50-\u0e59]/g;
const NUMBER = /\d+(?:[.,]\d+)*/g;
/** Thai question phrases the segmenter splits into ordinary words ("เท่า|ไหร่"): removed before segmenting. */
const THAI_QUESTION_PHRASES = /เท่าไหร่|เท่าไร|อย่างไร|ยังไง|ได้ไหม|ได้มั้ย|ไหม|มั้ย|มั๊ย/g;

/** Politeness particles and question words that do not change what is asked. */
const FRAME_WORDS: ReadonlySet<string> = new Set([
  'ครับ', 'ค่ะ', 'คะ', 'จ้ะ', 'จ้า', 'นะ', 'หน่อย', 'ไหม', 'มั้ย', 'มั๊ย', 'บ้าง', 'อะไร', 'ไหน', 'กี่', 'ด้วย',
  'ต้อง', 'ทำ', 'สามารถ', 'วิธี', 'please', 'tell', 'know', 'want', 'need', 'get', 'way', 'possibl', 'take', 'usual',
]);

/** A question reduced to what the match compares. */
export interface QuestionKey {
  /** Distinct topic terms with their weights. */
  terms: Map<string, number>;
  /** The numbers the question names, normalised ("1,000" → "1000"), sorted. */
  numbers: string[];
}

function weightOf(term: string): number {
  // Thai terms count characters, not code units; a term's weight grows slowly with its length.
  return Math.log2(1 + [...term].length);
}

export function questionKey(text: string): QuestionKey {
  const bounded = text
    .slice(0, MAX_MATCH_CHARS)
    .replace(THAI_DIGITS, (d) => String(d.charCodeAt(0) - 0x0e50))
    .replace(THAI_QUESTION_PHRASES, ' ');
  const numbers = [...new Set((bounded.match(NUMBER) ?? []).map((n) => n.replace(/,/g, '')))].sort();
  const terms = new Map<string, number>();
  for (const word of segmentWords(bounded)) {
    if (FRAME_WORDS.has(word) || THAI_FUNCTION_WORDS.has(word) || /^\d/.test(word)) continue;
    const term = termOf(word);
    if (term && !FRAME_WORDS.has(term)) terms.set(term, weightOf(term));
  }
  return { terms, numbers };
}

/** Similarity in [0, 1] of two questions; 0 when they name different numbers. */
export function questionSimilarity(a: QuestionKey, b: QuestionKey): number {
  if (a.numbers.length !== b.numbers.length || a.numbers.some((n, i) => n !== b.numbers[i])) return 0;
  let shared = 0;
  let total = 0;
  for (const [term, w] of a.terms) {
    total += w;
    if (b.terms.has(term)) shared += w;
  }
  for (const [, w] of b.terms) total += w;
  return total === 0 ? 0 : (2 * shared) / total;
}

/** A candidate with the keys of its question and paraphrases. */
export interface Keyed<T> {
  record: T;
  keys: readonly QuestionKey[];
}

/** The candidate whose best key is closest to `query`, at or above `threshold`; null when none is close enough. */
export function bestMatch<T>(query: QuestionKey, candidates: readonly Keyed<T>[], threshold = CURATED_MATCH_THRESHOLD): { record: T; score: number } | null {
  if (query.terms.size === 0) return null;
  let best: { record: T; score: number } | null = null;
  for (const candidate of candidates) {
    for (const key of candidate.keys) {
      const score = questionSimilarity(query, key);
      if (score >= threshold && (!best || score > best.score)) best = { record: candidate.record, score };
    }
  }
  return best;
}

/** `bestMatch` over a question and its paraphrases, keyed on the fly. */
export function matchQuestion<T extends { question: string; paraphrases: readonly string[] }>(query: string, entries: readonly T[], threshold = CURATED_MATCH_THRESHOLD): T | null {
  const candidates = entries.map((record) => ({ record, keys: [record.question, ...record.paraphrases].map(questionKey) }));
  return bestMatch(questionKey(query), candidates, threshold)?.record ?? null;
}
