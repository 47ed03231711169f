import { z } from 'zod';
import { MAX_QUERY_CHARS } from '../bounds.js';
import { DETECT_LOCALE_JS, detectLocale, LOCALES, type Locale } from '../messages.js';

export { DETECT_LOCALE_JS, detectLocale, LOCALES, type Locale };

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
