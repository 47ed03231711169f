import { err, ok } from 'neverthrow';
import { z } from 'zod';
import { errors } from '../errors.js';
import { answerSchema } from './schemas.js';
import { documentIdSchema, listDocumentsSchema } from '../knowledge/schemas.js';
import { answerResponseSchema, documentContentSchema, documentSummarySchema, listSchema, searchResponseSchema } from '../schemas/responses.js';
import { searchSchema } from '../search/schemas.js';
import { documentSummary, TITLE_QUERY_MAX, toList } from '../knowledge/documents.js';
import { audiencesOf } from '../context.js';
import { defineOperation } from '../operations/types.js';
import { redactorFor } from '../privacy/settings.js';

/*
 * The MCP tools. Their inputs reuse the REST schemas' fields, so a tool accepts exactly what the
 * REST API accepts; descriptions are written for the assistant that picks and calls them.
 */

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, openWorldHint: false } as const;

export const svcSearch = defineOperation({
  id: 'svc_search',
  tool: {
    title: 'Search the knowledge base',
    description:
      'Find the passages (chunks) of the knowledge base that best match a query, ranked by hybrid relevance (keywords and meaning; Thai and English). ' +
      'Use it to look up facts or policies and to collect evidence you can quote; cite each chunk by its document title and documentId. ' +
      'It writes no answer: for a ready, cited answer to a direct question use svc_answer; to read a whole document use svc_get_doc. ' +
      'Returns `results`, best first: chunkId, documentId, title, headingPath (the section headings), text, score, rank, url.',
    annotations: { ...READ_ONLY, idempotentHint: true },
  },
  scope: 'read',
  counted: 'search',
  input: {
    body: z.object({
      query: searchSchema.shape.query.describe('What to look for, in the user\'s words (Thai or English), e.g. "how long do refunds take".'),
      topK: searchSchema.shape.topK.describe('How many chunks to return, 1-50 (default 8).'),
    }),
  },
  output: searchResponseSchema,
  async run({ request, services }, { body }) {
    return ok(await services.search.forCaller(request, body));
  },
});

export const svcAnswer = defineOperation({
  id: 'svc_answer',
  tool: {
    title: 'Answer a question with citations',
    description:
      'Answer a question from the knowledge base: a short answer grounded in its documents, with [n] markers that point to `citations` (document, chunk, title, url, snippet). ' +
      'Use it for a direct question such as a customer would ask ("How long do refunds take?"). ' +
      'When `grounded` is false the knowledge base holds no answer: say so instead of guessing. For raw passages use svc_search. ' +
      'Returns answer, citations, locale and grounded.',
    annotations: READ_ONLY,
  },
  scope: 'read',
  counted: 'answer',
  input: {
    body: z.object({
      query: answerSchema.shape.query.describe('The question to answer, e.g. "How much is shipping to Chiang Mai?".'),
      locale: answerSchema.shape.locale.describe('Language of the answer: "th" or "en" (default: the persona\'s, else Thai when the question contains Thai script, else English).'),
      personaId: answerSchema.shape.personaId.describe('A persona of the workspace (GET /api/personas) whose tone, instructions and locale the answer takes.'),
    }),
  },
  output: answerResponseSchema,
  run({ request, services, signal }, { body }) {
    return services.answers.generate(request, { query: body.query, ...(body.locale ? { locale: body.locale } : {}), ...(body.personaId ? { personaId: body.personaId } : {}) }, signal);
  },
});

export const svcListDocs = defineOperation({
  id: 'svc_list_docs',
  tool: {
    title: 'Browse documents',
    description:
      'List the documents of the knowledge base, newest first: id, title, url, status and updatedAt (no content). ' +
      'Use it to see what the knowledge base covers or to find a document by its title, then read it with svc_get_doc. ' +
      '`query` keeps only documents whose title contains every word of it (case-insensitive); to search inside documents use svc_search. ' +
      'When `nextCursor` is not null, call again with it as `cursor` for more (with a `query`, a page may hold fewer matches than `limit` while more follow).',
    annotations: READ_ONLY,
  },
  scope: 'read',
  counted: 'mcp_tool',
  input: {
    body: z.object({
      cursor: listDocumentsSchema.shape.cursor.describe('The `nextCursor` of a previous svc_list_docs result, to get the next page. Omit for the first page.'),
      limit: z.number().int().min(1).max(100).optional().describe('Documents per page, 1-100 (default 20).'),
      query: z
        .string()
        .trim()
        .min(1)
        .max(TITLE_QUERY_MAX)
        .optional()
        .describe('Keep only documents whose title contains every word of this text (case-insensitive), e.g. "refund policy". Titles only; use svc_search to search content.'),
    }),
  },
  output: listSchema(documentSummarySchema),
  async run({ request, services }, { body }) {
    const page = await services.documents.browse(request, body);
    return page.map((p) => toList(p, documentSummary));
  },
});

export const svcGetDoc = defineOperation({
  id: 'svc_get_doc',
  tool: {
    title: 'Read a document',
    description:
      'Read one whole document: its full Markdown content (contentMd) with title, url, status, createdAt and updatedAt. ' +
      'Use it when svc_search, svc_answer or svc_list_docs gave you a documentId and you need the complete text, e.g. to review it or quote it in context.',
    annotations: { ...READ_ONLY, idempotentHint: true },
  },
  scope: 'read',
  counted: 'mcp_tool',
  // A missing document is still a call made: counted and recorded, then reported.
  countedFailures: ['not_found'],
  input: { body: z.object({ id: documentIdSchema.describe('The document id, e.g. "doc_0Ab3…" (doc_ and 22 letters or digits), as returned by the other tools.') }) },
  output: documentContentSchema,
  async run({ request, services }, { body }) {
    const doc = await services.documents.get(request, body.id);
    if (doc.isErr()) return err(doc.error.code === 'not_found' ? errors.notFound(`Document ${body.id}`) : doc.error);
    const { id, title, url, status, createdAt, updatedAt, contentMd } = doc.value;
    return ok({ id, title, url, status, createdAt, updatedAt, contentMd });
  },
});

export const TOOL_OPERATIONS = [svcSearch, svcAnswer, svcListDocs, svcGetDoc];
