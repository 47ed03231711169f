import { z } from 'zod';
import { DOCUMENT_STATUSES, PUBLIC_SURFACES } from '../ports/store.js';
import { LOCALES } from '../messages.js';

/*
 * What the API answers, as schemas: the TypeScript types are inferred from them, and the MCP
 * tools and any OpenAPI document take their output schemas from here. Objects are open (extra
 * fields allowed), so a field added later does not fail a client that validates.
 */

export const searchResultSchema = z.looseObject({
  chunkId: z.string(),
  documentId: z.string(),
  title: z.string().describe('Title of the document the chunk comes from.'),
  headingPath: z.array(z.string()).describe('Headings above the chunk, outermost first.'),
  text: z.string(),
  score: z.number().describe('Fused relevance score; higher is better.'),
  rank: z.number().int(),
  lexicalRank: z.number().int().nullable().describe('Rank in the lexical channel; null when it did not return the chunk.'),
  semanticRank: z.number().int().nullable().describe('Rank in the vector channel; null when it did not return the chunk.'),
  url: z.string().nullable(),
  explain: z
    .looseObject({
      trigramRank: z.number().int().nullable().describe('Rank in the trigram fallback channel; null when it did not run or return the chunk.'),
      contributions: z.looseObject({ lexical: z.number(), semantic: z.number(), trigram: z.number() }).describe('Each channel\'s weight / (k + rank); they add up to the fused score before any reranking.'),
    })
    .optional()
    .describe('With `explain: true` only.'),
});
export type SearchResult = z.infer<typeof searchResultSchema>;

export const searchResponseSchema = z.looseObject({
  results: z.array(searchResultSchema).describe('Best first; empty when nothing matches.'),
  tookMs: z.number(),
  explain: z
    .looseObject({
      weights: z.looseObject({ lexical: z.number(), semantic: z.number(), trigram: z.number() }).describe('The RRF channel weights used; 0 switches a channel off.'),
      rrfK: z.number().int().describe('The k of reciprocal rank fusion: score = sum of weight / (k + rank).'),
    })
    .optional()
    .describe('With `explain: true` only.'),
});
export type SearchResponse = z.infer<typeof searchResponseSchema>;

export const citationSchema = z.looseObject({
  n: z.number().int(),
  documentId: z.string(),
  chunkId: z.string(),
  title: z.string(),
  headingPath: z.array(z.string()).describe('The section of the document the cited chunk is in, outermost heading first.'),
  url: z.string().nullable().describe("The document's source link, if it has one."),
  articleUrl: z.string().nullable().describe('The cited section in the help center (`…/articles/{documentId}#{heading}`); null when the document is not published there.'),
  snippet: z.string(),
});

/** Present when the answer is a workspace's curated answer, given verbatim instead of a generated one. */
export const curatedMarkSchema = z
  .looseObject({
    id: z.string(),
    question: z.string().describe('The curated question the query matched.'),
    origin: z.enum(['gap', 'feedback', 'manual']).describe('Where the curated answer came from.'),
    originRef: z.string().nullable(),
    documentIds: z.array(z.string()).describe('The documents the curated answer rests on.'),
  })
  .describe('Present when the answer is a curated answer of the workspace, given verbatim.');

export const answerResponseSchema = z.looseObject({
  answer: z.string().describe('The answer, with [n] markers pointing to `citations`.'),
  citations: z.array(citationSchema),
  locale: z.enum(LOCALES),
  grounded: z.boolean().describe('False: the knowledge base holds no answer; say so rather than guess.'),
  curated: curatedMarkSchema.optional(),
});
export type AnswerResponse = z.infer<typeof answerResponseSchema>;

const usageSchema = z.looseObject({ inputTokens: z.number().int(), outputTokens: z.number().int() });

/** The server-sent events of one chat answer, in order: meta, delta…, citation…, then done or error. */
export const chatEventSchema = z.discriminatedUnion('event', [
  z.object({ event: z.literal('meta'), data: z.looseObject({ conversationId: z.string(), messageId: z.string() }) }),
  z.object({ event: z.literal('delta'), data: z.looseObject({ text: z.string() }) }),
  z.object({ event: z.literal('citation'), data: citationSchema }),
  z.object({ event: z.literal('done'), data: z.looseObject({ usage: usageSchema, grounded: z.boolean(), query: z.string(), curated: curatedMarkSchema.optional() }) }),
  z.object({ event: z.literal('error'), data: z.looseObject({ code: z.string(), detail: z.string() }) }),
]);
export type ChatEvent = z.infer<typeof chatEventSchema>;

/** A document as the API shows it: the stored record without its tenant. */
export const documentSchema = z.looseObject({
  id: z.string(),
  workspaceId: z.string(),
  title: z.string(),
  contentMd: z.string().describe('The full document, in Markdown.'),
  url: z.string().nullable(),
  publicSurfaces: z.array(z.enum(PUBLIC_SURFACES)),
  audiences: z.array(z.string()).describe('Who may read it: `public`, `customers`, segment names, or `["internal"]`.'),
  externalId: z.string().nullable().describe('The caller\'s own identifier, unique within the workspace.'),
  metadata: z.record(z.string(), z.unknown()).describe('The caller\'s own fields; stored, not indexed.'),
  status: z.enum(DOCUMENT_STATUSES).describe('Indexing state; only "indexed" documents are searchable.'),
  error: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string().describe('ISO 8601 time of the last change.'),
});
export type DocumentJson = z.infer<typeof documentSchema>;

/** A document without its content, for browsing. */
export const documentSummarySchema = z.looseObject({
  id: z.string(),
  title: z.string(),
  url: z.string().nullable(),
  status: z.enum(DOCUMENT_STATUSES).describe('Indexing state; only "indexed" documents are searchable.'),
  updatedAt: z.string().describe('ISO 8601 time of the last change.'),
});
export type DocumentSummary = z.infer<typeof documentSummarySchema>;

/** The one list envelope of the API: a page of items, newest first. */
export function listSchema<T extends z.ZodType>(item: T) {
  return z.looseObject({
    data: z.array(item).describe('Newest first.'),
    hasMore: z.boolean(),
    nextCursor: z.string().nullable().describe('Pass as `cursor` to continue; null when there is nothing more.'),
  });
}
export type List<T> = {
  data: T[];
  hasMore: boolean;
  nextCursor: string | null;
};

export const bulkResultSchema = z.looseObject({
  results: z.array(
    z.looseObject({ op: z.enum(['create', 'update', 'delete']), index: z.number().int(), id: z.string(), status: z.enum(['created', 'updated', 'deleted']) }),
  ),
});

/** RFC 9457 problem details, as every error leaves the HTTP API. */
export const problemSchema = z.looseObject({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  code: z.string(),
  detail: z.string(),
  instance: z.string().optional(),
  requestId: z.string().optional(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type Problem = z.infer<typeof problemSchema>;

/** A whole document for reading: content and the fields that place it. */
export const documentContentSchema = documentSchema.pick({ id: true, title: true, url: true, status: true, createdAt: true, updatedAt: true, contentMd: true });

/** A workspace as the API shows it: no tenant id; the recovery countdown once soft-deleted. */
export const workspaceSchema = z.looseObject({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  brandAccent: z.string().nullable(),
  isDefault: z.boolean(),
  deletedAt: z.string().nullable(),
  suspendedAt: z.string().nullable().optional().describe('Set while a downgrade keeps the workspace over the plan cap: data kept, nothing served until an upgrade.'),
  createdAt: z.string(),
  updatedAt: z.string(),
  recoverUntil: z.string().nullable().describe('Until when a soft-deleted workspace can be restored; null while live.'),
  daysLeft: z.number().int().nullable().describe('Whole days left to restore; null while live.'),
});
export type WorkspaceJson = z.infer<typeof workspaceSchema>;
