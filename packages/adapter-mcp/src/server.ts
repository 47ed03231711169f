import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, type CallToolResult, type GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { errors, isStoreBusy, OPERATIONS, storeBusy, type DocumentRecord, type Engine, type Operation, type RateLimitStatus, type RequestContext } from '@panya/core';
import { z } from 'zod';
import { toolError } from './errors.js';
import { toolText } from './format.js';

export const SERVER_NAME = 'panya';
export const SERVER_VERSION = '0.1.0';

/** The tools: every entry of core's operation table with an MCP binding. */
const TOOLS = OPERATIONS.filter((op) => op.tool);
export const TOOL_NAMES = ['svc_search', 'svc_answer', 'svc_list_docs', 'svc_get_doc'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];
export const PROMPT_NAMES = ['compliance_check', 'document_review'] as const;

const INSTRUCTIONS = [
  'Tools over one knowledge base (a company\'s help-center and policy documents). Base answers on what these tools return and cite the documents (title and id); do not fill gaps with outside knowledge.',
  '- svc_answer: a short cited answer to a direct question.',
  '- svc_search: the best-matching passages, to gather evidence or quote.',
  '- svc_list_docs: browse or find documents by title.',
  '- svc_get_doc: read one whole document.',
  'Every tool call counts toward the API key\'s hourly limit; when a call is refused for the rate limit, wait the number of seconds it gives.',
].join('\n');

function success(structuredContent: Record<string, unknown>, text: string, rateLimit: RateLimitStatus | null): CallToolResult {
  return {
    content: [{ type: 'text', text }],
    structuredContent,
    // The REST API's RateLimit-* headers, for clients that pace themselves.
    ...(rateLimit ? { _meta: { 'panya/rateLimit': { limit: rateLimit.limit, remaining: rateLimit.remaining, resetSeconds: rateLimit.resetSeconds, ...(rateLimit.quota ? { quota: rateLimit.quota } : {}) } } } : {}),
  };
}

export interface PanyaMcpServerOptions {
  /** Told about unexpected failures (the caller only gets a generic tool error). */
  onError?: (error: unknown, tool: string) => void;
}

/** A tool's arguments: the operation's body schema, which for tools is always an object. */
function argsShape(operation: Operation): z.ZodRawShape {
  return (operation.input.body as z.ZodObject).shape;
}

/**
 * The Panya MCP server for one resolved request context (tenant, workspace, caller): the tools
 * of core's operation table and two prompts. Every tool call runs through `engine.api`, so it
 * takes a unit of the key's MCP-tools-per-hour and the tenant's queries-per-day limits and
 * writes one `api_query_event` with the tool's name.
 */
export function createPanyaMcpServer(engine: Engine, ctx: RequestContext, options: PanyaMcpServerOptions = {}): McpServer {
  const server = new McpServer({ name: SERVER_NAME, version: SERVER_VERSION }, { instructions: INSTRUCTIONS });

  for (const operation of TOOLS) {
    const tool = operation.tool!;
    server.registerTool(
      operation.id,
      { title: tool.title, description: tool.description, inputSchema: argsShape(operation), outputSchema: operation.output as z.ZodObject, annotations: tool.annotations },
      async (args: Record<string, unknown>): Promise<CallToolResult> => {
        try {
          // The session's caller, authenticated by the transport; the rest of the pipeline is `engine.api`'s.
          const done = await engine.api(operation.id, ctx, {}, { body: args }, { channel: { via: 'mcp', tool: operation.id } });
          if (done.isErr()) return toolError(done.error);
          if (done.value.kind !== 'result') return toolError(errors.internal());
          const { value, rateLimit } = done.value;
          return success({ ...(value as Record<string, unknown>) }, toolText(operation.id, args, value), rateLimit);
        } catch (error) {
          // A database too busy to take the call's writes: nothing was written, the assistant may retry.
          if (isStoreBusy(error)) return toolError(storeBusy());
          // Any other throw becomes a generic tool error instead of leaking internals.
          options.onError?.(error, operation.id);
          return toolError(errors.internal());
        }
      },
    );
  }

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
