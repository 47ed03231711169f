import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, INLINE_EVAL_QUESTIONS, type Engine } from '@panya/core';
import { createPanyaApp } from '@panya/adapter-express';
import { makeTenant } from './helpers.js';
import { storeCases } from './store-cases.js';

const TOPICS = [
  ['Refunds', 'Refunds are paid back to the original payment method within 7 business days after we receive the returned item.', ['How long do refunds take?', 'when is my money paid back', 'refund to original payment method']],
  ['Shipping times', 'Orders to Bangkok arrive within 1-2 business days; other provinces take 2-4 business days.', ['When do orders to Bangkok arrive?', 'delivery time provinces', 'how fast is delivery']],
  ['Password reset', 'Open Settings, choose Security and press Reset password; a reset link arrives by e-mail.', ['How do I reset my password?', 'forgot password link', 'security settings reset']],
  ['Payment methods', 'We accept PromptPay, credit cards and bank transfer for every order.', ['Which payment methods do you accept?', 'can I pay by PromptPay', 'bank transfer payment']],
  ['Warranty', 'Every device carries a 12-month warranty covering manufacturing defects.', ['How long is the warranty?', 'device defect coverage', 'warranty months']],
  ['Store hours', 'Our Siam store opens from 10:00 to 21:00 every day including holidays.', ['What are the store opening hours?', 'is the Siam store open on holidays', 'store closing time']],
  ['Gift cards', 'Gift cards are valid for three years and can be used online or in store.', ['How long are gift cards valid?', 'use gift card online', 'gift card expiry']],
  ['Account deletion', 'To delete your account, write to privacy@example.com; we erase your data within 30 days.', ['How do I delete my account?', 'erase my personal data', 'privacy request account']],
  ['Loyalty points', 'Members earn one loyalty point per 25 baht spent; points expire after two years.', ['How do loyalty points work?', 'points per baht spent', 'when do points expire']],
  ['International orders', 'We ship to Laos, Cambodia and Malaysia; customs duties are paid by the recipient.', ['Do you ship abroad?', 'customs duties international', 'shipping to Malaysia']],
] as const;

describe.each(storeCases('Evaluation'))('evaluation on $name', (storeCase) => {
  let engine: Engine;
  let drop: () => Promise<void>;
  beforeEach(async () => {
    const opened = await storeCase.open();
    drop = opened.drop;
    engine = createEngine({ store: opened.store });
  });
  afterEach(async () => {
    await engine.close();
    await drop();
  });

  async function setup() {
    const app = createPanyaApp(engine);
    const acme = await makeTenant(engine, 'acme');
    const docs: string[] = [];
    for (const [title, text] of TOPICS) docs.push((await request(app).post('/api/docs?wait=true').set(acme.auth).send({ title, contentMd: `# ${title}\n\n${text}` }).expect(201)).body.id);
    return { app, acme, docs };
  }

  it('a set seeded from curated answers and positive feedback and imported as JSONL; two runs with a weight change; the diff', async () => {
    const { app, acme, docs } = await setup();
    // Seeds: a curated answer with its document, and an answer rated thumbs-up with what it cited.
    await request(app).post('/api/curated-answers').set(acme.auth).send({ question: TOPICS[0][2][0], answer: 'Within 7 business days.', documentIds: [docs[0]] }).expect(201);
    const chat = await request(app).post('/api/chat').set(acme.auth).send({ query: TOPICS[1][2][0] }).expect(200);
    const messageId = /"messageId":"([^"]+)"/.exec(chat.text)![1]!;
    await request(app).post(`/api/messages/${messageId}/feedback`).set(acme.auth).send({ rating: 'up' }).expect(200);

    const created = await request(app).post('/api/eval/sets').set(acme.auth).send({ name: 'Support FAQ', seed: ['curated', 'feedback'] }).expect(201);
    expect(created.headers.location).toBe(`/api/eval/sets/${created.body.id}`);
    expect(created.body.questions.map((q: { source: string }) => q.source).sort()).toEqual(['curated', 'feedback']);
    expect(created.body.questions.find((q: { source: string }) => q.source === 'curated')).toMatchObject({ question: TOPICS[0][2][0], documentIds: [docs[0]] });
    expect(created.body.questions.find((q: { source: string }) => q.source === 'feedback')).toMatchObject({ question: TOPICS[1][2][0] });

    // The other 28 as JSON Lines; a bad line changes nothing and is named.
    const lines = TOPICS.flatMap(([, , questions], t) => questions.map((question, i) => ({ id: `t${t}q${i}`, question, documentIds: [docs[t]] }))).filter((q) => q.id !== 't0q0' && q.id !== 't1q0');
    const bad = await request(app).post(`/api/eval/sets/${created.body.id}/import`).set(acme.auth).send({ jsonl: `${JSON.stringify(lines[0])}\nnot json\n{"question":"x","documentIds":[]}` }).expect(400);
    expect(bad.type).toBe('application/problem+json');
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(['jsonl[2]', 'jsonl[3]']);
    const unknown = await request(app).post(`/api/eval/sets/${created.body.id}/import`).set(acme.auth).send({ jsonl: JSON.stringify({ question: 'x', documentIds: ['doc_nope'] }) }).expect(422);
    expect(unknown.body.errors[0].path).toBe('jsonl[1].documentIds');
    expect((await request(app).get(`/api/eval/sets/${created.body.id}`).set(acme.auth).expect(200)).body.questions).toHaveLength(2);
    const imported = await request(app).post(`/api/eval/sets/${created.body.id}/import`).set(acme.auth).send({ jsonl: lines.map((l) => JSON.stringify(l)).join('\n') }).expect(200);
    expect(imported.body.questions).toHaveLength(30);

    const first = await request(app).post('/api/eval/runs').set(acme.auth).send({ setId: created.body.id }).expect(201);
    expect(first.body).toMatchObject({ status: 'done', previousRunId: null, diff: null });
    expect(first.body.results).toHaveLength(30);
    const m1 = first.body.metrics;
    expect(m1.questions).toBe(30);
    for (const name of ['hitAt1', 'hitAt5', 'mrr', 'ndcgAt10']) expect(m1[name]).toBeGreaterThan(0.5);
    expect(m1.hitAt5).toBeGreaterThanOrEqual(m1.hitAt1);
    // The metrics are those of the stored per-question results.
    const results1 = first.body.results as { questionId: string; rank: number | null; reciprocalRank: number; citationAccuracy: number | null; cited: string[] }[];
    expect(m1.hitAt1).toBeCloseTo(results1.filter((r) => r.rank === 1).length / 30, 6);
    expect(m1.mrr).toBeCloseTo(results1.reduce((s, r) => s + (r.rank ? 1 / r.rank : 0), 0) / 30, 6);
    expect(m1.citationAccuracy).toBeGreaterThan(0);
    expect(results1.every((r) => Array.isArray(r.cited))).toBe(true);

    // A weight change: trigram only.
    const second = await request(app).post('/api/eval/runs').set(acme.auth).send({ setId: created.body.id, weights: { lexical: 0, semantic: 0, trigram: 1 }, citations: false }).expect(201);
    expect(second.body).toMatchObject({ status: 'done', previousRunId: first.body.id, weights: { lexical: 0, semantic: 0, trigram: 1 } });
    expect(second.body.metrics.citationAccuracy).toBeNull();
    const diff = second.body.diff;
    expect(diff.previousRunId).toBe(first.body.id);
    expect(diff.metrics.mrr).toBeCloseTo(second.body.metrics.mrr - m1.mrr, 5);
    expect(diff.metrics.citationAccuracy).toBeNull();
    const before = new Map(results1.map((r) => [r.questionId, r.reciprocalRank]));
    const expectedWins = (second.body.results as typeof results1).filter((r) => r.reciprocalRank > before.get(r.questionId)!).map((r) => r.questionId).sort();
    const expectedLosses = (second.body.results as typeof results1).filter((r) => r.reciprocalRank < before.get(r.questionId)!).map((r) => r.questionId).sort();
    expect(diff.wins.map((w: { questionId: string }) => w.questionId).sort()).toEqual(expectedWins);
    expect(diff.losses.map((l: { questionId: string }) => l.questionId).sort()).toEqual(expectedLosses);
    expect(expectedWins.length + expectedLosses.length).toBeGreaterThan(0); // the weights changed something
    expect(diff.wins.length + diff.losses.length + diff.unchanged).toBe(30);

    // Stored: listed newest first, and read back with the same diff.
    const runs = await request(app).get(`/api/eval/runs?setId=${created.body.id}`).set(acme.auth).expect(200);
    expect(runs.body.data.map((r: { id: string }) => r.id)).toEqual([second.body.id, first.body.id]);
    expect(runs.body.data[0]).not.toHaveProperty('results');
    expect((await request(app).get(`/api/eval/runs/${second.body.id}`).set(acme.auth).expect(200)).body.diff).toEqual(diff);

    // Another tenant reaches none of it; bad input is refused.
    const globex = await makeTenant(engine, 'globex');
    await request(app).get(`/api/eval/runs/${second.body.id}`).set(globex.auth).expect(404);
    await request(app).post('/api/eval/runs').set(globex.auth).send({ setId: created.body.id }).expect(404);
    await request(app).post('/api/eval/runs').set(acme.auth).send({ setId: created.body.id, weights: { lexical: -1 } }).expect(400);
    const empty = await request(app).post('/api/eval/sets').set(acme.auth).send({ name: 'Empty' }).expect(201);
    await request(app).post('/api/eval/runs').set(acme.auth).send({ setId: empty.body.id }).expect(422);
  });

  it('a large set runs off the request: 202 while running, then done; one run of a set at a time', async () => {
    const { app, acme, docs } = await setup();
    const questions = Array.from({ length: INLINE_EVAL_QUESTIONS + 10 }, (_, i) => ({ question: TOPICS[i % 10]![2][i % 3], documentIds: [docs[i % 10]] }));
    const set = await request(app).post('/api/eval/sets').set(acme.auth).send({ name: 'Large', questions }).expect(201);
    const started = await request(app).post('/api/eval/runs').set(acme.auth).send({ setId: set.body.id, citations: false }).expect(202);
    expect(started.body).toMatchObject({ status: 'running', metrics: null });
    await request(app).post('/api/eval/runs').set(acme.auth).send({ setId: set.body.id }).expect(409);
    await engine.evals.finished(started.body.id);
    const done = await request(app).get(`/api/eval/runs/${started.body.id}`).set(acme.auth).expect(200);
    expect(done.body).toMatchObject({ status: 'done', metrics: { questions: INLINE_EVAL_QUESTIONS + 10 } });
  });
});
