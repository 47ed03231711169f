/**
 * Model-free follow-up rewrite: a short query, one that starts like a continuation ("and for…",
 * "แล้ว…") or one that refers back ("is it…") gets the salient words of the last user turn (and,
 * for references, a few from the last answer) put in front; anything else is returned as is.
 */
import { NO_ANSWER } from '../messages.js';
import type { ChatTurn } from './ports/generator.js';
import { queryContentWords } from '../text/query.js';
import { segmentWords, termOf } from '../text/tokenizer.js';

/** Words that point back into the conversation: a query using them may not stand alone. */
const REFERRING = new Set([
  'it', 'its', 'they', 'them', 'their', 'this', 'that', 'these', 'those', 'there', 'one', 'ones', 'he', 'she', 'same',
  'มัน', 'นี้', 'นั้น', 'นี่', 'นั่น', 'อันนี้', 'อันนั้น', 'เขา', 'ดังกล่าว', 'ตัวนี้', 'ตัวนั้น', 'อัน',
]);
const FOLLOW_UP_START = /^\s*(?:and|also|but|so|what about|how about|what if|or|then|แล้ว|และ|ส่วน|ถ้า|หรือ)(?:\s|$)|^\s*(?:แล้ว|ส่วน)/iu;
const FOLLOW_UP_END = /(?:ล่ะ|หล่ะ|ด้วย(?:ไหม|มั้ย)?)\s*[?？]?\s*$/u;

/** Synchronous core of `ExtractiveGenerator.condense`, also used by core when a generator has no `condense`. */
export function condenseQuery(query: string, history: readonly ChatTurn[]): string {
  const lastUser = [...history].reverse().find((t) => t.role === 'user');
  if (!lastUser) return query;
  const lastAssistant = [...history].reverse().find((t) => t.role === 'assistant');

  const words = segmentWords(query);
  const content = queryContentWords(words);
  const refers = words.some((w) => REFERRING.has(w));
  const followUp =
    content.length <= 1 || FOLLOW_UP_START.test(query) || FOLLOW_UP_END.test(query) || (refers && content.length <= 2);
  if (!followUp) return query;

  const have = new Set(content.map((w) => termOf(w) ?? w));
  const salient: string[] = [];
  const add = (w: string) => {
    const term = termOf(w) ?? w;
    if (have.has(term)) return;
    have.add(term);
    salient.push(w);
  };
  for (const w of queryContentWords(segmentWords(lastUser.content))) add(w);
  if (refers && lastAssistant && !isNoAnswer(lastAssistant.content)) {
    // "Lightly": only words the answer repeats, which are usually what "it" stands for.
    for (const w of keyWords(lastAssistant.content.replace(/\[\d+\]/g, ' '), 3)) add(w);
  }
  if (salient.length === 0) return query;
  return `${salient.join(' ')} ${query.trim()}`;
}

function isNoAnswer(text: string): boolean {
  return text.includes(NO_ANSWER.en) || text.includes(NO_ANSWER.th);
}

const ANSWER_NOISE = new Set(['yes', 'no', 'sure', 'ok', 'okay', 'ใช่', 'ไม่', 'ค่ะ', 'ครับ']);

/** Content words repeated in `text` (numbers excluded), most frequent first, ties by first appearance. */
function keyWords(text: string, limit: number): string[] {
  const counts = new Map<string, { word: string; count: number; first: number }>();
  queryContentWords(segmentWords(text)).forEach((w, i) => {
    if (/^\d/u.test(w) || ANSWER_NOISE.has(w)) return;
    const term = termOf(w) ?? w;
    const entry = counts.get(term);
    if (entry) entry.count++;
    else counts.set(term, { word: w, count: 1, first: i });
  });
  return [...counts.values()]
    .filter((e) => e.count >= 2)
    .sort((a, b) => b.count - a.count || a.first - b.first)
    .slice(0, limit)
    .map((e) => e.word);
}
