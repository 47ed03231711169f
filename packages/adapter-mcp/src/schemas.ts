import { answerSchema, DOCUMENT_STATUSES, documentIdSchema, LOCALES, listDocumentsSchema, searchSchema } from '@panya/core';
import { z } from 'zod';

/*
 * Input fields reuse core's schemas, so a tool accepts exactly what the REST API accepts
 * (the services validate again; the SDK's check only gives the assistant an early, precise error).
 */

export const searchInput = {
  query: searchSchema.shape.query.describe('What to look for, in the user\'s words (Thai or English), e.g. "how long do refunds take".'),
  topK: searchSchema.shape.topK.describe('How many chunks to return, 1-50 (default 8).'),
};

export const answerInput = {
  query: answerSchema.shape.query.describe('The question to answer, e.g. "How much is shipping to Chiang Mai?".'),
  locale: answerSchema.shape.locale.describe('Language of the answer: "th" or "en" (default: Thai when the question contains Thai script, else English).'),
};

export const TITLE_QUERY_MAX = 200;

export const listDocsInput = {
  cursor: listDocumentsSchema.shape.cursor.describe('The `nextCursor` of a previous svc_list_docs result, to get the next page. Omit for the first page.'),
  limit: z.number().int().min(1).max(100).optional().describe('Documents per page, 1-100 (default 20).'),
  query: z
    .string()
    .trim()
    .min(1)
    .max(TITLE_QUERY_MAX)
    .optional()
    .describe('Keep only documents whose title contains every word of this text (case-insensitive), e.g. "refund policy". Titles only; use svc_search to search content.'),
};

export const getDocInput = {
  id: documentIdSchema.describe('The document id, e.g. "doc_0Ab3…" (doc_ and 22 letters or digits), as returned by the other tools.'),
};

// Output schemas are open objects (clients validate against them): a field the engine adds later must not fail them.

const searchResult = z.looseObject({
  chunkId: z.string(),
  documentId: z.string(),
  title: z.string().describe('Title of the document the chunk comes from.'),
  headingPath: z.array(z.string()).describe('Headings above the chunk, outermost first.'),
  text: z.string(),
  score: z.number().describe('Fused relevance score; higher is better.'),
  rank: z.number().int(),
  lexicalRank: z.number().int().nullable(),
  semanticRank: z.number().int().nullable(),
  url: z.string().nullable(),
});

export const searchOutput = z.looseObject({
  results: z.array(searchResult).describe('Best first; empty when nothing matches.'),
  tookMs: z.number(),
});

export const answerOutput = z.looseObject({
  answer: z.string().describe('The answer, with [n] markers pointing to `citations`.'),
  citations: z.array(
    z.looseObject({
      n: z.number().int(),
      documentId: z.string(),
      chunkId: z.string(),
      title: z.string(),
      url: z.string().nullable(),
      snippet: z.string(),
    }),
  ),
  locale: z.enum(LOCALES),
  grounded: z.boolean().describe('False: the knowledge base holds no answer; say so rather than guess.'),
});

const documentSummary = z.looseObject({
  id: z.string(),
  title: z.string(),
  url: z.string().nullable(),
  status: z.enum(DOCUMENT_STATUSES).describe('Indexing state; only "indexed" documents are searchable.'),
  updatedAt: z.string().describe('ISO 8601 time of the last change.'),
});

export const listDocsOutput = z.looseObject({
  documents: z.array(documentSummary).describe('Newest first.'),
  nextCursor: z.string().nullable().describe('Pass as `cursor` to continue; null when there is nothing more.'),
  hasMore: z.boolean(),
});

export const getDocOutput = z.looseObject({
  id: z.string(),
  title: z.string(),
  url: z.string().nullable(),
  status: z.enum(DOCUMENT_STATUSES),
  createdAt: z.string(),
  updatedAt: z.string(),
  contentMd: z.string().describe('The full document, in Markdown.'),
});

export type DocumentSummary = z.infer<typeof documentSummary>;
