/**
 * Content gaps through the engine's job with a configured embedder: a read starts the job, which
 * clusters paraphrases sharing no word ("refund" / "money back") into one gap by vector.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Embedder, type Engine } from '@panya/core';
import { engineInternals } from '@panya/core/testing';
import { openSqliteStore } from '@panya/store-sqlite';
import { createPanyaApp } from '@panya/adapter-express';
import { makeTenant } from './helpers.js';

const REFUND = ['Can I get a refund?', 'I want my money back', 'Refund for a broken item', 'Give me my money back please'];
const SHIPPING = ['Do you ship to Chiang Mai?'];

/** One axis per topic, found by keyword: paraphrases without a shared word get the same vector. */
function topicVector(text: string): Float32Array {
  const t = text.toLowerCase();
  const v = new Float32Array(3);
  v[t.includes('refund') || t.includes('money back') ? 0 : t.includes('ship') ? 1 : 2] = 1;
  return v;
}

const topics: Embedder = {
  specificationVersion: 'v1',
  id: 'test-topics',
  dimension: 3,
  maxBatch: 8,
  embedDocuments: async (texts) => ({ embeddings: texts.map(topicVector) }),
  embedQuery: async (text) => topicVector(text),
};

describe('content gaps by vector through the engine', { timeout: 60_000 }, () => {
  let engine: Engine;
  let app: ReturnType<typeof createPanyaApp>;
  let acme: Awaited<ReturnType<typeof makeTenant>>;

  beforeAll(async () => {
    engine = createEngine({ store: openSqliteStore({ path: ':memory:' }), embedder: topics });
    app = createPanyaApp(engine);
    acme = await makeTenant(engine, 'acme', ['read', 'write', 'mcp', 'admin'], 'enterprise');
  });
  afterAll(async () => {
    await engineInternals(engine).worker.stop();
    await engine.close();
  });

  it('groups paraphrases that share no word into one gap', async () => {
    const { store } = engineInternals(engine);
    const scope = { tenantId: acme.tenant.id, workspaceId: acme.defaultWorkspace.id };
    const questions = [...REFUND, ...SHIPPING];
    for (const [i, question] of questions.entries()) {
      await store.questions.record({ id: `qst_${String(i).padStart(12, '0')}`, ...scope, question, source: 'chat', outcome: 'refused', topScore: null, groundedSentences: 0, sentences: 1, conversationId: null, messageId: null, citations: [], thumbsDown: false, handedOff: false, createdAt: new Date(Date.now() - (questions.length - i) * 60_000).toISOString() });
    }
    let body: { computedAt: string | null; questions: number; data: { count: number; examples: string[]; terms: string[] }[] };
    for (;;) {
      body = (await request(app).get('/api/insights/gaps?period=30d').set(acme.auth).expect(200)).body;
      if (body.computedAt) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(body.questions).toBe(5);
    expect(body.data.map((g) => g.count)).toEqual([4, 1]);
    expect(body.data[0]!.examples).toEqual([REFUND[3], REFUND[2], REFUND[1]]);
    expect(body.data[0]!.terms).toEqual(expect.arrayContaining(['refund', 'monei']));
  });
});
