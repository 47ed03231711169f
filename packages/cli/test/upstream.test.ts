/**
 * A model provider that is misconfigured, refuses or cannot be reached: the start stops naming
 * the setting, and at run time answers are 502/503 `upstream_unavailable` (REST, chat's SSE error
 * event, MCP tool error), never 500. The provider is a local server speaking OpenAI's wire format.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, silentLogger, type Engine } from '@panya/core';
import { OpenAIGenerator } from '@panya/provider-openai';
import { sendError, startFakeOpenAI, type FakeOpenAI } from '@panya/provider-openai/testing';
import { openSqliteStore } from '@panya/store-sqlite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildProgram, loadEnv } from '@panya/cli';
import { startServer } from '../src/commands/serve.js';

async function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  await buildProgram({ out: (s) => out.push(s), err: () => {} }, env).parseAsync(['node', 'panya', ...args]);
  return out.join('\n');
}

describe('model provider configuration is checked at start', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'panya-upstream-'));
    return () => rmSync(dir, { recursive: true, force: true });
  });

  it('refuses PANYA_GENERATOR=openai without PANYA_OPENAI_API_KEY, naming the setting, before opening anything', async () => {
    const db = join(dir, 'panya.db');
    await expect(run(['serve', '--port', '0', '--db', db], { PANYA_GENERATOR: 'openai' })).rejects.toThrow(/PANYA_OPENAI_API_KEY: required by PANYA_GENERATOR=openai.*\(not set\)/s);
    expect(existsSync(db)).toBe(false);
    expect(() => loadEnv({ PANYA_GENERATOR: 'openai' })).toThrow(/PANYA_OPENAI_BASE_URL/);
    // A key, or a compatible server of one's own that may need none.
    expect(loadEnv({ PANYA_GENERATOR: 'openai', PANYA_OPENAI_API_KEY: 'sk-x' }).PANYA_GENERATOR).toBe('openai');
    expect(loadEnv({ PANYA_GENERATOR: 'openai', PANYA_OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' }).PANYA_GENERATOR).toBe('openai');
  });

  it('refuses PANYA_EMBEDDER=openai without a key when the embedder loads', async () => {
    await expect(run(['demo', '--db', join(dir, 'panya.db')], { PANYA_EMBEDDER: 'openai' })).rejects.toThrow(/PANYA_OPENAI_API_KEY: required by PANYA_EMBEDDER=openai/);
  });

  it('uses a configured PANYA_DEMO_KEY as the demo key, and refuses a malformed one', async () => {
    const key = `svc_live_${'Demo'.repeat(8)}`;
    const db = join(dir, 'panya.db');
    const first = JSON.parse(await run(['demo', '--json', '--db', db], { PANYA_DEMO_KEY: key }));
    expect(first).toMatchObject({ apiKey: key, keyReused: false });
    expect(existsSync(`${db}.demo-key`)).toBe(false); // the configuration holds it
    expect(JSON.parse(await run(['demo', '--json', '--db', db], { PANYA_DEMO_KEY: key }))).toMatchObject({ apiKey: key, keyReused: true });
    // Without it, a generated key replaces (and revokes) it.
    const generated = JSON.parse(await run(['demo', '--json', '--db', db]));
    expect(generated.apiKey).not.toBe(key);
    await expect(run(['demo', '--json', '--db', db], { PANYA_DEMO_KEY: key })).rejects.toThrow(/PANYA_DEMO_KEY: .*already in use/);
    await expect(run(['demo', '--db', db], { PANYA_DEMO_KEY: 'svc_live_short' })).rejects.toThrow(/PANYA_DEMO_KEY: must be svc_live_ followed by 32 letters or digits/);
  });
});

type Mode = 'overloaded' | 'refused' | 'ok';

describe('a failing model provider at run time', () => {
  let provider: FakeOpenAI;
  let mode: Mode = 'ok';
  let providerUrl: string;
  let closedUrl: string;
  let engine: Engine;
  let api: Awaited<ReturnType<typeof startServer>>;
  let key: string;

  beforeAll(async () => {
    // Answers 'Refunds take 7 business days [1].' unless told to fail.
    provider = await startFakeOpenAI();
    provider.handle((req, res) => {
      if (mode === 'overloaded') return sendError(res, 503, 'The engine is currently overloaded, please try again later');
      if (mode === 'refused') return sendError(res, 401, 'Incorrect API key provided: sk-test.');
      return provider.answer(req, res);
    });
    providerUrl = provider.url;
    // A port nobody listens on: the provider cannot be reached at all.
    const gone = createServer();
    await new Promise<void>((ok) => gone.listen(0, '127.0.0.1', ok));
    closedUrl = `http://127.0.0.1:${(gone.address() as AddressInfo).port}/v1`;
    await new Promise((ok) => gone.close(ok));
  });
  afterAll(async () => {
    await api?.close();
    await engine?.close();
    await provider.close();
  });

  async function serveWith(baseUrl: string) {
    await api?.close();
    await engine?.close();
    engine = createEngine({ store: openSqliteStore({ path: ':memory:' }), generator: new OpenAIGenerator({ baseUrl, apiKey: 'sk-test', model: 'gpt-4o-mini', maxRetries: 0, timeoutMs: 5_000 }) });
    const tenant = (await engine.tenancy.createTenant({ slug: 'acme', plan: 'business' }))._unsafeUnwrap();
    key = (await engine.apiKeys.create(tenant.tenant.id, { scopes: ['read', 'write', 'mcp'] }))._unsafeUnwrap().key;
    const ctx = (await engine.access.system('acme'))._unsafeUnwrap();
    await engine.documents.create(ctx, { title: 'Refunds', contentMd: '# Refunds\n\nRefunds take 7 business days.' }, { wait: true });
    api = await startServer(engine, { port: 0, host: '127.0.0.1', logger: silentLogger });
  }

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${api.url}${path}`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });

  async function callAnswerTool() {
    const res = await post('/api/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'svc_answer', arguments: { query: 'How long do refunds take?' } } }, { Accept: 'application/json, text/event-stream' });
    expect(res.status).toBe(200);
    return ((await res.json()) as { result: { isError?: boolean; content: { text: string }[]; _meta?: Record<string, unknown> } }).result;
  }

  it('answers 503 with Retry-After when the provider is overloaded or unreachable, on answer, chat and MCP', async () => {
    for (const [url, setMode] of [[providerUrl, 'overloaded'], [closedUrl, 'ok']] as const) {
      await serveWith(url);
      mode = setMode;
      const res = await post('/api/answer', { query: 'How long do refunds take?' });
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.headers.get('retry-after')).toBe('30');
      expect(await res.json()).toMatchObject({ code: 'upstream_unavailable', status: 503, type: 'urn:panya:problem:upstream_unavailable', provider: 'openai:gpt-4o-mini' });

      const thai = await post('/api/answer', { query: 'คืนเงินกี่วัน', locale: 'th' });
      expect(((await thai.json()) as { detail: string }).detail).toContain('ผู้ให้บริการโมเดล');

      const chat = await post('/api/chat', { query: 'How long do refunds take?' });
      expect(chat.status).toBe(200); // the stream had started: the failure is its last event
      const events = (await chat.text()).split('\n\n').filter(Boolean);
      expect(events.at(-1)).toMatch(/^event: error\ndata: .*"code":"upstream_unavailable".*"transient":true/);

      const tool = await callAnswerTool();
      expect(tool.isError).toBe(true);
      expect(tool._meta?.['panya/error']).toMatchObject({ code: 'upstream_unavailable', retryAfterSeconds: 30 });
      expect(tool.content[0]!.text).toContain('could not be reached or is overloaded');
    }
  });

  it('answers 502 without Retry-After when the provider refuses the request, and answers again once it works', async () => {
    await serveWith(providerUrl);
    mode = 'refused';
    const res = await post('/api/answer', { query: 'How long do refunds take?' });
    expect(res.status).toBe(502);
    expect(res.headers.get('retry-after')).toBeNull();
    const problem = (await res.json()) as { code: string; detail: string };
    expect(problem.code).toBe('upstream_unavailable');
    expect(problem.detail).toContain('configuration needs attention');
    expect(problem.detail).not.toContain('sk-test'); // the provider's own words stay in the log
    expect((await callAnswerTool())._meta?.['panya/error']).toEqual({ code: 'upstream_unavailable' });

    mode = 'ok';
    const fine = await post('/api/answer', { query: 'How long do refunds take?' });
    expect(fine.status).toBe(200);
    expect(await fine.json()).toMatchObject({ grounded: true, answer: 'Refunds take 7 business days [1].' });
  });
});
