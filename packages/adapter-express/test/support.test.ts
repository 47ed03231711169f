import { createParser, type EventSourceMessage } from 'eventsource-parser';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countResolutions, createEngine, type Engine } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { createPanyaApp } from '@panya/adapter-express';
import { makeTenant } from './helpers.js';

/*
 * The support loop over HTTP: chat → conversation with its messages → CSAT → thumbs-down →
 * inbox → ticket → comment, close, reopen → SLA breach; personas; visitors.
 */

const SECRET = 'cron-secret-for-tests';
const ARTICLES = [
  { title: 'Shipping times', contentMd: '# Shipping times\n\nOrders to Bangkok arrive within 1-2 business days.\n\nOrders to other provinces arrive within 2-4 business days.' },
  { title: 'Refunds', contentMd: '# Refunds\n\nRefunds are paid back to the original payment method within 7 business days after we receive the item.' },
];

let now: number;
let engine: Engine;
let app: ReturnType<typeof createPanyaApp>;

beforeEach(() => {
  now = Date.parse('2030-03-01T09:00:00.000Z');
  engine = createEngine({ store: openSqliteStore({ path: ':memory:' }), clock: { now: () => new Date(now) } });
  app = createPanyaApp(engine, { cronSecret: SECRET, secureCookies: false });
});
afterEach(async () => {
  await engine.close();
});

async function tenantWithArticles(slug: string) {
  const tenant = await makeTenant(engine, slug);
  for (const a of ARTICLES) await request(app).post('/api/docs?wait=true').set(tenant.auth).send(a).expect(201);
  return tenant;
}

function parseSse(body: string): EventSourceMessage[] {
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (e) => events.push(e) });
  parser.feed(body);
  return events;
}

/** One chat turn; returns the conversation id, the answer's message id and the answer text. */
async function chat(auth: Record<string, string>, body: object, base = '/api') {
  const res = await request(app)
    .post(`${base}/chat`)
    .set(auth)
    .set('Content-Type', 'application/json')
    .send(body)
    .buffer(true)
    .parse((r, done) => {
      let text = '';
      r.on('data', (c: Buffer) => (text += c.toString()));
      r.on('end', () => done(null, text));
    })
    .expect(200);
  const events = parseSse(res.body as string);
  const meta = JSON.parse(events[0]!.data) as { conversationId: string; messageId: string };
  const text = events.filter((e) => e.event === 'delta').map((e) => JSON.parse(e.data).text).join('');
  return { ...meta, text, done: JSON.parse(events.at(-1)!.data) };
}

describe('conversations over HTTP', () => {
  it('lists chat conversations with their messages, records CSAT and tags, and filters by status, tag and time', async () => {
    const acme = await tenantWithArticles('acme');
    const first = await chat(acme.auth, { query: 'How long does shipping to Bangkok take?' });
    now += 60_000;
    const second = await chat(acme.auth, { query: 'How long do refunds take?' });

    const list = (await request(app).get('/api/conversations').set(acme.auth).expect(200)).body;
    expect(list).toMatchObject({ hasMore: false, nextCursor: null });
    expect(list.data.map((c: { id: string }) => c.id)).toEqual([second.conversationId, first.conversationId]);
    expect(list.data[0]).toMatchObject({ status: 'open', hasGroundedAnswer: true, hasThumbsDown: false, csat: null, tags: [], visitorId: null });
    expect(list.data[0]).not.toHaveProperty('tenantId');

    const page = (await request(app).get('/api/conversations?limit=1').set(acme.auth).expect(200)).body;
    expect(page).toMatchObject({ hasMore: true, data: [{ id: second.conversationId }] });
    const rest = (await request(app).get(`/api/conversations?limit=1&cursor=${page.nextCursor}`).set(acme.auth).expect(200)).body;
    expect(rest).toMatchObject({ hasMore: false, nextCursor: null, data: [{ id: first.conversationId }] });

    const messages = (await request(app).get(`/api/conversations/${first.conversationId}/messages`).set(acme.auth).expect(200)).body;
    expect(messages.data.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
    expect(messages.data[0]).toMatchObject({ content: 'How long does shipping to Bangkok take?', conversationId: first.conversationId });
    expect(messages.data[1]).toMatchObject({ id: first.messageId, grounded: true, feedback: null });
    expect(messages.data[1].citations.length).toBeGreaterThan(0);
    expect(messages.data[1].content).toContain('1-2 business days');

    const rated = (await request(app).post(`/api/conversations/${first.conversationId}/csat`).set(acme.auth).send({ score: 5, comment: 'Fast!' }).expect(200)).body;
    expect(rated.csat).toEqual({ score: 5, comment: 'Fast!', at: new Date(now).toISOString() });
    await request(app).post(`/api/conversations/${first.conversationId}/csat`).set(acme.auth).send({ score: 6 }).expect(400);
    await request(app).post(`/api/conversations/${first.conversationId}/csat`).set(acme.auth).send({ score: 3.5 }).expect(400);

    expect((await request(app).post(`/api/conversations/${first.conversationId}/tags`).set(acme.auth).send({ tags: ['Shipping', 'vip', 'vip'] }).expect(200)).body).toEqual({ tags: ['shipping', 'vip'] });
    expect((await request(app).delete(`/api/conversations/${first.conversationId}/tags`).set(acme.auth).send({ tags: ['vip'] }).expect(200)).body).toEqual({ tags: ['shipping'] });
    expect((await request(app).get(`/api/conversations/${first.conversationId}/tags`).set(acme.auth).expect(200)).body).toEqual({ tags: ['shipping'] });
    await request(app).post(`/api/conversations/${first.conversationId}/tags`).set(acme.auth).send({ tags: ['<script>'] }).expect(400);
    const many = Array.from({ length: 20 }, (_, i) => `t${i}`);
    const tooMany = await request(app).post(`/api/conversations/${first.conversationId}/tags`).set(acme.auth).send({ tags: many }).expect(422);
    expect(tooMany.body.code).toBe('unprocessable');
    expect((await request(app).get(`/api/conversations/${first.conversationId}/tags`).set(acme.auth).expect(200)).body).toEqual({ tags: ['shipping'] });

    const tagged = (await request(app).get('/api/conversations?tag=SHIPPING').set(acme.auth).expect(200)).body;
    expect(tagged.data.map((c: { id: string }) => c.id)).toEqual([first.conversationId]);
    const since = (await request(app).get(`/api/conversations?since=${encodeURIComponent(new Date(now).toISOString())}`).set(acme.auth).expect(200)).body;
    expect(since.data.map((c: { id: string }) => c.id)).toEqual([second.conversationId]);
    expect((await request(app).get('/api/conversations?status=handed_off').set(acme.auth).expect(200)).body.data).toEqual([]);
    await request(app).get('/api/conversations?status=closed').set(acme.auth).expect(400);
    await request(app).get('/api/conversations?since=yesterday').set(acme.auth).expect(400);
    await request(app).get('/api/conversations?cursor=bm9wZQ').set(acme.auth).expect(400);
  });

  it('keeps conversations to their tenant and workspace at all three addresses', async () => {
    const acme = await tenantWithArticles('acme');
    const globex = await makeTenant(engine, 'globex');
    const { conversationId } = await chat(acme.auth, { query: 'How long do refunds take?' });
    await request(app).post('/api/workspaces').set(acme.auth).send({ slug: 'second', name: 'Second' }).expect(201);

    expect((await request(app).get('/c/acme/api/conversations').set(acme.auth).expect(200)).body.data).toHaveLength(1);
    await request(app).get(`/c/acme/api/conversations/${conversationId}`).set(acme.auth).expect(200);
    expect((await request(app).get('/c/acme/_w/second/api/conversations').set(acme.auth).expect(200)).body.data).toEqual([]);
    await request(app).get(`/c/acme/_w/second/api/conversations/${conversationId}`).set(acme.auth).expect(404);
    await request(app).get(`/c/acme/_w/second/api/conversations/${conversationId}/messages`).set(acme.auth).expect(404);
    expect((await request(app).get('/api/conversations').set(globex.auth).expect(200)).body.data).toEqual([]);
    const foreign = await request(app).get(`/api/conversations/${conversationId}`).set(globex.auth).expect(404);
    expect(foreign.headers['content-type']).toMatch(/application\/problem\+json/);
    await request(app).post(`/api/conversations/${conversationId}/csat`).set(globex.auth).send({ score: 1 }).expect(404);
    await request(app).post(`/api/conversations/${conversationId}/tags`).set(globex.auth).send({ tags: ['x'] }).expect(404);
    await request(app).get('/api/conversations').expect(401);
  });

  it('long-polls for messages after a given one: at once when there are some, woken by a new turn, empty at the timeout', async () => {
    const acme = await tenantWithArticles('acme');
    const first = await chat(acme.auth, { query: 'How long does shipping to Bangkok take?' });
    const messages = (await request(app).get(`/api/conversations/${first.conversationId}/messages`).set(acme.auth).expect(200)).body.data;
    const [question, answer] = messages as { id: string }[];

    const ready = (await request(app).get(`/api/conversations/${first.conversationId}/poll?after=${question!.id}`).set(acme.auth).expect(200)).body;
    expect(ready).toMatchObject({ data: [{ id: answer!.id, role: 'assistant' }], nextCursor: answer!.id });

    const idle = (await request(app).get(`/api/conversations/${first.conversationId}/poll?after=${answer!.id}&timeout=0`).set(acme.auth).expect(200)).body;
    expect(idle).toEqual({ data: [], hasMore: false, nextCursor: answer!.id });

    const waiting = request(app).get(`/api/conversations/${first.conversationId}/poll?after=${answer!.id}&timeout=25`).set(acme.auth);
    const polled = new Promise<request.Response>((resolve, reject) => waiting.end((e, res) => (e ? reject(e) : resolve(res))));
    await new Promise((r) => setTimeout(r, 100));
    await chat(acme.auth, { query: 'and to other provinces?', conversationId: first.conversationId });
    const woken = (await polled).body;
    expect(woken.data[0]).toMatchObject({ role: 'user', content: 'and to other provinces?' });

    await request(app).get(`/api/conversations/${first.conversationId}/poll?after=msg_nope&timeout=0`).set(acme.auth).expect(404);
    await request(app).get(`/api/conversations/${first.conversationId}/poll?timeout=26`).set(acme.auth).expect(400);
  });
});

describe('feedback on answers', () => {
  it('a thumbs-down disqualifies the whole conversation and removes a resolution already counted; a later thumbs-up does not undo it', async () => {
    const acme = await tenantWithArticles('acme');
    const liked = await chat(acme.auth, { query: 'How long does shipping to Bangkok take?' });
    const disliked = await chat(acme.auth, { query: 'How long do refunds take?' });
    const period = new Date(now).toISOString().slice(0, 7);
    const counted = () => countResolutions(engine.store, acme.tenant.id, period);
    // Idle 30 minutes: the detector counts both conversations.
    now += 31 * 60_000;
    await request(app).get('/api/cron/resolutions').set('Authorization', `Bearer ${SECRET}`).expect(200);
    expect(await counted()).toBe(2);

    const up = (await request(app).post(`/api/messages/${liked.messageId}/feedback`).set(acme.auth).send({ rating: 'up' }).expect(200)).body;
    expect(up).toMatchObject({ id: liked.messageId, feedback: { rating: 'up', comment: null } });
    expect(await counted()).toBe(2);
    const down = (await request(app).post(`/api/messages/${disliked.messageId}/feedback`).set(acme.auth).send({ rating: 'down', comment: 'Not what I asked' }).expect(200)).body;
    expect(down.feedback).toMatchObject({ rating: 'down', comment: 'Not what I asked' });
    expect((await request(app).get(`/api/conversations/${disliked.conversationId}`).set(acme.auth).expect(200)).body).toMatchObject({ hasThumbsDown: true });
    expect((await request(app).get(`/api/conversations/${liked.conversationId}`).set(acme.auth).expect(200)).body).toMatchObject({ hasThumbsDown: false });
    expect(await counted()).toBe(1);
    expect((await engine.store.resolutions.list(acme.tenant.id)).map((r) => r.conversationId)).toEqual([liked.conversationId]);

    await request(app).post(`/api/messages/${disliked.messageId}/feedback`).set(acme.auth).send({ rating: 'up' }).expect(200);
    expect((await request(app).get(`/api/conversations/${disliked.conversationId}`).set(acme.auth).expect(200)).body).toMatchObject({ hasThumbsDown: true });
    now += 31 * 60_000;
    await request(app).get('/api/cron/resolutions').set('Authorization', `Bearer ${SECRET}`).expect(200);
    expect(await counted()).toBe(1);
  });

  it('refuses feedback on another tenant\'s message (404), on a question (422) and with a bad rating (400), changing nothing', async () => {
    const acme = await tenantWithArticles('acme');
    const globex = await makeTenant(engine, 'globex');
    const turn = await chat(acme.auth, { query: 'How long do refunds take?' });
    const foreign = await request(app).post(`/api/messages/${turn.messageId}/feedback`).set(globex.auth).send({ rating: 'down' }).expect(404);
    expect(foreign.body).toMatchObject({ code: 'not_found', status: 404 });
    const [question] = (await request(app).get(`/api/conversations/${turn.conversationId}/messages`).set(acme.auth).expect(200)).body.data;
    await request(app).post(`/api/messages/${question.id}/feedback`).set(acme.auth).send({ rating: 'down' }).expect(422);
    await request(app).post(`/api/messages/${turn.messageId}/feedback`).set(acme.auth).send({ rating: 'meh' }).expect(400);
    await request(app).post(`/api/messages/${turn.messageId}/feedback`).set(acme.auth).send({ rating: 'down', extra: 1 }).expect(400);
    const after = (await request(app).get(`/api/conversations/${turn.conversationId}`).set(acme.auth).expect(200)).body;
    expect(after.hasThumbsDown).toBe(false);
    const messages = (await request(app).get(`/api/conversations/${turn.conversationId}/messages`).set(acme.auth).expect(200)).body.data;
    expect(messages.map((m: { feedback: unknown }) => m.feedback)).toEqual([null, null]);
  });
});
