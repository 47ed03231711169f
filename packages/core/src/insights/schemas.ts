import { z } from 'zod';
import { FEEDBACK_RATINGS } from '../answers/ports/conversations.js';

/*
 * The improvement loop: content gaps (questions the knowledge base did not answer well, grouped)
 * and feedback tied to the passages answers cited. Inputs are strict; outputs are open.
 */

export const GAP_PERIOD_DAYS = { '7d': 7, '30d': 30, '90d': 90 } as const;
export type GapPeriod = keyof typeof GAP_PERIOD_DAYS;
const period = z.enum(Object.keys(GAP_PERIOD_DAYS) as [GapPeriod, ...GapPeriod[]]);
const isoTime = z.iso.datetime({ offset: true });

export const gapsQuerySchema = z.strictObject({
  period: period.default('30d').describe('The window the gaps cover, ending now; the trend compares it with the one before.'),
});

const gapReasons = z.looseObject({ refused: z.number().int(), low_evidence: z.number().int(), thumbs_down: z.number().int(), handed_off: z.number().int() });

export const gapSchema = z.looseObject({
  id: z.string(),
  terms: z.array(z.string()).describe('The cluster’s most frequent terms (index form).'),
  count: z.number().int(),
  previousCount: z.number().int().describe('Questions of the previous period that fall in this cluster.'),
  trend: z.enum(['new', 'up', 'down', 'flat']),
  examples: z.array(z.string()).describe('Up to three questions, newest first, with personal data masked.'),
  reasons: gapReasons,
  nearestDocument: z.looseObject({ id: z.string(), title: z.string(), url: z.string().nullable() }).nullable(),
  curatedAnswer: z.looseObject({ covered: z.boolean(), id: z.string().nullable() }).nullable().describe('Null when curated answers are not available.'),
  lastAskedAt: z.string(),
});
export type GapJson = z.infer<typeof gapSchema>;

export const gapsResponseSchema = z.looseObject({
  period,
  computedAt: z.string().nullable().describe('When these clusters were computed; null before the first computation.'),
  stale: z.boolean(),
  recomputing: z.boolean().describe('A recomputation is queued or running.'),
  questions: z.number().int().describe('Questions of the period that were refused, weakly grounded, thumbed down or handed off.'),
  data: z.array(gapSchema),
});
export type GapsJson = z.infer<typeof gapsResponseSchema>;

const boolString = z.enum(['true', 'false']).transform((v) => v === 'true');

export const listFeedbackSchema = z.strictObject({
  rating: z.enum(FEEDBACK_RATINGS).optional(),
  hasComment: boolString.optional(),
  documentId: z.string().max(100).optional().describe('Only feedback on answers that cited this document.'),
  period: period.optional().describe('Only feedback given in this window, ending now.'),
  since: isoTime.optional(),
  until: isoTime.optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type ListFeedbackQuery = z.infer<typeof listFeedbackSchema>;

const feedbackCitationSchema = z.looseObject({
  documentId: z.string(),
  chunkId: z.string(),
  documentVersion: z.string().describe('The document’s `updatedAt` when the answer read it.'),
  addressedByEdit: z.boolean(),
  addressedAt: z.string().nullable(),
});

export const feedbackItemSchema = z.looseObject({
  id: z.string(),
  messageId: z.string(),
  conversationId: z.string(),
  rating: z.enum(FEEDBACK_RATINGS),
  comment: z.string().nullable(),
  question: z.string().nullable(),
  citations: z.array(feedbackCitationSchema),
  addressedByEdit: z.boolean().describe('Every document the answer cited has been edited since.'),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type FeedbackJson = z.infer<typeof feedbackItemSchema>;

export const documentFeedbackSchema = z.looseObject({
  documentId: z.string(),
  version: z.string(),
  negative: z.number().int(),
  chunks: z.array(
    z.looseObject({
      chunkId: z.string(),
      documentVersion: z.string(),
      current: z.boolean().describe('The chunk is of the document’s current version.'),
      negative: z.number().int(),
      addressed: z.number().int(),
      lastAt: z.string(),
      headingPath: z.array(z.string()).nullable(),
      text: z.string().nullable().describe('The passage, while it still exists.'),
    }),
  ),
});
export type DocumentFeedbackJson = z.infer<typeof documentFeedbackSchema>;
