import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiDocument } from '@panya/adapter-express';
import { createPanyaClient, PanyaApiError, retryAfterMs, type ChatEvent } from '@panya/client';
import { schemaSource } from './schema-source.js';
import { startServer } from './server.js';

let server: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

const src = fileURLToPath(new URL('../src/', import.meta.url));

describe('@panya/client against a live server', () => {
  it('creates, reads, lists, updates and deletes documents, then searches and answers', async () => {
    const client = createPanyaClient({ baseUrl: server.url, apiKey: server.key });
    const doc = await client.docs.create({ title: 'Shipping times', contentMd: 'Bangkok shipping takes one to two days.' }, { wait: true });
    expect(doc).toMatchObject({ id: expect.stringMatching(/^doc_/), status: 'indexed' });
    expect((await client.docs.get(doc.id)).title).toBe('Shipping times');
    expect((await client.docs.list({ limit: 10 })).data.map((d) => d.id)).toEqual([doc.id]);
    expect((await client.docs.update(doc.id, { title: 'Delivery times' })).title).toBe('Delivery times');

    const found = await client.search({ query: 'bangkok shipping', topK: 3 });
    expect(found.results[0]).toMatchObject({ documentId: doc.id, title: 'Delivery times' });
    const answered = await client.answer({ query: 'How long does shipping to Bangkok take?' });
    expect(answered.grounded).toBe(true);
    expect(answered.citations[0]?.documentId).toBe(doc.id);

    // Any route, typed, through openapi-fetch; a workspace address as the base URL.
    const { data: workspaces } = await client.GET('/api/workspaces');
    expect(workspaces?.data.map((w) => w.slug)).toContain('default');
    const scoped = createPanyaClient({ baseUrl: `${server.url}/c/acme/_w/default/`, apiKey: server.key });
    expect((await scoped.docs.list()).data).toHaveLength(1);

    await client.docs.delete(doc.id);
    const gone = await client.docs.get(doc.id).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(PanyaApiError);
    expect(gone).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('streams chat as typed events through an async iterator', async () => {
    const client = createPanyaClient({ baseUrl: server.url, apiKey: server.key });
    await client.docs.create({ title: 'Refunds', contentMd: 'Refunds reach your card within ten working days.' }, { wait: true });
    const events: ChatEvent[] = [];
    for await (const event of client.chat({ query: 'How long do refunds take?' })) events.push(event);
    expect(events[0]?.event).toBe('meta');
    expect(events.at(-1)?.event).toBe('done');
    const text = events.flatMap((e) => (e.event === 'delta' ? [e.data.text] : [])).join('');
    expect(text).toMatch(/ten working days/);
    expect(events.some((e) => e.event === 'citation' && e.data.title === 'Refunds')).toBe(true);
    const meta = events[0]!;
    if (meta.event === 'meta') {
      // The next turn continues the conversation; breaking out early closes the stream.
      for await (const event of client.chat({ query: 'And to a bank account?', conversationId: meta.data.conversationId })) {
        expect(event.event).toBe('meta');
        break;
      }
    }
  });

  it('throws refusals as typed problems', async () => {
    const anonymous = createPanyaClient({ baseUrl: server.url, apiKey: 'svc_live_nope' });
    const refused = await anonymous.search({ query: 'x' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PanyaApiError);
    expect(refused).toMatchObject({ status: 401, code: 'unauthorized', problem: { type: 'urn:panya:problem:unauthorized' } });
    const client = createPanyaClient({ baseUrl: server.url, apiKey: server.key });
    const invalid = (await client.search({ query: '' }).catch((e: unknown) => e)) as PanyaApiError;
    expect(invalid.code).toBe('invalid_request');
    expect(invalid.problem.errors).toEqual([expect.objectContaining({ path: 'query' })]);
  });

  it('retries 429 and 503 after Retry-After, sending the same body and Idempotency-Key, and writes once', async () => {
    const seen: { method: string; key: string | null; body: string }[] = [];
    let refusals = 2;
    const flaky = async (request: Request) => {
      seen.push({ method: request.method, key: request.headers.get('idempotency-key'), body: await request.clone().text() });
      if (refusals-- > 0) {
        // The server took the first request and the answer was lost: the retry must replay, not write again.
        if (refusals === 1) await fetch(request.clone());
        return new Response(JSON.stringify({ type: 'urn:panya:problem:unavailable', title: 'Service unavailable', status: 503, code: 'unavailable' }), { status: refusals === 1 ? 503 : 429, headers: { 'Retry-After': '0' } });
      }
      return fetch(request);
    };
    const client = createPanyaClient({ baseUrl: server.url, apiKey: server.key, fetch: flaky });
    const before = (await client.docs.list({ limit: 100 })).data.length;
    refusals = 2;
    seen.length = 0;
    const doc = await client.docs.create({ title: 'Once', contentMd: 'Written once.' });
    expect(seen).toHaveLength(3);
    expect(new Set(seen.map((s) => s.key)).size).toBe(1);
    expect(seen[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(seen.map((s) => s.body))).toEqual(new Set([JSON.stringify({ title: 'Once', contentMd: 'Written once.' })]));
    expect((await client.docs.list({ limit: 100 })).data.length).toBe(before + 1);
    expect((await client.docs.get(doc.id)).title).toBe('Once');

    // A Retry-After beyond the cap is not waited for; retries run out as the last answer.
    const slow = createPanyaClient({ baseUrl: server.url, apiKey: server.key, maxRetryDelayMs: 1000, fetch: async () => new Response('{"type":"urn:panya:problem:rate_limited","title":"Too many requests","status":429,"code":"rate_limited"}', { status: 429, headers: { 'Retry-After': '3600' } }) });
    await expect(slow.search({ query: 'x' })).rejects.toMatchObject({ status: 429, code: 'rate_limited' });
    let calls = 0;
    const down = createPanyaClient({ baseUrl: server.url, maxRetries: 1, fetch: async () => (calls++, new Response('busy', { status: 503, headers: { 'Retry-After': '0' } })) });
    await expect(down.search({ query: 'x' })).rejects.toMatchObject({ status: 503, code: 'internal' });
    expect(calls).toBe(2);
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(new Date(Date.now() + 5000).toUTCString(), Date.now())).toBeGreaterThan(3000);
  });

  it('a caller-chosen Idempotency-Key replays the first document', async () => {
    const client = createPanyaClient({ baseUrl: server.url, apiKey: server.key });
    const first = await client.docs.create({ title: 'Keyed', contentMd: 'x' }, { idempotencyKey: 'client-test-1' });
    const again = await client.docs.create({ title: 'Keyed', contentMd: 'x' }, { idempotencyKey: 'client-test-1' });
    expect(again.id).toBe(first.id);
    await expect(client.docs.create({ title: 'Other', contentMd: 'x' }, { idempotencyKey: 'client-test-1' })).rejects.toMatchObject({ status: 409, problem: { reason: 'idempotency_key_reused' } });
  });
});

describe('@panya/client package', () => {
  it('has types generated from the current OpenAPI document (run `pnpm --filter @panya/client generate`)', async () => {
    expect(readFileSync(`${src}schema.ts`, 'utf8')).toBe(await schemaSource(apiDocument()));
  });

  it('uses no Node built-ins, so it runs in browsers', () => {
    for (const file of readdirSync(src)) {
      const text = readFileSync(`${src}${file}`, 'utf8');
      expect(text, file).not.toMatch(/from ['"](node:|fs|path|http|https|crypto|stream|buffer)['"]/);
      expect(text, file).not.toMatch(/\b(process|Buffer|require)\s*[.(]/);
    }
  });
});
