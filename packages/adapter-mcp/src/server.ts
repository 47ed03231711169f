import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, type CallToolResult, type GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { errors, requireScope, type DocumentRecord, type Engine, type PanyaError, type RateLimitStatus, type RequestContext } from '@panya/core';
import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import { toolError } from './errors.js';
import { answerText, documentText, listText, searchText } from './format.js';
import { answerInput, answerOutput, getDocInput, getDocOutput, listDocsInput, listDocsOutput, searchInput, searchOutput, type DocumentSummary } from './schemas.js';

export const SERVER_NAME = 'panya';
export const SERVER_VERSION = '0.1.0';

export const TOOL_NAMES = ['svc_search', 'svc_answer', 'svc_list_docs', 'svc_get_doc'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];
export const PROMPT_NAMES = ['compliance_check', 'document_review'] as const;

/** Documents read per svc_list_docs call with a title filter before it hands back a cursor. */
const TITLE_SCAN_LIMIT = 1_000;
const SCAN_PAGE = 100;
const DEFAULT_LIMIT = 20;

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, openWorldHint: false } as const;

const INSTRUCTIONS = [
  'Tools over one knowledge base (a company\'s help-center and policy documents). Base answers on what these tools return and cite the documents (title and id); do not fill gaps with outside knowledge.',
  '- svc_answer: a short cited answer to a direct question.',
  '- svc_search: the best-matching passages, to gather evidence or quote.',
  '- svc_list_docs: browse or find documents by title.',
  '- svc_get_doc: read one whole document.',
  'Every tool call counts toward the API key\'s hourly limit; when a call is refused for the rate limit, wait the number of seconds it gives.',
].join('\n');

const normalize = (text: string) => text.normalize('NFKC').toLowerCase();

function summary(doc: DocumentRecord): DocumentSummary {
  return { id: doc.id, title: doc.title, url: doc.url, status: doc.status, updatedAt: doc.updatedAt };
}

function success(structuredContent: Record<string, unknown>, text: string, rateLimit: RateLimitStatus | null): CallToolResult {
  return {
    content: [{ type: 'text', text }],
    structuredContent,
    // The REST API's RateLimit-* headers, for clients that pace themselves.
    ...(rateLimit ? { _meta: { 'panya/rateLimit': { limit: rateLimit.limit, remaining: rateLimit.remaining, resetSeconds: rateLimit.resetSeconds } } } : {}),
  };
}

export interface PanyaMcpServerOptions {
  /** Told about unexpected failures (the caller only gets a generic tool error). */
  onError?: (error: unknown, tool: string) => void;
}

/**
 * The Panya MCP server for one resolved request context (tenant, workspace, caller): four
 * read-only tools and two prompts. Every tool call runs through core's counted pipeline, so it
 * takes a unit of the key's MCP-tools-per-hour and the tenant's queries-per-day limits and
 * writes one `api_query_event` with the tool's name.
 */
export function createPanyaMcpServer(engine: Engine, ctx: RequestContext, options: PanyaMcpServerOptions = {}): McpServer {
  const server = new McpServer({ name: SERVER_NAME, version: SERVER_VERSION }, { instructions: INSTRUCTIONS });

  /** Runs a tool body; any throw becomes a generic tool error instead of leaking internals. */
  const guarded =
    <A>(tool: ToolName, body: (args: A) => Promise<CallToolResult>) =>
    async (args: A): Promise<CallToolResult> => {
      try {
        return await body(args);
      } catch (error) {
        options.onError?.(error, tool);
        return toolError(errors.internal());
      }
    };

  const counted = <T>(tool: ToolName, run: () => Promise<Result<T, PanyaError>>) => engine.queries.counted(ctx, { via: 'mcp', tool }, 'mcp_tool', run);

  server.registerTool(
    'svc_search',
    {
      title: 'Search the knowledge base',
      description:
        'Find the passages (chunks) of the knowledge base that best match a query, ranked by hybrid relevance (keywords and meaning; Thai and English). ' +
        'Use it to look up facts or policies and to collect evidence you can quote; cite each chunk by its document title and documentId. ' +
        'It writes no answer: for a ready, cited answer to a direct question use svc_answer; to read a whole document use svc_get_doc. ' +
        'Returns `results`, best first: chunkId, documentId, title, headingPath (the section headings), text, score, rank, url.',
      inputSchema: searchInput,
      outputSchema: searchOutput,
      annotations: { ...READ_ONLY, idempotentHint: true },
    },
    guarded('svc_search', async ({ query, topK }) => {
      const found = await engine.queries.search(ctx, { query, topK }, { via: 'mcp', tool: 'svc_search' });
      if (found.isErr()) return toolError(found.error);
      const { value, rateLimit } = found.value;
      return success({ ...value }, searchText(query, value), rateLimit);
    }),
  );

  server.registerTool(
    'svc_answer',
    {
      title: 'Answer a question with citations',
      description:
        'Answer a question from the knowledge base: a short answer grounded in its documents, with [n] markers that point to `citations` (document, chunk, title, url, snippet). ' +
        'Use it for a direct question such as a customer would ask ("How long do refunds take?"). ' +
        'When `grounded` is false the knowledge base holds no answer: say so instead of guessing. For raw passages use svc_search. ' +
        'Returns answer, citations, locale and grounded.',
      inputSchema: answerInput,
      outputSchema: answerOutput,
      annotations: READ_ONLY,
    },
    guarded('svc_answer', async ({ query, locale }) => {
      const answered = await engine.answers.answer(ctx, { query, ...(locale ? { locale } : {}) }, { via: 'mcp', tool: 'svc_answer' });
      if (answered.isErr()) return toolError(answered.error);
      const { value, rateLimit } = answered.value;
      return success({ ...value }, answerText(value), rateLimit);
    }),
  );

  /**
   * A page of documents, newest first. With a title filter, pages are scanned (at most
   * TITLE_SCAN_LIMIT documents per call) until `limit` titles match; the cursor handed back
   * resumes right after the last document returned, so no match is skipped or repeated.
   */
  async function listDocuments(input: { cursor?: string | undefined; limit: number; query?: string | undefined }): Promise<Result<{ documents: DocumentSummary[]; nextCursor: string | null }, PanyaError>> {
    const page = (cursor: string | undefined, limit: number) => engine.documents.list(ctx, { limit, ...(cursor !== undefined ? { cursor } : {}) });
    if (!input.query) {
      const listed = await page(input.cursor, input.limit);
      if (listed.isErr()) return err(listed.error);
      return ok({ documents: listed.value.items.map(summary), nextCursor: listed.value.nextCursor });
    }
    const words = normalize(input.query).split(/\s+/).filter(Boolean);
    const matches = (doc: DocumentRecord) => {
      const title = normalize(doc.title);
      return words.every((w) => title.includes(w));
    };
    const found: DocumentRecord[] = [];
    let cursor = input.cursor;
    let scanned = 0;
    for (;;) {
      const listed = await page(cursor, SCAN_PAGE);
      if (listed.isErr()) return err(listed.error);
      const hits = listed.value.items.filter(matches);
      const room = input.limit - found.length;
      if (hits.length > room) {
        // More matches than fit: re-read this page up to the last one taken, for a cursor right after it.
        const upTo = listed.value.items.indexOf(hits[room - 1]!) + 1;
        const cut = await page(cursor, upTo);
        if (cut.isErr()) return err(cut.error);
        found.push(...hits.slice(0, room));
        return ok({ documents: found.map(summary), nextCursor: cut.value.nextCursor });
      }
      found.push(...hits);
      scanned += listed.value.items.length;
      cursor = listed.value.nextCursor ?? undefined;
      if (!cursor || found.length === input.limit || scanned >= TITLE_SCAN_LIMIT) {
        return ok({ documents: found.map(summary), nextCursor: cursor ?? null });
      }
    }
  }

  server.registerTool(
    'svc_list_docs',
    {
      title: 'Browse documents',
      description:
        'List the documents of the knowledge base, newest first: id, title, url, status and updatedAt (no content). ' +
        'Use it to see what the knowledge base covers or to find a document by its title, then read it with svc_get_doc. ' +
        '`query` keeps only documents whose title contains every word of it (case-insensitive); to search inside documents use svc_search. ' +
        'When `nextCursor` is not null, call again with it as `cursor` for more (with a `query`, a page may hold fewer matches than `limit` while more follow).',
      inputSchema: listDocsInput,
      outputSchema: listDocsOutput,
      annotations: READ_ONLY,
    },
    guarded('svc_list_docs', async ({ cursor, limit, query }) => {
      const allowed = requireScope(ctx, 'read');
      if (allowed.isErr()) return toolError(allowed.error);
      const listed = await counted('svc_list_docs', () => listDocuments({ cursor, limit: limit ?? DEFAULT_LIMIT, query }));
      if (listed.isErr()) return toolError(listed.error);
      const { value, rateLimit } = listed.value;
      return success({ ...value, hasMore: value.nextCursor !== null }, listText(value.documents, value.nextCursor, query), rateLimit);
    }),
  );

  server.registerTool(
    'svc_get_doc',
    {
      title: 'Read a document',
      description:
        'Read one whole document: its full Markdown content (contentMd) with title, url, status, createdAt and updatedAt. ' +
        'Use it when svc_search, svc_answer or svc_list_docs gave you a documentId and you need the complete text, e.g. to review it or quote it in context.',
      inputSchema: getDocInput,
      outputSchema: getDocOutput,
      annotations: { ...READ_ONLY, idempotentHint: true },
    },
    guarded('svc_get_doc', async ({ id }) => {
      const allowed = requireScope(ctx, 'read');
      if (allowed.isErr()) return toolError(allowed.error);
      // A missing document is still a call made (counted and recorded); it is reported after.
      const read = await counted('svc_get_doc', async () => {
        const doc = await engine.documents.get(ctx, id);
        if (doc.isErr()) return doc.error.code === 'not_found' ? ok(null) : err(doc.error);
        return ok(doc.value);
      });
      if (read.isErr()) return toolError(read.error);
      const { value: doc, rateLimit } = read.value;
      if (!doc) return toolError(errors.notFound(`Document ${id}`));
      const { id: docId, title, url, status, createdAt, updatedAt, contentMd } = doc;
      return success({ id: docId, title, url, status, createdAt, updatedAt, contentMd }, documentText(doc), rateLimit);
    }),
  );

  /** The document a prompt is about, or null when it does not exist here (prompts are not billable calls). */
  async function promptDocument(id: string): Promise<DocumentRecord | null> {
    const doc = await engine.documents.get(ctx, id);
    return doc.isOk() ? doc.value : null;
  }

  const userMessage = (text: string): GetPromptResult['messages'][number] => ({ role: 'user', content: { type: 'text', text } });

  server.registerPrompt(
    'compliance_check',
    {
      title: 'Compliance check',
      description:
        'Check a text (e.g. a draft reply, a procedure, marketing copy) or a document of the knowledge base against the knowledge base\'s policies, citing them. Pass either `text` or `documentId`.',
      argsSchema: {
        text: z.string().optional().describe('The text to check.'),
        documentId: z.string().optional().describe('Or: the id of a knowledge-base document to check (doc_…).'),
      },
    },
    async ({ text, documentId }) => {
      const hasText = Boolean(text?.trim());
      if (hasText === Boolean(documentId)) throw new McpError(ErrorCode.InvalidParams, 'Pass exactly one of `text` or `documentId`.');
      let subject: string;
      let exclude = '';
      if (hasText) {
        subject = `the text below:\n\n<text>\n${text!.trim()}\n</text>`;
      } else {
        const doc = await promptDocument(documentId!);
        if (!doc) throw new McpError(ErrorCode.InvalidParams, `Document ${documentId} not found in this knowledge base.`);
        subject = `the knowledge-base document "${doc.title}" (${doc.id}):\n\n<document>\n${doc.contentMd}\n</document>`;
        exclude = ` Do not use ${doc.id} itself as evidence that it complies.`;
      }
      const instructions = [
        `Check ${subject}`,
        '',
        'Check it against the policies in the knowledge base:',
        '1. List each statement that makes a claim, promise, price, deadline, condition or instruction.',
        '2. For each, find the governing policy with svc_search (use svc_answer for a direct question, svc_get_doc to read a whole policy).' + exclude,
        '3. Give a verdict per statement: compliant, non-compliant (say what the policy requires instead) or not covered by the knowledge base.',
        '4. Cite every policy you rely on by document title and documentId, quoting the relevant sentence.',
        '5. End with a short summary and the concrete changes needed.',
        'Use only what the tools return; when the knowledge base is silent, say "not covered" rather than assume.',
      ].join('\n');
      return { description: 'Compliance check against the knowledge base', messages: [userMessage(instructions)] };
    },
  );

  server.registerPrompt(
    'document_review',
    {
      title: 'Document review',
      description: 'Review one document of the knowledge base for accuracy, gaps and contradictions with the rest of the knowledge base.',
      argsSchema: { documentId: z.string().describe('The id of the document to review (doc_…), e.g. from svc_list_docs.') },
    },
    async ({ documentId }) => {
      const doc = await promptDocument(documentId);
      const subject = doc
        ? `Review the knowledge-base document "${doc.title}" (${doc.id}, updated ${doc.updatedAt}):\n\n<document>\n${doc.contentMd}\n</document>`
        : `Review the knowledge-base document ${documentId}. Read it first with svc_get_doc; if it does not exist, say so and stop.`;
      const instructions = [
        subject,
        '',
        'Report, with evidence:',
        '1. Accuracy: statements that other documents contradict or qualify. Check the key facts (prices, deadlines, conditions, contacts) with svc_search.',
        '2. Contradictions: for each, quote both sides and cite the other document by title and documentId.',
        '3. Gaps: questions a customer would likely ask after reading it that it does not answer (try them with svc_answer; an ungrounded answer confirms a gap).',
        '4. Clarity: ambiguous, outdated or hard-to-follow passages.',
        'For each finding give its severity (high, medium, low) and a suggested edit. Write in the language of the document.',
      ].join('\n');
      return { description: doc ? `Review of "${doc.title}"` : `Review of ${documentId}`, messages: [userMessage(instructions)] };
    },
  );

  return server;
}
