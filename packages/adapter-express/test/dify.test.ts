import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { calibratedScore, queryTermSet } from '@panya/core';
import { makeTenant, setup } from './helpers.js';
import { engineInternals } from '@panya/core/testing';

type Ctx = Awaited<ReturnType<typeof setup>>;
let t: Ctx;

const DOCS = [
  { title: 'Shipping times', contentMd: 'Bangkok shipping takes one to two days by courier. Provinces take three days.', metadata: { lang: 'en', team: 'logistics' } },
  { title: 'Courier pickup', contentMd: 'A courier collects parcels from your shop every afternoon.', metadata: { lang: 'en', team: 'ops' } },
  { title: 'Refunds', contentMd: 'Refunds reach your card within ten working days of approval.', metadata: { lang: 'en', team: 'billing' } },
];

beforeEach(async () => {
  t = await setup();
  for (const doc of DOCS) await request(t.app).post('/api/docs?wait=true').set(t.acme.auth).send(doc).expect(201);
});
afterEach(async () => {
  await t.engine.close();
});

/** The request exactly as Dify sends it. */
const dify = (body: Record<string, unknown>, key = t.acme.key) =>
  request(t.app).post('/api/dify/retrieval').set('Authorization', `Bearer ${key}`).set('Content-Type', 'application/json').send(body);
const ask = (query: string, setting: Record<string, unknown> = { top_k: 5, score_threshold: 0 }, extra: Record<string, unknown> = {}) =>
  dify({ knowledge_id: 'default', query, retrieval_setting: setting, ...extra });

describe('POST /api/dify/retrieval (Dify external knowledge API)', () => {
  it("answers Dify's request with records whose calibrated scores a threshold cuts", async () => {
    const all = await ask('bangkok shipping courier').expect(200);
    expect(all.headers['content-type']).toMatch(/^application\/json/);
    const records = all.body.records as { content: string; score: number; title: string; metadata: Record<string, unknown> }[];
    expect(records.length).toBeGreaterThanOrEqual(2);
    for (const r of records) {
      expect(r.score).toBeGreaterThanOrEqual(0);
      expect(r.score).toBeLessThanOrEqual(1);
      expect(typeof r.content).toBe('string');
      expect(r.metadata).toEqual(expect.objectContaining({ document_id: expect.stringMatching(/^doc_/), lang: 'en' }));
    }
    const byTitle = Object.fromEntries(records.map((r) => [r.title, r.score]));
    // Every topic word, both channels: near 1. One of three words: about a third.
    expect(byTitle['Shipping times']).toBeGreaterThan(0.85);
    expect(byTitle['Courier pickup']).toBeGreaterThan(0.2);
    expect(byTitle['Courier pickup']).toBeLessThan(0.5);
    const cut = await ask('bangkok shipping courier', { top_k: 5, score_threshold: 0.5 }).expect(200);
    expect(cut.body.records.map((r: { title: string }) => r.title)).toEqual(['Shipping times']);
    // top_k caps the records.
    expect((await ask('bangkok shipping courier', { top_k: 1, score_threshold: 0 }).expect(200)).body.records).toHaveLength(1);
  });

  it('scores an unrelated query low although its hits still rank first (RRF ranks are not scores)', async () => {
    const unrelated = await ask('xylophone warranty repairs').expect(200);
    for (const r of unrelated.body.records) expect(r.score).toBeLessThan(0.2);
    expect((await ask('xylophone warranty repairs', { top_k: 5, score_threshold: 0.3 }).expect(200)).body).toEqual({ records: [] });
  });

  it('calibrates by the share of topic words present, question words left out', () => {
    const terms = queryTermSet('How long does shipping to Bangkok take?');
    const hit = { title: 'Shipping', headingPath: [], text: 'Bangkok: 1-2 days.', lexicalRank: 1, semanticRank: 1 };
    expect(calibratedScore(terms, hit)).toBe(1);
    expect(calibratedScore(terms, { ...hit, text: 'Provinces: 3 days.' })).toBeCloseTo(0.85 / 2 + 0.15, 4);
    expect(calibratedScore(terms, { ...hit, title: 'Refunds', text: 'Ten days.', lexicalRank: null })).toBeCloseTo(0.075, 4);
  });

  it('filters by metadata_condition on the documents’ metadata', async () => {
    const only = await ask('courier', { top_k: 5, score_threshold: 0 }, { metadata_condition: { logical_operator: 'and', conditions: [{ name: 'team', comparison_operator: 'is', value: 'ops' }] } }).expect(200);
    expect(only.body.records.map((r: { title: string }) => r.title)).toEqual(['Courier pickup']);
    const either = await ask('courier', { top_k: 5, score_threshold: 0 }, { metadata_condition: { logical_operator: 'or', conditions: [{ name: 'team', comparison_operator: 'in', value: ['ops', 'logistics'] }, { name: 'lang', comparison_operator: 'is', value: 'th' }] } }).expect(200);
    expect(either.body.records.map((r: { title: string }) => r.title).sort()).toEqual(['Courier pickup', 'Shipping times']);
    const none = await ask('courier', { top_k: 5, score_threshold: 0 }, { metadata_condition: { conditions: [{ name: 'lang', comparison_operator: 'not empty' }, { name: 'missing', comparison_operator: 'not empty' }] } }).expect(200);
    expect(none.body.records).toEqual([]);
  });

  it('routes knowledge_id to a workspace by slug or id; unknown or another tenant’s is error 2001', async () => {
    const ws = await request(t.app).post('/api/workspaces').set(t.acme.auth).send({ slug: 'brand-b', name: 'Brand B' }).expect(201);
    await request(t.app).post('/c/acme/_w/brand-b/api/docs?wait=true').set(t.acme.auth).send({ title: 'Brand B shipping', contentMd: 'Brand B ships from Chiang Mai.' }).expect(201);
    for (const id of ['brand-b', ws.body.id]) {
      const res = await dify({ knowledge_id: id, query: 'shipping', retrieval_setting: { top_k: 5, score_threshold: 0 } }).expect(200);
      expect(res.body.records.map((r: { title: string }) => r.title)).toEqual(['Brand B shipping']);
    }
    const unknown = await dify({ knowledge_id: 'nope', query: 'shipping', retrieval_setting: { top_k: 5, score_threshold: 0 } }).expect(404);
    expect(unknown.body).toMatchObject({ error_code: 2001, error_msg: expect.stringContaining('nope') });
    await dify({ knowledge_id: 'default', query: 'shipping', retrieval_setting: { top_k: 5, score_threshold: 0 } }, t.globex.key).expect(200).expect(({ body }) => expect(body.records).toEqual([]));
    await dify({ knowledge_id: 'brand-b', query: 'shipping', retrieval_setting: { top_k: 5, score_threshold: 0 } }, t.globex.key).expect(404);
  });

  it("answers auth failures with Dify's error codes 1001 and 1002", async () => {
    const body = { knowledge_id: 'default', query: 'shipping', retrieval_setting: { top_k: 5, score_threshold: 0 } };
    const none = await request(t.app).post('/api/dify/retrieval').send(body).expect(401);
    expect(none.body).toMatchObject({ error_code: 1001, error_msg: expect.stringContaining('Bearer') });
    await request(t.app).post('/api/dify/retrieval').set('Authorization', `Token ${t.acme.key}`).send(body).expect(401).expect(({ body: b }) => expect(b.error_code).toBe(1001));
    const refused = await request(t.app).post('/api/dify/retrieval').set('Authorization', 'Bearer svc_live_nope').send(body).expect(401);
    expect(refused.body.error_code).toBe(1002);
    const writeOnly = await makeTenant(t.engine, 'writer', ['write']);
    await request(t.app).post('/api/dify/retrieval').set(writeOnly.auth).send(body).expect(403).expect(({ body: b }) => expect(b.error_code).toBe(1002));
  });

  it('validates the request, counts each call as a search and rate-limits like search', async () => {
    const bad = await ask('shipping', { top_k: 0, score_threshold: 2 }).expect(400);
    expect(bad.body).toMatchObject({ error_code: 400, code: 'invalid_request' });
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['retrieval_setting.score_threshold', 'retrieval_setting.top_k']);
    await request(t.app).get('/api/dify/retrieval').set(t.acme.auth).expect(405);
    const ok = await ask('shipping').expect(200);
    expect(ok.headers['ratelimit-limit']).toBeDefined();
    const events = await engineInternals(t.engine).store.usage.listQueries(t.acme.tenant.id);
    expect(events.map((e) => e.kind)).toEqual(['search']);
  });
});
