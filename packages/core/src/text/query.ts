/**
 * What a question is about: the words of a query that name its topic. Question words, Thai
 * particles and the frame of quantity questions ("how long does … take") are dropped, so they
 * neither match nor make a passage look relevant. Used by search and by the extractive generator.
 */
import { ENGLISH_STOPWORDS } from './stopwords.js';
import { segmentWords, termOf } from './tokenizer.js';

/**
 * Function words of questions, dropped from the query before scoring: a question word alone must
 * never make a passage look relevant. English function words are already stopwords in `tokenize()`.
 */
const QUERY_NOISE = new Set([
  // English words that carry no topic in a support question
  'please', 'tell', 'know', 'explain', 'hi', 'hello', 'thanks', 'thank', 'question', 'anyone',
  // Thai question words, particles, pronouns and the commonest function words
  'กี่', 'ไหม', 'มั้ย', 'มั๊ย', 'ไม๊', 'หรือไม่', 'หรือเปล่า', 'เปล่า', 'อะไร', 'ไร', 'ยังไง', 'อย่างไร', 'ไหน', 'ที่ไหน',
  'เมื่อไหร่', 'เมื่อไร', 'ทำไม', 'ใคร', 'บ้าง', 'เท่าไหร่', 'เท่าไร', 'ไหร่', 'ครับ', 'คับ', 'ค่ะ', 'คะ', 'ค่า', 'จ้ะ', 'จ้า',
  'ล่ะ', 'หล่ะ', 'นะ', 'หรอ', 'เหรอ', 'แล้ว', 'ได้', 'คือ', 'การ', 'ที่', 'และ', 'ของ', 'ใน', 'จะ', 'มี', 'เป็น', 'ให้',
  'กับ', 'ก็', 'นี้', 'นั้น', 'นี่', 'นั่น', 'หรือ', 'ว่า', 'จาก', 'โดย', 'อยู่', 'ไป', 'มา', 'ผม', 'ฉัน', 'ดิฉัน', 'หนู',
  'เรา', 'คุณ', 'มัน', 'เขา', 'กรุณา', 'ช่วย', 'บอก', 'อยาก', 'ทราบ', 'ขอ', 'สอบถาม', 'ความ',
]);
/** "how long", "how much", "เท่าไหร่": the second word asks for a quantity, it is not the topic. */
const HOW_QUANTIFIERS = new Set(['long', 'much', 'many', 'often', 'far', 'soon', 'big', 'old']);
/** Verbs that only frame a quantity question ("how long does it take", "how much does it cost"). */
const QUANTITY_FRAME_VERBS = new Set(['take', 'takes', 'took', 'cost', 'costs', 'last', 'lasts', 'need', 'needs']);
const THAI_QUESTION_PAIRS = new Map([['เท่า', new Set(['ไหร่', 'ไร'])]]);

/** Segmented words of a question that name its topic: stopwords, question words and particles removed. */
export function queryContentWords(words: readonly string[]): string[] {
  const out: string[] = [];
  const asksQuantity = words.some((w, i) => HOW_QUANTIFIERS.has(w) && words[i - 1] === 'how');
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (QUERY_NOISE.has(w) || ENGLISH_STOPWORDS.has(w)) continue;
    if (HOW_QUANTIFIERS.has(w) && words[i - 1] === 'how') continue;
    if (asksQuantity && QUANTITY_FRAME_VERBS.has(w)) continue;
    const pair = THAI_QUESTION_PAIRS.get(w);
    if (pair && i + 1 < words.length && pair.has(words[i + 1]!)) {
      i++;
      continue;
    }
    out.push(w);
  }
  return out;
}

/** Index terms of a search query: `tokenize()` of its topic words. */
export function queryTerms(query: string): string[] {
  const terms: string[] = [];
  for (const word of queryContentWords(segmentWords(query))) {
    const term = termOf(word);
    if (term) terms.push(term);
  }
  return terms;
}
