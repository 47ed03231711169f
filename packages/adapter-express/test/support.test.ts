import { createParser, type EventSourceMessage } from 'eventsource-parser';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countResolutions, createEngine, MAX_LONG_POLLS_PER_KEY, type Engine } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { createPanyaApp } from '@panya/adapter-express';
import { makeTenant } from './helpers.js';
import { engineInternals } from '@panya/core/testing';

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
    // Each listed conversation carries its opening question, to tell them apart.
    expect(list.data.map((c: { firstQuestion: string }) => c.firstQuestion)).toEqual(['How long do refunds take?', 'How long does shipping to Bangkok take?']);

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

describe('long-polls per key', () => {
  it(`one key holds at most ${MAX_LONG_POLLS_PER_KEY} waiting long-polls (429); another key still waits; a new message frees them all`, async () => {
    const acme = await tenantWithArticles('acme');
    const first = await chat(acme.auth, { query: 'How long does shipping to Bangkok take?' });
    const messages = (await request(app).get(`/api/conversations/${first.conversationId}/messages`).set(acme.auth).expect(200)).body.data as { id: string }[];
    const after = messages.at(-1)!.id;
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/api/conversations/${first.conversationId}/poll?after=${after}&timeout=25`;
    const other = (await engine.apiKeys.create(acme.tenant.id, { scopes: ['read'] }))._unsafeUnwrap().key;
    const poll = (auth: Record<string, string>) => fetch(url, { headers: auth });
    try {
      const sent = Array.from({ length: MAX_LONG_POLLS_PER_KEY + 1 }, () => poll(acme.auth));
      // The one over the limit is answered at once, while the others wait for a message.
      const refused = await Promise.race(sent);
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { detail: string }).detail).toMatch(/long-polls/);
      const otherKey = poll({ Authorization: `Bearer ${other}` });
      await chat(acme.auth, { query: 'and to other provinces?', conversationId: first.conversationId });
      const statuses = await Promise.all(sent.map(async (r) => (await r).status));
      expect(statuses.filter((s) => s === 200)).toHaveLength(MAX_LONG_POLLS_PER_KEY);
      expect(statuses.filter((s) => s === 429)).toHaveLength(1);
      expect((await otherKey).status).toBe(200);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  }, 60_000);
});

describe('feedback on answers', () => {
  it('a thumbs-down disqualifies the whole conversation and removes a resolution already counted; a later thumbs-up does not undo it', async () => {
    const acme = await tenantWithArticles('acme');
    const liked = await chat(acme.auth, { query: 'How long does shipping to Bangkok take?' });
    const disliked = await chat(acme.auth, { query: 'How long do refunds take?' });
    const period = new Date(now).toISOString().slice(0, 7);
    const counted = () => countResolutions(engineInternals(engine).store, acme.tenant.id, period);
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
    expect((await engineInternals(engine).store.resolutions.list(acme.tenant.id)).map((r) => r.conversationId)).toEqual([liked.conversationId]);

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

describe('tickets, SLA and the inbox', () => {
  it('walks the loop: thumbs-down shows in the inbox, becomes a ticket, is commented, closed, reopened, and its SLA breach is marked once', async () => {
    const acme = await tenantWithArticles('acme');
    const turn = await chat(acme.auth, { query: 'How long do refunds take?' });
    await request(app).post(`/api/messages/${turn.messageId}/feedback`).set(acme.auth).send({ rating: 'down' }).expect(200);

    const inbox = (await request(app).get('/api/inbox').set(acme.auth).expect(200)).body;
    expect(inbox.data).toEqual([expect.objectContaining({ reason: 'thumbs_down', kind: 'conversation', id: turn.conversationId, title: 'How long do refunds take?' })]);

    const created = await request(app).post('/api/tickets').set(acme.auth).send({ subject: 'Refund is late', body: 'The answer did not help.', priority: 'high', conversationId: turn.conversationId }).expect(201);
    const ticket = created.body;
    expect(created.headers.location).toBe(`/api/tickets/${ticket.id}`);
    expect(ticket).toMatchObject({ status: 'open', priority: 'high', conversationId: turn.conversationId, breachedAt: null, closedAt: null });
    expect(ticket.dueAt).toBe(new Date(now + 4 * 3_600_000).toISOString()); // high: 4 hours
    expect((await request(app).get(`/api/conversations/${turn.conversationId}`).set(acme.auth).expect(200)).body).toMatchObject({ status: 'handed_off', handedOff: true });
    expect((await request(app).get('/api/conversations?status=handed_off').set(acme.auth).expect(200)).body.data.map((c: { id: string }) => c.id)).toEqual([turn.conversationId]);
    // The conversation is now the ticket's: the inbox shows the ticket only.
    expect((await request(app).get('/api/inbox').set(acme.auth).expect(200)).body.data).toEqual([expect.objectContaining({ reason: 'open_ticket', kind: 'ticket', id: ticket.id, ticketId: ticket.id, conversationId: turn.conversationId, priority: 'high', title: 'Refund is late' })]);

    const comment = (await request(app).post(`/api/tickets/${ticket.id}/comment`).set(acme.auth).send({ body: 'Refund issued manually.' }).expect(201)).body;
    expect(comment).toMatchObject({ ticketId: ticket.id, body: 'Refund issued manually.' });
    expect(comment.author).toMatch(/^key_/);
    now += 60_000;
    const closed = (await request(app).post(`/api/tickets/${ticket.id}/close`).set(acme.auth).expect(200)).body;
    expect(closed).toMatchObject({ status: 'closed', closedAt: new Date(now).toISOString(), comments: [{ id: comment.id }] });
    expect((await request(app).post(`/api/tickets/${ticket.id}/close`).set(acme.auth).expect(409)).body.code).toBe('conflict');
    expect((await request(app).get('/api/inbox').set(acme.auth).expect(200)).body.data).toEqual([]);
    expect((await request(app).get('/api/tickets?status=open').set(acme.auth).expect(200)).body.data).toEqual([]);

    now += 60_000;
    const reopened = (await request(app).post(`/api/tickets/${ticket.id}/reopen`).set(acme.auth).expect(200)).body;
    expect(reopened).toMatchObject({ status: 'open', closedAt: null, dueAt: new Date(now + 4 * 3_600_000).toISOString() });
    await request(app).post(`/api/tickets/${ticket.id}/reopen`).set(acme.auth).expect(409);

    const cron = () => request(app).get('/api/cron/sla-breach').set('Authorization', `Bearer ${SECRET}`).expect(200);
    expect((await cron()).body).toMatchObject({ job: 'sla-breach', ran: true, scope: 'tenant-wide', breached: 0, tickets: [] });
    now += 4 * 3_600_000 + 1;
    const marked = (await cron()).body;
    expect(marked).toMatchObject({ breached: 1, tickets: [{ id: ticket.id, tenantId: acme.tenant.id, priority: 'high', breachedAt: new Date(now).toISOString() }] });
    expect((await cron()).body).toMatchObject({ breached: 0, tickets: [] });
    expect((await request(app).get(`/api/tickets/${ticket.id}`).set(acme.auth).expect(200)).body).toMatchObject({ breachedAt: new Date(now).toISOString(), comments: [{ id: comment.id }] });
    expect((await request(app).get('/api/inbox').set(acme.auth).expect(200)).body.data).toEqual([expect.objectContaining({ reason: 'sla_breach', id: ticket.id })]);
    expect((await request(app).get('/api/inbox?reason=open_ticket,thumbs_down').set(acme.auth).expect(200)).body.data).toEqual([]);
  });

  it('a ticket on a conversation removes its counted resolution; tickets are listed, filtered and confined to their workspace', async () => {
    const acme = await tenantWithArticles('acme');
    const globex = await makeTenant(engine, 'globex');
    const turn = await chat(acme.auth, { query: 'How long does shipping to Bangkok take?' });
    now += 31 * 60_000;
    await request(app).get('/api/cron/resolutions').set('Authorization', `Bearer ${SECRET}`).expect(200);
    const period = new Date(now).toISOString().slice(0, 7);
    expect(await countResolutions(engineInternals(engine).store, acme.tenant.id, period)).toBe(1);
    const fromChat = (await request(app).post('/api/tickets').set(acme.auth).send({ subject: 'Call me', body: 'Please call.', conversationId: turn.conversationId }).expect(201)).body;
    expect(fromChat.dueAt).toBe(new Date(now + 24 * 3_600_000).toISOString()); // normal: 24 hours
    expect(await countResolutions(engineInternals(engine).store, acme.tenant.id, period)).toBe(0);
    const urgent = (await request(app).post('/api/tickets').set(acme.auth).send({ subject: 'Site down', body: 'Checkout fails.', priority: 'urgent' }).expect(201)).body;
    expect(urgent.dueAt).toBe(new Date(now + 3_600_000).toISOString());

    const all = (await request(app).get('/api/tickets').set(acme.auth).expect(200)).body;
    expect(all.data.map((t: { id: string }) => t.id)).toEqual([urgent.id, fromChat.id]);
    expect((await request(app).get('/api/tickets?priority=urgent').set(acme.auth).expect(200)).body.data.map((t: { id: string }) => t.id)).toEqual([urgent.id]);
    const first = (await request(app).get('/api/tickets?limit=1').set(acme.auth).expect(200)).body;
    expect((await request(app).get(`/api/tickets?limit=1&cursor=${first.nextCursor}`).set(acme.auth).expect(200)).body.data.map((t: { id: string }) => t.id)).toEqual([fromChat.id]);
    await request(app).get('/api/tickets?priority=p1').set(acme.auth).expect(400);
    await request(app).post('/api/tickets').set(acme.auth).send({ subject: '', body: 'x' }).expect(400);

    // Another tenant: nothing to see, nothing to touch, and its conversation ids are unknown here.
    await request(app).get(`/api/tickets/${urgent.id}`).set(globex.auth).expect(404);
    await request(app).post(`/api/tickets/${urgent.id}/close`).set(globex.auth).expect(404);
    await request(app).post(`/api/tickets/${urgent.id}/comment`).set(globex.auth).send({ body: 'hi' }).expect(404);
    await request(app).post('/api/tickets').set(globex.auth).send({ subject: 'x', body: 'y', conversationId: turn.conversationId }).expect(404);
    expect((await request(app).get('/api/tickets').set(globex.auth).expect(200)).body.data).toEqual([]);
    await request(app).post('/api/workspaces').set(acme.auth).send({ slug: 'second', name: 'Second' }).expect(201);
    expect((await request(app).get('/c/acme/_w/second/api/tickets').set(acme.auth).expect(200)).body.data).toEqual([]);
    expect((await request(app).get('/c/acme/api/tickets').set(acme.auth).expect(200)).body.data).toHaveLength(2);
    await request(app).get(`/c/acme/_w/second/api/tickets/${urgent.id}`).set(acme.auth).expect(404);
    await request(app).get('/api/inbox?reason=nope').set(acme.auth).expect(400);
  });
});

describe('personas', () => {
  it('are workspace-scoped CRUD; a new workspace has none; answer and chat take personaId and answer in its locale', async () => {
    const acme = await tenantWithArticles('acme');
    expect((await request(app).get('/api/personas').set(acme.auth).expect(200)).body).toEqual({ data: [], hasMore: false, nextCursor: null });
    const created = await request(app).post('/api/personas').set(acme.auth).send({ name: 'Nok', tone: 'warm and polite', instructions: 'Address the customer as khun.', locale: 'th' }).expect(201);
    const persona = created.body;
    expect(created.headers.location).toBe(`/api/personas/${persona.id}`);
    expect(persona).toMatchObject({ name: 'Nok', tone: 'warm and polite', locale: 'th' });
    expect((await request(app).get(`/api/personas/${persona.id}`).set(acme.auth).expect(200)).body).toEqual(persona);

    const plain = (await request(app).post('/api/answer').set(acme.auth).send({ query: 'How long do refunds take?' }).expect(200)).body;
    expect(plain.locale).toBe('en');
    expect(plain.answer).toContain('7 business days');
    const voiced = (await request(app).post('/api/answer').set(acme.auth).send({ query: 'How long do refunds take?', personaId: persona.id }).expect(200)).body;
    expect(voiced).toMatchObject({ locale: 'th', grounded: true });
    // Written for a Thai reader: in Thai, or led in Thai when the knowledge base holds the answer in English only.
    expect(voiced.answer).toMatch(/^[\u0E00-\u0E7F]/);
    expect(voiced.answer).toContain('7 business days');
    expect(plain.answer).not.toMatch(/[\u0E00-\u0E7F]/);
    // The caller's explicit locale still wins.
    expect((await request(app).post('/api/answer').set(acme.auth).send({ query: 'How long do refunds take?', personaId: persona.id, locale: 'en' }).expect(200)).body.locale).toBe('en');
    const chatted = await chat(acme.auth, { query: 'How long do refunds take?', personaId: persona.id });
    expect(chatted.text).toMatch(/^[\u0E00-\u0E7F]/);
    expect((await request(app).get(`/api/conversations/${chatted.conversationId}`).set(acme.auth).expect(200)).body.locale).toBe('th');

    const updated = (await request(app).patch(`/api/personas/${persona.id}`).set(acme.auth).send({ locale: null }).expect(200)).body;
    expect(updated.locale).toBeNull();
    expect((await request(app).post('/api/answer').set(acme.auth).send({ query: 'How long do refunds take?', personaId: persona.id }).expect(200)).body.locale).toBe('en');

    await request(app).post('/api/workspaces').set(acme.auth).send({ slug: 'second', name: 'Second' }).expect(201);
    expect((await request(app).get('/c/acme/_w/second/api/personas').set(acme.auth).expect(200)).body.data).toEqual([]);
    await request(app).post('/c/acme/_w/second/api/answer').set(acme.auth).send({ query: 'refunds', personaId: persona.id }).expect(404);
    await request(app).post('/api/answer').set(acme.auth).send({ query: 'refunds', personaId: 'per_0000000000000000000000' }).expect(404);
    await request(app).post('/api/chat').set(acme.auth).send({ query: 'refunds', personaId: 'per_0000000000000000000000' }).expect(404);
    await request(app).post('/api/answer').set(acme.auth).send({ query: 'refunds', personaId: 'nope' }).expect(400);
    await request(app).post('/api/personas').set(acme.auth).send({ name: '' }).expect(400);
    await request(app).post('/api/personas').set(acme.auth).send({ name: 'X', locale: 'fr' }).expect(400);
    await request(app).delete(`/api/personas/${persona.id}`).set(acme.auth).expect(204);
    await request(app).get(`/api/personas/${persona.id}`).set(acme.auth).expect(404);
  });
});

describe('visitors', () => {
  it('captures contact details on conversations and merges by e-mail within a workspace, never across workspaces or tenants', async () => {
    const acme = await tenantWithArticles('acme');
    const globex = await tenantWithArticles('globex');
    await request(app).post('/api/workspaces').set(acme.auth).send({ slug: 'second', name: 'Second' }).expect(201);
    const first = await chat(acme.auth, { query: 'How long do refunds take?' });
    const second = await chat(acme.auth, { query: 'How long does shipping to Bangkok take?' });
    const elsewhere = await chat(acme.auth, { query: 'refunds' }, '/c/acme/_w/second/api');
    const foreign = await chat(globex.auth, { query: 'refunds' });

    const ann = (await request(app).post(`/api/conversations/${first.conversationId}/visitor`).set(acme.auth).send({ name: 'Ann', email: 'Ann@Example.com' }).expect(200)).body;
    expect(ann).toMatchObject({ name: 'Ann', email: 'ann@example.com' });
    const anonymous = (await request(app).post(`/api/conversations/${second.conversationId}/visitor`).set(acme.auth).send({ name: 'A. Smith' }).expect(200)).body;
    expect(anonymous.id).not.toBe(ann.id);
    // The same e-mail later in the second conversation: one visitor with both conversations.
    const merged = (await request(app).post(`/api/conversations/${second.conversationId}/visitor`).set(acme.auth).send({ email: 'ann@example.com' }).expect(200)).body;
    expect(merged).toMatchObject({ id: ann.id, name: 'Ann', email: 'ann@example.com' });
    await request(app).get(`/api/visitors/${anonymous.id}`).set(acme.auth).expect(404);
    const visitor = (await request(app).get(`/api/visitors/${ann.id}`).set(acme.auth).expect(200)).body;
    expect(visitor.conversationIds.sort()).toEqual([first.conversationId, second.conversationId].sort());
    expect((await request(app).get('/api/visitors').set(acme.auth).expect(200)).body.data.map((v: { id: string }) => v.id)).toEqual([ann.id]);
    expect((await request(app).get('/api/visitors?email=ANN@example.com').set(acme.auth).expect(200)).body.data.map((v: { id: string }) => v.id)).toEqual([ann.id]);

    // Other workspace, other tenant: the same e-mail is someone else's record there.
    const annTwo = (await request(app).post(`/c/acme/_w/second/api/conversations/${elsewhere.conversationId}/visitor`).set(acme.auth).send({ email: 'ann@example.com' }).expect(200)).body;
    const annThree = (await request(app).post(`/api/conversations/${foreign.conversationId}/visitor`).set(globex.auth).send({ email: 'ann@example.com' }).expect(200)).body;
    expect(new Set([ann.id, annTwo.id, annThree.id]).size).toBe(3);
    expect((await request(app).get(`/api/visitors/${ann.id}`).set(acme.auth).expect(200)).body.conversationIds).toHaveLength(2);
    await request(app).get(`/c/acme/_w/second/api/visitors/${ann.id}`).set(acme.auth).expect(404);
    await request(app).get(`/api/visitors/${ann.id}`).set(globex.auth).expect(404);
    await request(app).post(`/api/conversations/${first.conversationId}/visitor`).set(globex.auth).send({ email: 'x@example.com' }).expect(404);

    // A ticket from the conversation belongs to its visitor.
    const ticket = (await request(app).post('/api/tickets').set(acme.auth).send({ subject: 'Refund', body: 'Where is it?', conversationId: first.conversationId }).expect(201)).body;
    expect(ticket.visitorId).toBe(ann.id);
    await request(app).post(`/api/conversations/${first.conversationId}/visitor`).set(acme.auth).send({ email: 'not-an-email' }).expect(400);
    await request(app).post(`/api/conversations/${first.conversationId}/visitor`).set(acme.auth).send({}).expect(400);
    await request(app).post('/api/tickets').set(acme.auth).send({ subject: 'x', body: 'y', visitorId: annTwo.id }).expect(404);
  });
});

describe('customers', () => {
  it('are workspace-scoped records; visitors at a customer\'s e-mail domain belong to it, in its workspace only', async () => {
    const acme = await tenantWithArticles('acme');
    const globex = await makeTenant(engine, 'globex');
    await request(app).post('/api/workspaces').set(acme.auth).send({ slug: 'second', name: 'Second' }).expect(201);
    const first = await chat(acme.auth, { query: 'How long do refunds take?' });
    const second = await chat(acme.auth, { query: 'How long does shipping to Bangkok take?' });
    const elsewhere = await chat(acme.auth, { query: 'refunds' }, '/c/acme/_w/second/api');
    const ann = (await request(app).post(`/api/conversations/${first.conversationId}/visitor`).set(acme.auth).send({ email: 'ann@initech.co.th' }).expect(200)).body;
    const bob = (await request(app).post(`/api/conversations/${second.conversationId}/visitor`).set(acme.auth).send({ email: 'bob@mail.initech.co.th' }).expect(200)).body;
    await request(app).post(`/c/acme/_w/second/api/conversations/${elsewhere.conversationId}/visitor`).set(acme.auth).send({ email: 'cat@initech.co.th' }).expect(200);

    expect((await request(app).get('/api/customers').set(acme.auth).expect(200)).body).toEqual({ data: [], hasMore: false, nextCursor: null });
    // The domain is typed as people type it: with an "@", in capitals; it is stored in its canonical form.
    const created = await request(app).post('/api/customers').set(acme.auth).send({ name: 'Initech', domain: '@Initech.co.th', externalId: 'hubspot-42' }).expect(201);
    const initech = created.body;
    expect(created.headers.location).toBe(`/api/customers/${initech.id}`);
    expect(initech).toMatchObject({ name: 'Initech', domain: 'initech.co.th', externalId: 'hubspot-42', notes: '' });
    expect(initech).not.toHaveProperty('tenantId');
    const read = (await request(app).get(`/api/customers/${initech.id}`).set(acme.auth).expect(200)).body;
    expect(read).toEqual({ ...initech, visitors: [expect.objectContaining({ id: ann.id, email: 'ann@initech.co.th' })] });

    // A subdomain is its own customer domain; changing the domain changes who belongs, with no back-fill.
    const moved = (await request(app).patch(`/api/customers/${initech.id}`).set(acme.auth).send({ domain: 'mail.initech.co.th', notes: 'Renewal in May' }).expect(200)).body;
    expect(moved).toMatchObject({ domain: 'mail.initech.co.th', notes: 'Renewal in May', externalId: 'hubspot-42' });
    expect((await request(app).get(`/api/customers/${initech.id}`).set(acme.auth).expect(200)).body.visitors.map((v: { id: string }) => v.id)).toEqual([bob.id]);
    await request(app).patch(`/api/customers/${initech.id}`).set(acme.auth).send({ domain: 'initech.co.th' }).expect(200);

    // Unique per workspace: a second customer with the domain or external id is a 409 and writes nothing.
    const dup = await request(app).post('/api/customers').set(acme.auth).send({ name: 'Initech again', domain: 'initech.co.th' }).expect(409);
    expect(dup.headers['content-type']).toMatch(/application\/problem\+json/);
    await request(app).post('/api/customers').set(acme.auth).send({ name: 'Initech again', externalId: 'hubspot-42' }).expect(409);
    const umbrella = (await request(app).post('/api/customers').set(acme.auth).send({ name: 'Umbrella' }).expect(201)).body;
    await request(app).patch(`/api/customers/${umbrella.id}`).set(acme.auth).send({ externalId: 'hubspot-42' }).expect(409);
    expect((await request(app).get('/api/customers').set(acme.auth).expect(200)).body.data.map((c: { id: string }) => c.id)).toEqual([umbrella.id, initech.id]);
    expect((await request(app).get('/api/customers?domain=INITECH.co.th').set(acme.auth).expect(200)).body.data.map((c: { id: string }) => c.id)).toEqual([initech.id]);
    expect((await request(app).get('/api/customers?externalId=hubspot-42').set(acme.auth).expect(200)).body.data.map((c: { id: string }) => c.id)).toEqual([initech.id]);
    const page = (await request(app).get('/api/customers?limit=1').set(acme.auth).expect(200)).body;
    expect(page).toMatchObject({ hasMore: true, data: [{ id: umbrella.id }] });
    expect((await request(app).get(`/api/customers?limit=1&cursor=${page.nextCursor}`).set(acme.auth).expect(200)).body.data.map((c: { id: string }) => c.id)).toEqual([initech.id]);

    // Bad input: 400 naming the field; nothing written.
    const refusals: [object, string][] = [
      [{ name: '' }, 'name'],
      [{ name: 'X', domain: 'co.th' }, 'public suffix'],
      [{ name: 'X', domain: 'ann@initech.co.th' }, 'domain only'],
      [{ name: 'X', domain: 'http://x.com' }, 'domain only'],
      [{ name: 'X', tier: 'gold' }, 'tier'],
    ];
    for (const [body, named] of refusals) {
      const res = await request(app).post('/api/customers').set(acme.auth).send(body).expect(400);
      expect(JSON.stringify(res.body.errors), JSON.stringify(body)).toContain(named);
    }
    await request(app).patch(`/api/customers/${initech.id}`).set(acme.auth).send({}).expect(400);
    expect((await request(app).get('/api/customers').set(acme.auth).expect(200)).body.data).toHaveLength(2);

    // Another workspace, another tenant: the same domain is someone else's record, and ids do not cross.
    const there = (await request(app).post('/c/acme/_w/second/api/customers').set(acme.auth).send({ name: 'Initech', domain: 'initech.co.th', externalId: 'hubspot-42' }).expect(201)).body;
    expect((await request(app).get(`/c/acme/_w/second/api/customers/${there.id}`).set(acme.auth).expect(200)).body.visitors.map((v: { email: string }) => v.email)).toEqual(['cat@initech.co.th']);
    await request(app).get(`/c/acme/_w/second/api/customers/${initech.id}`).set(acme.auth).expect(404);
    await request(app).get(`/api/customers/${initech.id}`).set(globex.auth).expect(404);
    await request(app).patch(`/api/customers/${initech.id}`).set(globex.auth).send({ name: 'Mine' }).expect(404);
    await request(app).delete(`/api/customers/${initech.id}`).set(globex.auth).expect(404);
    expect((await request(app).get('/api/customers').set(globex.auth).expect(200)).body.data).toEqual([]);

    // Reading needs `read`, changing needs `write`.
    const reader = (await engine.apiKeys.create(acme.tenant.id, { scopes: ['read'] }))._unsafeUnwrap().key;
    await request(app).get(`/api/customers/${initech.id}`).set({ Authorization: `Bearer ${reader}` }).expect(200);
    await request(app).post('/api/customers').set({ Authorization: `Bearer ${reader}` }).send({ name: 'Nope' }).expect(403);

    await request(app).delete(`/api/customers/${initech.id}`).set(acme.auth).expect(204);
    await request(app).get(`/api/customers/${initech.id}`).set(acme.auth).expect(404);
    // The visitors stay: they were never the customer's rows.
    await request(app).get(`/api/visitors/${ann.id}`).set(acme.auth).expect(200);
  });
});
