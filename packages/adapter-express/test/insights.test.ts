/**
 * The improvement loop over HTTP on both stores: 200 chat turns over a small corpus, some of
 * them unanswerable; the content-gaps endpoint groups the unanswerable ones (an English and a
 * Thai cluster) with their counts, trend and nearest documents, and masks personal data; a
 * thumbs-down is listed with the chunks it cited, per document too, until an edit addresses it.
 */
import { randomBytes } from 'node:crypto';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine, type Store } from '@panya/core';
import { engineInternals } from '@panya/core/testing';
import { openSqliteStore } from '@panya/store-sqlite';
import { openPostgresStore } from '@panya/store-postgres';
import { createPanyaApp } from '@panya/adapter-express';
import { makeTenant } from './helpers.js';

const pgUrl = process.env.PANYA_TEST_PG;
if (!pgUrl) console.warn('Insights on PostgreSQL skipped: set PANYA_TEST_PG=postgres://… to run it.');

const STORES: { name: string; open(): Promise<{ store: Store; drop(): Promise<void> }> }[] = [
  { name: 'sqlite', open: async () => ({ store: openSqliteStore({ path: ':memory:' }), drop: async () => {} }) },
  ...(pgUrl
    ? [
        {
          name: 'postgres',
          open: async () => {
            const schema = `panya_insights_${randomBytes(6).toString('hex')}`;
            const store = await openPostgresStore({ connectionString: pgUrl, schema });
            return { store, drop: async () => void (await store.pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)) };
          },
        },
      ]
    : []),
];

const ARTICLES = [
  { title: 'Refund policy', contentMd: '# Refunds\n\nRefunds are issued within 14 days of purchase.' },
  { title: 'Shipping times', contentMd: '# Shipping\n\nShipping to Bangkok takes 1-2 days. Shipping to Chiang Mai takes 2-3 days.' },
  { title: 'Payment methods', contentMd: '# Payment methods\n\nWe accept Visa and Mastercard credit cards, and bank transfer at checkout.' },
  { title: 'นโยบายการคืนเงิน', contentMd: 'คืนเงินภายใน 14 วันหลังการสั่งซื้อ' },
  { title: 'เวลาเปิดร้าน', contentMd: 'ร้านสาขาสยามเปิดทุกวัน เวลา 10:00 ถึง 20:00 น.' },
];

const ANSWERABLE = ['How long do refunds take?', 'How long does shipping to Bangkok take?', 'Which credit cards do you accept?', 'คืนเงินภายในกี่วัน', 'ร้านสาขาสยามเปิดกี่โมง'];
const APPLE_PAY = ['Can I pay with Apple Pay?', 'Do you accept Apple Pay?', 'Is Apple Pay accepted?', 'Apple Pay payment possible?', 'Can I use Apple Pay to pay?'];
const PARKING = ['ร้านมีที่จอดรถไหม', 'ที่จอดรถของร้านอยู่ตรงไหน', 'จอดรถที่ร้านได้ไหมคะ', 'ร้านมีที่จอดรถให้ลูกค้าไหม', 'มีที่จอดรถที่ร้านหรือเปล่า'];
const EMAIL = 'somchai.k@example.co.th';
const THAI_ID = '1101700203166';

function parseSse(body: string): EventSourceMessage[] {
  const events: EventSourceMessage[] = [];
  createParser({ onEvent: (e) => events.push(e) }).feed(body);
  return events;
}

describe.each(STORES)('insights on $name', { timeout: 180_000 }, (storeCase) => {
  let engine: Engine;
  let app: ReturnType<typeof createPanyaApp>;
  let acme: Awaited<ReturnType<typeof makeTenant>>;
  let drop: () => Promise<void>;
  const docs = new Map<string, string>();

  async function chat(query: string) {
    const res = await request(app)
      .post('/api/chat')
      .set(acme.auth)
      .set('Content-Type', 'application/json')
      .send({ query })
      .buffer(true)
      .parse((r, done) => {
        let text = '';
        r.on('data', (c: Buffer) => (text += c.toString()));
        r.on('end', () => done(null, text));
      })
      .expect(200);
    const events = parseSse(res.body as string);
    const meta = JSON.parse(events[0]!.data) as { conversationId: string; messageId: string };
    const citations = events.filter((e) => e.event === 'citation').map((e) => JSON.parse(e.data) as { chunkId: string; documentId: string });
    return { ...meta, citations, done: JSON.parse(events.at(-1)!.data) as { grounded: boolean } };
  }

  /** Reads the gaps until a computation newer than `after` is there (the read starts the job). */
  async function computedGaps(after: string | null = null) {
    for (;;) {
      const res = await request(app).get('/api/insights/gaps?period=30d').set(acme.auth).expect(200);
      if (res.body.computedAt && res.body.computedAt !== after) return res.body;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  beforeAll(async () => {
    const opened = await storeCase.open();
    drop = opened.drop;
    engine = createEngine({ store: opened.store });
    app = createPanyaApp(engine);
    acme = await makeTenant(engine, 'acme', ['read', 'write', 'mcp', 'admin'], 'enterprise');
    for (const a of ARTICLES) docs.set(a.title, (await request(app).post('/api/docs?wait=true').set(acme.auth).send(a).expect(201)).body.id);
  });
  afterAll(async () => {
    await engineInternals(engine).worker.stop();
    await drop();
    await engine.close();
  });

  it('groups 200 chat turns’ unanswerable questions into an English and a Thai gap, masked', async () => {
    // Five earlier Apple Pay questions, 40 days ago: the previous period of the 30-day window.
    const { store } = engineInternals(engine);
    const scope = { tenantId: acme.tenant.id, workspaceId: acme.defaultWorkspace.id };
    for (let i = 0; i < 5; i++) {
      await store.questions.record({ id: `qst_0000000000${i}`, ...scope, question: APPLE_PAY[i]!, source: 'chat', outcome: 'refused', topScore: null, groundedSentences: 0, sentences: 1, conversationId: null, messageId: null, citations: [], thumbsDown: false, handedOff: false, createdAt: new Date(Date.now() - 40 * 86_400_000).toISOString() });
    }
    const turns: string[] = [];
    for (let i = 0; i < 150; i++) turns.push(ANSWERABLE[i % ANSWERABLE.length]!);
    for (let i = 0; i < 25; i++) turns.push(APPLE_PAY[i % APPLE_PAY.length]!);
    for (let i = 0; i < 25; i++) turns.push(PARKING[i % PARKING.length]!);
    // The last of each gap carries personal data, so it is among the examples shown.
    turns[174] = `Can I pay with Apple Pay? My e-mail is ${EMAIL}`;
    turns[199] = `ร้านมีที่จอดรถไหม เลขบัตรประชาชน ${THAI_ID}`;
    const grounded = new Map<string, boolean>();
    for (const query of turns) grounded.set(query, (await chat(query)).done.grounded);
    for (const q of ANSWERABLE) expect(grounded.get(q), q).toBe(true);
    for (const q of [...APPLE_PAY, ...PARKING]) expect(grounded.get(q), q).toBe(false);

    const gaps = await computedGaps();
    expect(gaps.period).toBe('30d');
    expect(gaps.questions).toBe(50);
    const [first, second] = gaps.data;
    const english = [first, second].find((g) => g.terms.includes('appl'));
    const thai = [first, second].find((g) => g.terms.includes('จอด'));
    expect(english).toMatchObject({ count: 25, previousCount: 5, trend: 'up', reasons: { refused: 25 } });
    expect(thai).toMatchObject({ count: 25, previousCount: 0, trend: 'new', reasons: { refused: 25 } });
    expect(english.nearestDocument).toMatchObject({ id: docs.get('Payment methods'), title: 'Payment methods' });
    expect(thai.nearestDocument).toMatchObject({ id: docs.get('เวลาเปิดร้าน') });
    expect(english.examples).toHaveLength(3);
    expect(english.examples[0]).toBe('Can I pay with Apple Pay? My e-mail is [EMAIL]');
    expect(thai.examples[0]).toBe('ร้านมีที่จอดรถไหม เลขบัตรประชาชน [THAI_ID]');
    // No curated answer covers it yet.
    expect(english.curatedAnswer).toEqual({ covered: false, id: null });
    expect(JSON.stringify(gaps)).not.toContain(EMAIL);
    expect(JSON.stringify(gaps)).not.toContain(THAI_ID);
    // Masked before it is stored, not only when shown.
    const logged = await store.questions.gapQuestions(scope, { since: '2000-01-01T00:00:00.000Z', until: '2100-01-01T00:00:00.000Z' }, { limit: 1000 });
    expect(logged.some((q) => q.question.includes('[EMAIL]'))).toBe(true);
    expect(JSON.stringify(logged)).not.toContain(EMAIL);
    expect(JSON.stringify(logged)).not.toContain(THAI_ID);

    // A fresh computation is served as is: no recomputation is asked for.
    const again = await request(app).get('/api/insights/gaps?period=30d').set(acme.auth).expect(200);
    expect(again.body).toMatchObject({ computedAt: gaps.computedAt, stale: false, recomputing: false });
  });

  it("tells whether one of the workspace's curated answers covers a gap", async () => {
    const { store } = engineInternals(engine);
    const curated = await request(app)
      .post('/api/curated-answers')
      .set(acme.auth)
      .send({ question: 'Can I pay with Apple Pay?', paraphrases: ['Do you accept Apple Pay?'], answer: 'Not yet: cards, PromptPay and cash.', origin: 'gap', originRef: 'apple-pay' })
      .expect(201);
    try {
      const before = (await request(app).get('/api/insights/gaps?period=30d').set(acme.auth).expect(200)).body.computedAt as string;
      await store.questions.requestGaps({ tenantId: acme.tenant.id, workspaceId: acme.defaultWorkspace.id }, '30d', new Date().toISOString(), new Date().toISOString());
      let summary = await engine.jobs.run('content-gaps', {});
      while (summary._unsafeUnwrap().ran === false) summary = await engine.jobs.run('content-gaps', {});
      const gaps = await computedGaps(before);
      expect(gaps.data.find((g: { terms: string[] }) => g.terms.includes('appl')).curatedAnswer).toEqual({ covered: true, id: curated.body.id });
      expect(gaps.data.find((g: { terms: string[] }) => g.terms.includes('จอด')).curatedAnswer).toEqual({ covered: false, id: null });
    } finally {
      await request(app).delete(`/api/curated-answers/${curated.body.id}`).set(acme.auth).expect(200);
    }
  });

  it('lists a thumbs-down with the chunks it cited, per document, until an edit addresses it', async () => {
    const answer = await chat('How long do refunds take?');
    expect(answer.citations.length).toBeGreaterThan(0);
    await request(app).post(`/api/messages/${answer.messageId}/feedback`).set(acme.auth).send({ rating: 'down', comment: 'I paid by cash, write to somchai@example.co.th' }).expect(200);
    const other = await chat('How long does shipping to Bangkok take?');
    await request(app).post(`/api/messages/${other.messageId}/feedback`).set(acme.auth).send({ rating: 'up' }).expect(200);

    const down = (await request(app).get('/api/feedback?rating=down').set(acme.auth).expect(200)).body;
    expect(down.data).toHaveLength(1);
    const refundDoc = docs.get('Refund policy')!;
    expect(down.data[0]).toMatchObject({ messageId: answer.messageId, conversationId: answer.conversationId, rating: 'down', comment: 'I paid by cash, write to [EMAIL]', question: 'How long do refunds take?', addressedByEdit: false });
    expect(down.data[0].citations.map((c: { chunkId: string }) => c.chunkId)).toEqual(answer.citations.map((c) => c.chunkId));
    expect(down.data[0].citations[0]).toMatchObject({ documentId: refundDoc, addressedByEdit: false });
    // Filters: comment, document, period; a cursor pages.
    expect((await request(app).get('/api/feedback?hasComment=false').set(acme.auth).expect(200)).body.data.map((f: { messageId: string }) => f.messageId)).toEqual([other.messageId]);
    expect((await request(app).get(`/api/feedback?documentId=${refundDoc}&period=7d`).set(acme.auth).expect(200)).body.data).toHaveLength(1);
    const page = (await request(app).get('/api/feedback?limit=1').set(acme.auth).expect(200)).body;
    expect(page).toMatchObject({ hasMore: true });
    const rest = (await request(app).get(`/api/feedback?limit=1&cursor=${page.nextCursor}`).set(acme.auth).expect(200)).body;
    expect(rest.data[0].id).not.toBe(page.data[0].id);
    // Bad filters change nothing and say which field.
    const bad = await request(app).get('/api/feedback?rating=meh').set(acme.auth).expect(400);
    expect(bad.headers['content-type']).toMatch(/application\/problem\+json/);
    await request(app).get('/api/feedback?cursor=bm9wZQ').set(acme.auth).expect(400);
    await request(app).get('/api/insights/gaps?period=1y').set(acme.auth).expect(400);

    const perDoc = (await request(app).get(`/api/docs/${refundDoc}/feedback`).set(acme.auth).expect(200)).body;
    expect(perDoc).toMatchObject({ documentId: refundDoc, negative: 1 });
    expect(perDoc.chunks[0]).toMatchObject({ chunkId: answer.citations[0]!.chunkId, negative: 1, addressed: 0, current: true });
    expect(perDoc.chunks[0].text).toContain('14 days');
    await request(app).get('/api/docs/doc_missing/feedback').set(acme.auth).expect(404);

    // An edit of the document's text addresses the feedback given on its earlier version.
    await request(app).patch(`/api/docs/${refundDoc}`).set(acme.auth).send({ contentMd: '# Refunds\n\nRefunds are issued within 14 days; cash purchases are refunded in store.' }).expect(200);
    const after = (await request(app).get('/api/feedback?rating=down').set(acme.auth).expect(200)).body;
    expect(after.data[0]).toMatchObject({ addressedByEdit: true });
    expect(after.data[0].citations[0].addressedAt).toEqual(expect.any(String));
    expect((await request(app).get(`/api/docs/${refundDoc}/feedback`).set(acme.auth).expect(200)).body.chunks[0]).toMatchObject({ addressed: 1, current: false });
    // The thumbed-down question is a gap.
    const { store } = engineInternals(engine);
    const flagged = await store.questions.byMessage({ tenantId: acme.tenant.id, workspaceId: acme.defaultWorkspace.id }, answer.messageId);
    expect(flagged).toMatchObject({ thumbsDown: true, outcome: 'answered' });
  });
});
