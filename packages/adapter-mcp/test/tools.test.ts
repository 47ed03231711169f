import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { DocumentRecord, Engine } from '@panya/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTICLES, callTool, connect, makeEngine, makeTenant, rest, seed, startApp, textOf } from './helpers.js';
import { engineInternals } from '@panya/core/testing';

describe('MCP tools over Streamable HTTP', () => {
  let engine: Engine;
  let app: Awaited<ReturnType<typeof startApp>>;
  let acme: Awaited<ReturnType<typeof makeTenant>>;
  let docs: DocumentRecord[];
  let client: Client;
  let endpoint: string;

  beforeAll(async () => {
    engine = makeEngine();
    acme = await makeTenant(engine, 'acme');
    docs = await seed(engine, acme.ctx, ARTICLES);
    app = await startApp(engine);
    endpoint = `${app.url}/api/mcp`;
    client = await connect(endpoint, acme.key);
  });

  afterAll(async () => {
    await client.close();
    await app.close();
    await engine.close();
  });

  it('lists exactly the four tools, each with input and output schemas and a description', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['svc_answer', 'svc_get_doc', 'svc_list_docs', 'svc_search']);
    for (const tool of tools) {
      expect(tool.description?.length).toBeGreaterThan(80);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      // Open output schemas: a field the engine adds later must not fail a client's validation.
      expect(tool.outputSchema?.additionalProperties).not.toBe(false);
      expect(tool.annotations?.readOnlyHint).toBe(true);
    }
    const search = tools.find((t) => t.name === 'svc_search')!;
    expect(search.inputSchema.required).toEqual(['query']);
    expect(Object.keys(search.inputSchema.properties ?? {}).sort()).toEqual(['query', 'topK']);
    const getDoc = tools.find((t) => t.name === 'svc_get_doc')!;
    expect(getDoc.inputSchema.required).toEqual(['id']);
  });

  it('lists exactly the two prompts with their arguments', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(['compliance_check', 'document_review']);
    const review = prompts.find((p) => p.name === 'document_review')!;
    expect(review.arguments).toEqual([expect.objectContaining({ name: 'documentId', required: true })]);
    const check = prompts.find((p) => p.name === 'compliance_check')!;
    expect(check.arguments?.map((a) => [a.name, a.required ?? false]).sort()).toEqual([
      ['documentId', false],
      ['text', false],
    ]);
  });

  it('svc_search returns the same ranked chunks as POST /api/search, with a numbered text rendering', async () => {
    const viaRest = await rest(app.url, acme.key, '/api/search', { query: 'refund gift card', topK: 3 });
    const result = await callTool(client, 'svc_search', { query: 'refund gift card', topK: 3 });
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as { results: { chunkId: string; documentId: string; title: string }[] };
    const { tookMs: _a, ...restBody } = viaRest.body;
    const { tookMs: _b, ...mcpBody } = structured as typeof structured & { tookMs: number };
    expect(mcpBody).toEqual(restBody);
    expect(structured.results.length).toBeGreaterThan(0);
    expect(structured.results[0]!.documentId).toBe(docs[0]!.id);
    const text = textOf(result);
    expect(text).toContain('[1] Refund policy');
    expect(text).toContain(`document ${structured.results[0]!.documentId}`);
    expect(text).toContain(`chunk ${structured.results[0]!.chunkId}`);
    expect(text).toContain('Gift cards cannot be refunded');
  });

  it('svc_answer returns the same cited answer as POST /api/answer', async () => {
    const query = 'How long do refunds take?';
    const viaRest = await rest(app.url, acme.key, '/api/answer', { query });
    const result = await callTool(client, 'svc_answer', { query });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(viaRest.body);
    const answer = result.structuredContent as { grounded: boolean; citations: { n: number; documentId: string }[] };
    expect(answer.grounded).toBe(true);
    expect(answer.citations[0]!.documentId).toBe(docs[0]!.id);
    expect(textOf(result)).toMatch(/Sources:\n\[\d+\] Refund policy \(document doc_/);
  });

  it('svc_answer takes a workspace persona: its locale shapes the answer as on POST /api/answer', async () => {
    const query = 'How long do refunds take?';
    const persona = await rest(app.url, acme.key, '/api/personas', { name: 'Nok', tone: 'polite', locale: 'th' });
    expect(persona.status).toBe(201);
    const viaRest = await rest(app.url, acme.key, '/api/answer', { query, personaId: persona.body.id });
    const result = await callTool(client, 'svc_answer', { query, personaId: persona.body.id });
    expect(result.structuredContent).toEqual(viaRest.body);
    expect(result.structuredContent).toMatchObject({ locale: 'th', grounded: true });
    const unknown = await callTool(client, 'svc_answer', { query, personaId: 'per_0000000000000000000000' });
    expect(unknown.isError).toBe(true);
  });

  it('svc_list_docs pages like GET /api/docs', async () => {
    const viaRest = await rest(app.url, acme.key, '/api/docs?limit=2');
    const first = await callTool(client, 'svc_list_docs', { limit: 2 });
    const page = first.structuredContent as { data: { id: string; title: string; updatedAt: string }[]; nextCursor: string | null; hasMore: boolean };
    expect(page.data).toEqual(viaRest.body.data.map((d: DocumentRecord) => ({ id: d.id, title: d.title, url: d.url, status: d.status, updatedAt: d.updatedAt })));
    expect(page.nextCursor).toBe(viaRest.body.nextCursor);
    expect(page.hasMore).toBe(true);
    const second = await callTool(client, 'svc_list_docs', { limit: 2, cursor: page.nextCursor });
    const rest2 = second.structuredContent as typeof page;
    expect(rest2.data.map((d) => d.id)).toEqual([docs[0]!.id]);
    expect(rest2.nextCursor).toBeNull();
    expect(textOf(first)).toContain(`call svc_list_docs again with cursor "${page.nextCursor}"`);
  });

  it('svc_list_docs with a query keeps the titles holding every word, and its cursor neither skips nor repeats', async () => {
    const extra = await seed(engine, acme.ctx, [
      { title: 'Refund form (Thai customers)', contentMd: 'Form.' },
      { title: 'Store opening hours', contentMd: 'Hours.' },
      { title: 'REFUND timelines by card', contentMd: 'Timelines.' },
    ]);
    const refunds = [extra[2]!, extra[0]!, docs[0]!].map((d) => d.id); // newest first
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const result = await callTool(client, 'svc_list_docs', { query: 'refund', limit: 2, ...(cursor ? { cursor } : {}) });
      const page = result.structuredContent as { data: { id: string }[]; nextCursor: string | null };
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((d) => d.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(refunds);

    const both = await callTool(client, 'svc_list_docs', { query: 'refund   CARD' });
    expect((both.structuredContent as { data: { id: string }[] }).data.map((d) => d.id)).toEqual([extra[2]!.id]);
    const none = await callTool(client, 'svc_list_docs', { query: 'nothing like this' });
    expect(none.structuredContent).toEqual({ data: [], nextCursor: null, hasMore: false });
    for (const doc of extra) (await engine.documents.delete(acme.ctx, doc.id))._unsafeUnwrap();
  });

  it('svc_get_doc returns the full content, as GET /api/docs/:id', async () => {
    const doc = docs[0]!;
    const viaRest = await rest(app.url, acme.key, `/api/docs/${doc.id}`);
    const result = await callTool(client, 'svc_get_doc', { id: doc.id });
    expect(result.isError).toBeFalsy();
    const { id, title, url, status, createdAt, updatedAt, contentMd } = viaRest.body;
    expect(result.structuredContent).toEqual({ id, title, url, status, createdAt, updatedAt, contentMd });
    expect(textOf(result)).toContain(doc.contentMd);
  });

  it('reports a missing document and bad input as tool errors, and the session goes on', async () => {
    const missing = await callTool(client, 'svc_get_doc', { id: 'doc_0000000000000000000000' });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('Document doc_0000000000000000000000 not found');
    expect(missing._meta?.['panya/error']).toEqual({ code: 'not_found' });

    const malformed = await callTool(client, 'svc_get_doc', { id: 'not-an-id' });
    expect(malformed.isError).toBe(true);
    expect(textOf(malformed)).toMatch(/not a document id/);
    const empty = await callTool(client, 'svc_search', { query: '   ' });
    expect(empty.isError).toBe(true);

    const still = await callTool(client, 'svc_list_docs', {});
    expect(still.isError).toBeFalsy();
  });

  it('writes one api_query_event per counted tool call, with the tool name, key and workspace', async () => {
    const before = await engineInternals(engine).store.usage.listQueries(acme.tenant.id);
    await callTool(client, 'svc_search', { query: 'warranty' });
    await callTool(client, 'svc_answer', { query: 'How long is the warranty?' });
    await callTool(client, 'svc_list_docs', {});
    await callTool(client, 'svc_get_doc', { id: docs[2]!.id });
    await callTool(client, 'svc_get_doc', { id: 'bad' }); // refused by the input schema: not counted
    const after = await engineInternals(engine).store.usage.listQueries(acme.tenant.id);
    const added = after.filter((e) => !before.some((b) => b.id === e.id));
    expect(added.map((e) => e.tool).sort()).toEqual(['svc_answer', 'svc_get_doc', 'svc_list_docs', 'svc_search']);
    for (const event of added) {
      expect(event).toMatchObject({ kind: 'mcp_tool', keyId: acme.keyId, workspaceId: acme.defaultWorkspace.id, tenantId: acme.tenant.id });
    }
  });

  it('document_review embeds the document; compliance_check embeds the text and names the tools to use', async () => {
    const review = await client.getPrompt({ name: 'document_review', arguments: { documentId: docs[0]!.id } });
    const reviewText = (review.messages[0]!.content as { text: string }).text;
    expect(review.messages[0]!.role).toBe('user');
    expect(reviewText).toContain(docs[0]!.contentMd);
    expect(reviewText).toMatch(/svc_search/);
    expect(reviewText).toMatch(/contradict/i);

    const unknown = await client.getPrompt({ name: 'document_review', arguments: { documentId: 'doc_0000000000000000000000' } });
    expect((unknown.messages[0]!.content as { text: string }).text).toContain('Read it first with svc_get_doc');

    const check = await client.getPrompt({ name: 'compliance_check', arguments: { text: 'We refund gift cards within 30 days.' } });
    const checkText = (check.messages[0]!.content as { text: string }).text;
    expect(checkText).toContain('We refund gift cards within 30 days.');
    expect(checkText).toMatch(/svc_search/);
    expect(checkText).toMatch(/cite/i);

    const ofDoc = await client.getPrompt({ name: 'compliance_check', arguments: { documentId: docs[1]!.id } });
    expect((ofDoc.messages[0]!.content as { text: string }).text).toContain(docs[1]!.contentMd);

    await expect(client.getPrompt({ name: 'compliance_check', arguments: {} })).rejects.toThrow(/exactly one of `text` or `documentId`/);
  });

  it('does not count prompts as tool calls', async () => {
    const before = (await engineInternals(engine).store.usage.listQueries(acme.tenant.id)).length;
    await client.getPrompt({ name: 'document_review', arguments: { documentId: docs[0]!.id } });
    expect(await engineInternals(engine).store.usage.listQueries(acme.tenant.id)).toHaveLength(before);
  });
});
