/**
 * Content gaps by vector: with a configured embedder, paraphrases sharing no word ("refund" /
 * "money back") join one cluster that the lexical rule keeps apart; with no embedder, the hash
 * one, or an embedder that fails, the result is the lexical one.
 */
import { describe, expect, it } from 'vitest';
import { GapClusterer } from '../src/insights/gap-clusters.js';
import { computeGaps } from '../src/jobs/content-gaps.js';
import type { JobContext } from '../src/jobs/types.js';
import { HashEmbedder } from '../src/search/hash-embedder.js';
import type { Embedder } from '../src/search/ports/embedder.js';
import type { GapSnapshot, QuestionRecord } from '../src/insights/ports/insights.js';

const at = '2026-11-20T00:00:00.000Z';
const REFUND = ['Can I get a refund?', 'I want my money back', 'How do I return an order for money back?'];
const OTHER = ['Do you ship to Chiang Mai?'];

/** A topic per text, by keyword: paraphrases with no shared word get one vector. */
function topicOf(text: string): number {
  const t = text.toLowerCase();
  if (t.includes('refund') || t.includes('money back')) return 0;
  if (t.includes('ship')) return 1;
  return 2;
}

function unit(topic: number, dimension = 4): Float32Array {
  const v = new Float32Array(dimension);
  v[topic] = 1;
  return v;
}

class TopicEmbedder implements Embedder {
  readonly specificationVersion = 'v1' as const;
  readonly id = 'test-topics';
  readonly dimension = 4;
  readonly maxBatch = 2;
  readonly embedded: string[] = [];
  constructor(private readonly fail = false) {}
  async embedDocuments(texts: readonly string[]) {
    if (this.fail) throw new Error('model unavailable');
    this.embedded.push(...texts);
    return { embeddings: texts.map((t) => unit(topicOf(t))) };
  }
  async embedQuery(text: string) {
    return unit(topicOf(text));
  }
}

describe('GapClusterer with vectors', () => {
  it('joins paraphrases sharing no word by centroid cosine; the lexical rule keeps them apart', () => {
    const lexical = new GapClusterer();
    const vectors = new GapClusterer();
    for (const question of [...REFUND, ...OTHER]) {
      lexical.add({ question, createdAt: at, reasons: ['refused'] });
      vectors.add({ question, createdAt: at, reasons: ['refused'], vector: unit(topicOf(question)) });
    }
    expect(lexical.top(10).map((g) => g.count)).not.toContain(3);
    const top = vectors.top(10);
    expect(top.map((g) => g.count)).toEqual([3, 1]);
    expect(top[0]!.examples).toEqual([...REFUND].reverse());
    expect(top[0]!.terms).toEqual(expect.arrayContaining(['refund', 'monei']));
  });

  it('opens a new cluster when the centroid is below the threshold', () => {
    const c = new GapClusterer();
    const a = new Float32Array([1, 0]);
    const b = new Float32Array([Math.SQRT1_2, Math.SQRT1_2]); // cosine 0.707 < 0.8
    c.add({ question: 'refund please', createdAt: at, reasons: ['refused'], vector: a });
    c.add({ question: 'refund please now', createdAt: at, reasons: ['refused'], vector: b });
    expect(c.size).toBe(2);
  });

  it('counts the previous period by vector too', () => {
    const c = new GapClusterer();
    c.add({ question: 'Can I get a refund?', createdAt: at, reasons: ['refused'], vector: unit(0) });
    c.countPrevious('I want my money back', unit(0));
    c.countPrevious('I want my money back');
    expect(c.top(1)[0]!.previousCount).toBe(1);
  });
});

function record(question: string, i: number): QuestionRecord {
  return {
    id: `q${String(i).padStart(4, '0')}`, tenantId: 't', workspaceId: 'w', question, source: 'answer', outcome: 'refused', topScore: null,
    groundedSentences: 0, sentences: 0, conversationId: null, messageId: null, citations: [], thumbsDown: false, handedOff: false,
    createdAt: new Date(Date.parse(at) + i * 1000).toISOString(),
  };
}

/** The job over an in-memory question log; returns the saved snapshot and the warnings logged. */
async function runJob(embedder: Embedder) {
  const log = [...REFUND, ...OTHER, 'Can I get a refund?'].map(record);
  let saved: GapSnapshot | undefined;
  const warnings: string[] = [];
  const store = {
    questions: {
      gapQuestions: async (_s: unknown, w: { since: string; until: string }, o: { limit: number; after?: { createdAt: string; id: string } }) =>
        log.filter((q) => q.createdAt >= w.since && q.createdAt < w.until && (!o.after || q.createdAt > o.after.createdAt)).slice(0, o.limit),
      saveGaps: async (_s: unknown, snapshot: GapSnapshot) => void (saved = snapshot),
    },
    curatedAnswers: { list: async () => [] },
  };
  const logger = { debug() {}, info() {}, error() {}, warn: (msg: string) => void warnings.push(msg) };
  const ctx = { store, embedder, logger } as unknown as JobContext;
  await computeGaps(ctx, { tenantId: 't', workspaceId: 'w', period: '30d', requestedAt: at }, new Date('2026-11-25T00:00:00.000Z'));
  return { clusters: saved!.clusters as { count: number; examples: string[] }[], warnings };
}

describe('content-gaps job with an embedder', () => {
  it('clusters by vector, embedding each distinct question text once', async () => {
    const embedder = new TopicEmbedder();
    const { clusters, warnings } = await runJob(embedder);
    expect(clusters.map((c) => c.count)).toEqual([4, 1]);
    expect(embedder.embedded.sort()).toEqual([...REFUND, ...OTHER].sort());
    expect(warnings).toEqual([]);
  });

  it('is lexical with the hash embedder, and when embedding fails (with a warning)', async () => {
    const hash = await runJob(new HashEmbedder({ queryTime: true }));
    expect(hash.clusters.map((c) => c.count)).not.toContain(4);
    const failed = await runJob(new TopicEmbedder(true));
    expect(failed.clusters).toEqual(hash.clusters);
    expect(failed.warnings).toHaveLength(1);
    expect(failed.warnings[0]).toMatch(/clustered lexically/);
  });
});
