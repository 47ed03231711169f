import { z } from 'zod';
import { MAX_QUERY_CHARS } from '../bounds.js';
import { LOCALES, type Locale } from '../messages.js';

export { LOCALES, type Locale };

const query = z.string().trim().min(1, 'query must not be empty').max(MAX_QUERY_CHARS);

/** A workspace persona: its tone, instructions and locale shape the answer. */
const personaId = z.string().regex(/^per_[0-9A-Za-z]{22}$/, 'not a persona id');

export const answerSchema = z.strictObject({
  query,
  locale: z.enum(LOCALES).optional(),
  personaId: personaId.optional(),
});
export type AnswerInput = z.input<typeof answerSchema>;

export const chatSchema = z.strictObject({
  query,
  locale: z.enum(LOCALES).optional(),
  conversationId: z.string().regex(/^conv_[0-9A-Za-z]{22}$/, 'not a conversation id').optional(),
  personaId: personaId.optional(),
});
export type ChatInput = z.input<typeof chatSchema>;

const THAI_LETTERS = /[\u0E01-\u0E4E]/g;
const LATIN_LETTERS = /[A-Za-z\u00C0-\u024F]/g;

/**
 * The language a question is written in, when the caller does not say: more Thai letters than
 * Latin ones → th, more Latin → en ("How do I pay with พร้อมเพย์?" is English). Only a tie (a
 * question of digits or emoji) is settled by `tieBreak`, the page's language, else by any Thai.
 */
export function detectLocale(text: string, tieBreak?: Locale): Locale {
  const thai = text.match(THAI_LETTERS)?.length ?? 0;
  const latin = text.match(LATIN_LETTERS)?.length ?? 0;
  if (thai !== latin) return thai > latin ? 'th' : 'en';
  return tieBreak ?? (thai > 0 ? 'th' : 'en');
}

/**
 * `detectLocale` as a browser function expression (ES2017), for the widget and the help center's
 * ask box, which choose their answer frame before the answer arrives: the same rule, built from
 * the same patterns.
 */
export const DETECT_LOCALE_JS = `function (text, tie) { var th = (text.match(/${THAI_LETTERS.source}/g) || []).length, la = (text.match(/${LATIN_LETTERS.source}/g) || []).length; return th !== la ? (th > la ? 'th' : 'en') : tie || (th > 0 ? 'th' : 'en'); }`;
