import { z } from 'zod';
import { MAX_QUERY_CHARS } from '../bounds.js';

const weight = z.number().min(0).max(10);

export const searchSchema = z.strictObject({
  query: z.string().trim().min(1, 'query must not be empty').max(MAX_QUERY_CHARS),
  topK: z.number().int().min(1).max(50).default(8),
  /** Per-request RRF weights; 0 switches a channel off. */
  weights: z.strictObject({ lexical: weight.optional(), semantic: weight.optional(), trigram: weight.optional() }).optional(),
  /** Adds each result's per-channel ranks and RRF contributions, and the weights used (the admin app's playground). */
  explain: z.boolean().optional(),
});
export type SearchInput = z.input<typeof searchSchema>;
export type SearchRequest = z.output<typeof searchSchema>;
