import type { Server } from 'node:http';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '@panya/core';
import { createPanyaApp } from '@panya/adapter-express';
import { makeTenant } from './helpers.js';
import { storeCases } from './store-cases.js';

const REFUNDS = { title: 'Refunds', contentMd: '# Refunds\n\nRefunds are paid back to the original payment method within 7 business days after we receive the item.' };
const RETURNS = { title: 'Returns', contentMd: '# Returns\n\nItems can be returned within 30 days of delivery in their original packaging.' };
/** What the team approved: deliberately not the generated wording, with exact figures. */
const APPROVED = 'Refunds reach your account in 5–7 business days (฿1,250.50 fee waived for members).';

const readSse = (app: ReturnType<typeof createPanyaApp>, path: string, auth: Record<string, string>, body: object) =>
  request(app).post(path).set(auth).set('Content-Type', 'application/json').send(body).buffer(true).parse((res, done) => {
    let text = '';
    res.on('data', (c: Buffer) => (text += c.toString()));
    res.on('end', () => done(null, text));
  });

function sseEvents(text: string): { event: string; data: any }[] {
  return text
    .split('\n\n')
    .map((block) => ({ event: /^event: (.*)$/m.exec(block)?.[1] ?? '', data: /^data: (.*)$/m.exec(block)?.[1] }))
    .filter((e) => e.event && e.data)
    .map((e) => ({ event: e.event, data: JSON.parse(e.data!) }));
}

describe.each(storeCases('Curated answers'))('curated answers on $name', (storeCase) => {
  let engine: Engine;
  let drop: () => Promise<void>;
  let server: Server | undefined;
  beforeEach(async () => {
    const opened = await storeCase.open();
    drop = opened.drop;
    engine = createEngine({ store: opened.store });
  });
  afterEach(async () => {
    server?.close();
    await engine.close();
    await drop();
  });

  async function setup() {
    const app = createPanyaApp(engine);
    const acme = await makeTenant(engine, 'acme');
    const docs = [];
    for (const doc of [REFUNDS, RETURNS]) docs.push((await request(app).post('/api/docs?wait=true').set(acme.auth).send(doc).expect(201)).body.id as string);
    return { app, acme, docs };
  }

  it('CRUD with the origin stored, problem JSON for bad input, and nothing changed by a refused request', async () => {
    const { app, acme, docs } = await setup();
    const created = await request(app)
      .post('/api/curated-answers')
      .set(acme.auth)
      .send({ question: 'How long do refunds take?', paraphrases: ['when will I get my money back'], answer: APPROVED, documentIds: [docs[0]], origin: 'gap', originRef: 'gap_refunds' })
      .expect(201);
    expect(created.headers.location).toBe(`/api/curated-answers/${created.body.id}`);
    expect(created.body).toMatchObject({ question: 'How long do refunds take?', answer: APPROVED, origin: 'gap', originRef: 'gap_refunds', documentIds: [docs[0]] });
    expect(created.body).not.toHaveProperty('tenantId');

    const manual = await request(app).post('/api/curated-answers').set(acme.auth).send({ question: 'Do you ship abroad?', answer: 'No, within Thailand only.' }).expect(201);
    expect(manual.body).toMatchObject({ origin: 'manual', originRef: null, paraphrases: [] });

    for (const bad of [
      { question: 'Refunds?', answer: 'x', origin: 'feedback' }, // a feedback origin names its item
      { question: 'Refunds?', answer: 'x', originRef: 'gap_1' }, // a manual one names none
      { question: 'Refunds?', answer: '' },
      { question: 'Refunds?', answer: 'x', extra: true },
      { question: 'Refunds?', answer: 'x', paraphrases: Array.from({ length: 21 }, (_, i) => `paraphrase number ${i}`) },
    ]) {
      const res = await request(app).post('/api/curated-answers').set(acme.auth).send(bad).expect(400);
      expect(res.type).toBe('application/problem+json');
    }
    const unknownDoc = await request(app).post('/api/curated-answers').set(acme.auth).send({ question: 'Refunds?', answer: 'x', documentIds: ['doc_nope'] }).expect(422);
    expect(unknownDoc.body.errors[0]).toMatchObject({ path: 'documentIds' });
    expect((await request(app).get('/api/curated-answers').set(acme.auth).expect(200)).body.data.map((a: { id: string }) => a.id)).toEqual([created.body.id, manual.body.id]);

    const patched = await request(app).patch(`/api/curated-answers/${manual.body.id}`).set(acme.auth).send({ paraphrases: ['can you deliver overseas'] }).expect(200);
    expect(patched.body).toMatchObject({ paraphrases: ['can you deliver overseas'], answer: 'No, within Thailand only.' });
    await request(app).patch(`/api/curated-answers/${manual.body.id}`).set(acme.auth).send({}).expect(400);
    await request(app).delete(`/api/curated-answers/${manual.body.id}`).set(acme.auth).expect(200);
    await request(app).get(`/api/curated-answers/${manual.body.id}`).set(acme.auth).expect(404);

    // A read-only key manages none; another tenant sees none.
    const reader = (await engine.apiKeys.create(acme.tenant.id, { scopes: ['read'] }))._unsafeUnwrap().key;
    await request(app).get('/api/curated-answers').set({ Authorization: `Bearer ${reader}` }).expect(403);
    const globex = await makeTenant(engine, 'globex');
    await request(app).get(`/api/curated-answers/${created.body.id}`).set(globex.auth).expect(404);
  });

  it('wins over retrieval for a paraphrase on answer, chat and svc_answer, verbatim and marked curated; never for other numbers', async () => {
    const { app, acme, docs } = await setup();
    const curated = (
      await request(app)
        .post('/api/curated-answers')
        .set(acme.auth)
        .send({ question: 'How long do refunds take?', paraphrases: ['คืนเงินใช้เวลากี่วัน'], answer: APPROVED, documentIds: [docs[0]], origin: 'feedback', originRef: 'msg_123' })
        .expect(201)
    ).body;
    const mark = { id: curated.id, origin: 'feedback', originRef: 'msg_123', documentIds: [docs[0]], question: 'How long do refunds take?' };

    const answered = await request(app).post('/api/answer').set(acme.auth).send({ query: 'how long does a refund take?' }).expect(200);
    expect(answered.body).toMatchObject({ answer: APPROVED, grounded: true, curated: mark, citations: [] });
    const thai = await request(app).post('/api/answer').set(acme.auth).send({ query: 'คืนเงินใช้เวลากี่วันครับ' }).expect(200);
    expect(thai.body).toMatchObject({ answer: APPROVED, curated: { id: curated.id } });

    const chat = sseEvents((await readSse(app, '/api/chat', acme.auth, { query: 'How long do refunds usually take?' })).body);
    expect(chat.filter((e) => e.event === 'delta').map((e) => e.data.text).join('')).toBe(APPROVED);
    expect(chat.at(-1)).toMatchObject({ event: 'done', data: { grounded: true, curated: mark } });
    const conversationId = chat[0]!.data.conversationId;
    const stored = await request(app).get(`/api/conversations/${conversationId}/messages`).set(acme.auth).expect(200);
    expect(stored.body.data.at(-1)).toMatchObject({ role: 'assistant', content: APPROVED, grounded: true });

    const mcp = await request(app)
      .post('/api/mcp')
      .set({ ...acme.auth, Accept: 'application/json, text/event-stream' })
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'svc_answer', arguments: { query: 'how long do refunds take' } } })
      .expect(200);
    expect(mcp.body.result.structuredContent).toMatchObject({ answer: APPROVED, grounded: true, curated: { id: curated.id } });

    // Another question is answered from retrieval, and so is one naming other numbers.
    const other = await request(app).post('/api/answer').set(acme.auth).send({ query: 'Can items be returned within 30 days?' }).expect(200);
    expect(other.body.curated).toBeUndefined();
    expect(other.body.citations[0].documentId).toBe(docs[1]);
    await request(app).post('/api/curated-answers').set(acme.auth).send({ question: 'Can I return an item after 30 days?', answer: 'Yes, with a 10% restocking fee.' }).expect(201);
    expect((await request(app).post('/api/answer').set(acme.auth).send({ query: 'can I return an item after 30 days' }).expect(200)).body.answer).toBe('Yes, with a 10% restocking fee.');
    expect((await request(app).post('/api/answer').set(acme.auth).send({ query: 'can I return an item after 45 days' }).expect(200)).body.curated).toBeUndefined();
    expect(engine.curatedAnswers.match).toBeTypeOf('function');
    expect((await engine.curatedAnswers.match({ tenantId: acme.tenant.id, workspaceId: acme.defaultWorkspace.id }, 'How long do refunds take'))?.id).toBe(curated.id);
  });

  it('never matches in another workspace or another tenant', async () => {
    const { app, acme } = await setup();
    await request(app).post('/api/curated-answers').set(acme.auth).send({ question: 'How long do refunds take?', answer: APPROVED }).expect(201);
    await request(app).post('/api/workspaces').set(acme.auth).send({ slug: 'brand-b', name: 'Brand B' }).expect(201);
    const base = '/c/acme/_w/brand-b/api';
    await request(app).post(`${base}/docs?wait=true`).set(acme.auth).send(REFUNDS).expect(201);
    const inB = await request(app).post(`${base}/answer`).set(acme.auth).send({ query: 'How long do refunds take?' }).expect(200);
    expect(inB.body.curated).toBeUndefined();
    expect(inB.body.answer).not.toBe(APPROVED);
    expect(inB.body.answer).toMatch(/7 business days/);
    const chatB = sseEvents((await readSse(app, `${base}/chat`, acme.auth, { query: 'How long do refunds take?' })).body);
    expect(chatB.at(-1)!.data.curated).toBeUndefined();

    const globex = await makeTenant(engine, 'globex');
    await request(app).post('/api/docs?wait=true').set(globex.auth).send(REFUNDS).expect(201);
    const elsewhere = await request(app).post('/api/answer').set(globex.auth).send({ query: 'How long do refunds take?' }).expect(200);
    expect(elsewhere.body.curated).toBeUndefined();
    expect(elsewhere.body.answer).not.toBe(APPROVED);
  });
});
