import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, NO_ANSWER, type Engine, type GenerateRequest, type Generator, type GeneratorEvent, type PlanName } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { createPanyaApp, type PanyaAppOptions } from '@panya/adapter-express';
import { makeTenant } from './helpers.js';
import { engineInternals } from '@panya/core/testing';

const ARTICLES = [
  { title: 'Shipping times', contentMd: '# Shipping times\n\nOrders to Bangkok arrive within 1-2 business days.\n\nOrders to other provinces arrive within 2-4 business days.' },
  { title: 'Refunds', contentMd: '# Refunds\n\nRefunds are paid back to the original payment method within 7 business days after we receive the item.' },
  { title: 'การคืนเงิน', contentMd: '# การคืนเงิน\n\nลูกค้าจะได้รับเงินคืนภายใน 7 วันทำการหลังจากบริษัทได้รับสินค้าคืน' },
];

let engine: Engine;
let server: Server | undefined;
afterEach(async () => {
  server?.close();
  server = undefined;
  await engine?.close();
});

async function setup(options: { generator?: Generator; app?: PanyaAppOptions; quotas?: Record<string, unknown>; plan?: PlanName } = {}) {
  engine = createEngine({ store: openSqliteStore({ path: ':memory:' }), ...(options.generator ? { generator: options.generator } : {}) });
  const app = createPanyaApp(engine, options.app);
  const created = (await engine.tenancy.createTenant({ slug: 'acme', plan: options.plan ?? 'business', quotas: options.quotas ?? {} }))._unsafeUnwrap();
  const key = (await engine.apiKeys.create(created.tenant.id, { scopes: ['read', 'write'] }))._unsafeUnwrap().key;
  const auth = { Authorization: `Bearer ${key}` };
  const ids: string[] = [];
  for (const a of ARTICLES) ids.push((await request(app).post('/api/docs?wait=true').set(auth).send(a).expect(201)).body.id);
  return { app, auth, ids, tenant: created.tenant };
}

/** Reads an SSE response with a standard parser. */
function parseSse(body: string): EventSourceMessage[] {
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (e) => events.push(e) });
  parser.feed(body);
  return events;
}

const chat = (app: ReturnType<typeof createPanyaApp>, auth: Record<string, string>, body: object) =>
  request(app).post('/api/chat').set(auth).set('Content-Type', 'application/json').send(body).buffer(true).parse((res, done) => {
    let text = '';
    res.on('data', (c: Buffer) => (text += c.toString()));
    res.on('end', () => done(null, text));
  });

describe('POST /api/answer', () => {
  it('answers with [n] citations of real chunks, and writes an api_query_event', async () => {
    const { app, auth, ids, tenant } = await setup();
    const res = await request(app).post('/api/answer').set(auth).send({ query: 'How long do refunds take?' }).expect(200);
    expect(res.body).toMatchObject({ locale: 'en', grounded: true });
    expect(res.body.answer).toMatch(/7 business days.*\[\d\]/);
    expect(res.body.citations.length).toBeGreaterThan(0);
    const citation = res.body.citations[0];
    expect(Object.keys(citation).sort()).toEqual(['articleUrl', 'chunkId', 'documentId', 'headingPath', 'n', 'snippet', 'title', 'url']);
    expect(citation.documentId).toBe(ids[1]);
    expect(res.body.answer).toContain(`[${citation.n}]`);
    const chunk = await engineInternals(engine).store.search.getChunks({ tenantId: tenant.id, workspaceId: (await engineInternals(engine).store.workspaces.getDefault(tenant.id))!.id }, [citation.chunkId]);
    expect(chunk[0]?.documentId).toBe(ids[1]);
    expect((await engine.usage.ledger(tenant.id)).apiQueries).toMatchObject({ answer: 1, total: 1 });
    expect(res.headers['ratelimit-remaining']).toBe('59');
  });

  it('answers a Thai question in Thai', async () => {
    const { app, auth, ids } = await setup();
    const res = await request(app).post('/api/answer').set(auth).send({ query: 'ได้เงินคืนภายในกี่วัน' }).expect(200);
    expect(res.body.locale).toBe('th');
    expect(res.body.grounded).toBe(true);
    expect(res.body.answer).toMatch(/[\u0E00-\u0E7F]/);
    expect(res.body.citations[0].documentId).toBe(ids[2]);
  });

  it('says plainly when the knowledge base has no grounded answer', async () => {
    const { app, auth } = await setup();
    const res = await request(app).post('/api/answer').set(auth).send({ query: 'What is the airspeed velocity of an unladen swallow?' }).expect(200);
    expect(res.body).toEqual({ answer: NO_ANSWER.en, citations: [], locale: 'en', grounded: false });
    const th = await request(app).post('/api/answer').set(auth).send({ query: 'What is the airspeed of a swallow?', locale: 'th' }).expect(200);
    expect(th.body).toMatchObject({ answer: NO_ANSWER.th, locale: 'th', grounded: false });
  });

  it('rejects bad input with 400 and counts nothing', async () => {
    const { app, auth, tenant } = await setup();
    for (const body of [{}, { query: '' }, { query: 'x', locale: 'fr' }, { query: 'x', extra: true }]) {
      expect((await request(app).post('/api/answer').set(auth).send(body).expect(400)).body.code).toBe('invalid_request');
    }
    expect((await engine.usage.ledger(tenant.id)).apiQueries.total).toBe(0);
  });
});

describe('POST /api/chat (SSE)', () => {
  it('streams meta, deltas, citations and done, parsable by a standard SSE parser', async () => {
    const { app, auth, ids } = await setup();
    const res = await chat(app, auth, { query: 'How long does shipping to Bangkok take?' }).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    const events = parseSse(res.body as string);
    expect(events[0]!.event).toBe('meta');
    const meta = JSON.parse(events[0]!.data);
    expect(meta.conversationId).toMatch(/^conv_/);
    expect(meta.messageId).toMatch(/^msg_/);
    const deltas = events.filter((e) => e.event === 'delta').map((e) => JSON.parse(e.data).text).join('');
    expect(deltas).toMatch(/1-2 business days/);
    const citations = events.filter((e) => e.event === 'citation').map((e) => JSON.parse(e.data));
    expect(citations[0]).toMatchObject({ documentId: ids[0] });
    expect(events.at(-1)!.event).toBe('done');
    expect(JSON.parse(events.at(-1)!.data)).toMatchObject({ grounded: true, usage: { outputTokens: expect.any(Number) } });
    const stored = await engineInternals(engine).store.conversations.messages({ tenantId: (await engineInternals(engine).store.tenants.getBySlug('acme'))!.id, workspaceId: (await engineInternals(engine).store.workspaces.getDefault((await engineInternals(engine).store.tenants.getBySlug('acme'))!.id))!.id }, meta.conversationId, 10);
    expect(stored.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(stored[1]).toMatchObject({ id: meta.messageId, grounded: true });
  });

  it('answers in the requested locale, th or en, whatever the language of the question', async () => {
    const { app, auth, ids } = await setup();
    const text = (events: EventSourceMessage[]) => events.filter((e) => e.event === 'delta').map((e) => JSON.parse(e.data).text).join('');
    const thai = parseSse((await chat(app, auth, { query: 'How long do refunds take?', locale: 'th' }).expect(200)).body);
    // Only the English article matches the English words: it is quoted after a lead in Thai (no translation without a model).
    expect(text(thai)).toMatch(/^ฐานความรู้มีคำตอบนี้เป็นภาษาอังกฤษ: .*7 business days.*\[1\]/);
    expect(thai.filter((e) => e.event === 'citation').map((e) => JSON.parse(e.data).documentId)).toEqual([ids[1]]);
    expect(JSON.parse(thai.at(-1)!.data)).toMatchObject({ grounded: true });
    const thaiQuestion = parseSse((await chat(app, auth, { query: 'ได้เงินคืนภายในกี่วัน', locale: 'th' }).expect(200)).body);
    expect(text(thaiQuestion)).toContain('7 วันทำการ');

    const english = parseSse((await chat(app, auth, { query: 'ได้เงินคืนภายในกี่วัน', locale: 'en' }).expect(200)).body);
    expect(text(english)).toMatch(/^The knowledge base answers this in Thai: .*7 วันทำการ.*\[1\]/);
    const englishQuestion = parseSse((await chat(app, auth, { query: 'How long do refunds take?', locale: 'en' }).expect(200)).body);
    expect(text(englishQuestion)).toMatch(/^Refunds are paid back .*7 business days/);
    expect(JSON.parse(english.at(-1)!.data)).toMatchObject({ grounded: true });

    // Without a locale, the question's script decides.
    const implicit = parseSse((await chat(app, auth, { query: 'ได้เงินคืนภายในกี่วัน' }).expect(200)).body);
    expect(text(implicit)).toMatch(/[\u0E00-\u0E7F]/);
  });

  it('carries context into a follow-up turn with the conversationId', async () => {
    const { app, auth, ids } = await setup();
    const first = parseSse((await chat(app, auth, { query: 'How long does shipping to Bangkok take?' })).body);
    const { conversationId } = JSON.parse(first[0]!.data);
    const second = parseSse((await chat(app, auth, { query: 'and to other provinces?', conversationId })).body);
    expect(JSON.parse(second[0]!.data).conversationId).toBe(conversationId);
    const done = JSON.parse(second.at(-1)!.data);
    expect(done.query.toLowerCase()).toContain('shipping'); // condensed with the history
    const text = second.filter((e) => e.event === 'delta').map((e) => JSON.parse(e.data).text).join('');
    expect(text).toContain('2-4 business days');
    expect(second.filter((e) => e.event === 'citation').map((e) => JSON.parse(e.data).documentId)).toContain(ids[0]);
  });

  it('answers an unknown or foreign conversationId with 404 before streaming', async () => {
    const { app, auth } = await setup();
    const res = await request(app).post('/api/chat').set(auth).send({ query: 'hi', conversationId: 'conv_0000000000000000000000' }).expect(404);
    expect(res.headers['content-type']).toMatch(/problem\+json/);
  });

  it('refuses chat beyond the hard cap with 402 in the caller’s locale, while documents stay readable on Free', async () => {
    const { app, auth, ids } = await setup({ plan: 'free', quotas: { chatHardCap: 1 } });
    await chat(app, auth, { query: 'How long does shipping to Bangkok take?' }).expect(200);
    const en = await request(app).post('/api/chat').set(auth).send({ query: 'How long does shipping take?' }).expect(402);
    expect(en.body).toMatchObject({ code: 'hard_cap_reached', status: 402, cap: 1 });
    expect(en.body.detail).toMatch(/monthly limit/);
    const th = await request(app).post('/api/chat').set(auth).send({ query: 'ได้เงินคืนกี่วัน' }).expect(402);
    expect(th.body.detail).toMatch(/[\u0E00-\u0E7F]/);
    const thHeader = await request(app).post('/api/chat').set(auth).set('Accept-Language', 'th-TH').send({ query: 'shipping?' }).expect(402);
    expect(thHeader.body.detail).toMatch(/[\u0E00-\u0E7F]/);
    await request(app).get(`/api/docs/${ids[0]}`).set(auth).expect(200);
  });

  it('does not cap a grandfathered tenant during its window', async () => {
    const { app, auth } = await setup({ plan: 'free', quotas: { chatHardCap: 1, legacyPlan: 'business', grandfatheredUntil: '2099-12-31' } });
    await chat(app, auth, { query: 'How long does shipping to Bangkok take?' }).expect(200);
    await chat(app, auth, { query: 'How long does shipping take?' }).expect(200);
  });

  it('rejects bad input with 400 problem JSON', async () => {
    const { app, auth } = await setup();
    await request(app).post('/api/chat').set(auth).send({ query: '' }).expect(400);
    await request(app).post('/api/chat').set(auth).send({ query: 'x', locale: 'de' }).expect(400);
  });
});

/** A generator that streams slowly and records whether it was aborted. */
class SlowGenerator implements Generator {
  readonly specificationVersion = 'v1';
  readonly id = 'slow';
  aborted = false;
  constructor(private readonly failAfter?: number) {}
  async *generate(request: GenerateRequest): AsyncIterable<GeneratorEvent> {
    for (let i = 0; i < 50; i++) {
      if (request.signal?.aborted) {
        this.aborted = true;
        return;
      }
      if (this.failAfter !== undefined && i === this.failAfter) throw new Error('model crashed');
      yield { type: 'delta', text: `word${i} ` };
      await new Promise((r) => setTimeout(r, 30));
    }
    yield { type: 'done', usage: { inputTokens: 1, outputTokens: 50 } };
  }
}

async function listen(app: ReturnType<typeof createPanyaApp>): Promise<string> {
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server!.once('listening', r));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

describe('chat stream lifecycle', () => {
  it('sends heartbeat comments and stops generating when the client disconnects', async () => {
    const generator = new SlowGenerator();
    const { app, auth, tenant } = await setup({ generator, app: { sseHeartbeatMs: 20 } });
    const url = await listen(app);
    const controller = new AbortController();
    const res = await fetch(`${url}/api/chat`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ query: 'refunds' }), signal: controller.signal });
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes(': ping') || !text.includes('word3')) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    await new Promise((r) => setTimeout(r, 200));
    expect(generator.aborted).toBe(true);
    const parsed = parseSse(text);
    const conversationId = JSON.parse(parsed[0]!.data).conversationId;
    const scope = { tenantId: tenant.id, workspaceId: (await engineInternals(engine).store.workspaces.getDefault(tenant.id))!.id };
    expect((await engineInternals(engine).store.conversations.messages(scope, conversationId, 10)).map((m) => m.role)).toEqual(['user']);
  });

  it('reports a failure mid-stream as an error event', async () => {
    const { app, auth } = await setup({ generator: new SlowGenerator(2) });
    const events = parseSse((await chat(app, auth, { query: 'refunds' }).expect(200)).body);
    expect(events.filter((e) => e.event === 'delta')).toHaveLength(2);
    expect(events.at(-1)!.event).toBe('error');
    expect(JSON.parse(events.at(-1)!.data)).toMatchObject({ code: 'unavailable' });
  });
});
