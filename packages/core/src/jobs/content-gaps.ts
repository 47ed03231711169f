import { createHash } from 'node:crypto';
import { ok, type Result } from 'neverthrow';
import type { PanyaError } from '../errors.js';
import { embedInBatches } from '../search/embedder-batches.js';
import { HashEmbedder } from '../search/hash-embedder.js';
import { GapClusterer, type GapReason } from '../insights/gap-clusters.js';
import type { Embedder } from '../search/ports/embedder.js';
import type { GapRequest, QuestionRecord } from '../insights/ports/insights.js';
import type { Scope } from '../ports/store.js';
import { GAP_PERIOD_DAYS, type GapJson, type GapPeriod } from '../insights/schemas.js';
import { gapWindows } from '../insights/insights.js';
import type { JobContext } from './types.js';
import { matchQuestion } from '../answers/curated-match.js';
import { MAX_CURATED_ANSWERS } from '../answers/curated-answers.js';

/** Questions read per query. */
export const GAP_SLICE = 1_000;
/** Questions clustered between two yields of the thread (about 10 ms of segmenting on a busy core). */
export const GAP_STEP = 100;
/** Most questions one computation reads per window: the newest beyond it are not read. */
export const MAX_GAP_QUESTIONS = 200_000;
/** Clusters kept per computation (largest first). */
export const MAX_GAPS = 50;
/** Question texts embedded per call to the embedder (the thread is yielded between calls). */
export const GAP_EMBED_BATCH = 64;
/** Distinct question texts whose vectors are kept across slices of one computation (~15 MB at 384 dimensions). */
const VECTORS_CACHED = 10_000;
/** Requests taken per round. */
const REQUESTS = 20;

export type ContentGapsSummary = { job: 'content-gaps'; computed: number; questions: number; left: boolean; elapsedMs: number };

/** Hands the thread to waiting requests and timers between slices. */
const yieldThread = () => new Promise<void>((resolve) => setImmediate(resolve));

function reasonsOf(q: QuestionRecord): GapReason[] {
  const reasons: GapReason[] = [];
  if (q.outcome === 'refused') reasons.push('refused');
  if (q.outcome === 'low_evidence') reasons.push('low_evidence');
  if (q.thumbsDown) reasons.push('thumbs_down');
  if (q.handedOff) reasons.push('handed_off');
  return reasons;
}

async function* questionsIn(ctx: JobContext, scope: Scope, window: { since: string; until: string }): AsyncGenerator<QuestionRecord[]> {
  let after: QuestionRecord | undefined;
  let read = 0;
  while (read < MAX_GAP_QUESTIONS) {
    const slice = await ctx.store.questions.gapQuestions(scope, window, { limit: GAP_SLICE, ...(after ? { after: { createdAt: after.createdAt, id: after.id } } : {}) });
    if (slice.length === 0) return;
    read += slice.length;
    yield slice;
    if (slice.length < GAP_SLICE) return;
    after = slice.at(-1)!;
    await yieldThread();
  }
}

function trendOf(count: number, previous: number): GapJson['trend'] {
  if (previous === 0) return 'new';
  if (count >= previous * 1.25) return 'up';
  if (count <= previous * 0.8) return 'down';
  return 'flat';
}

/** Whether one of the workspace's curated answers covers a gap: the match answers use, on its example questions. */
async function curatedCover(ctx: JobContext, scope: Scope, examples: readonly string[]): Promise<GapJson['curatedAnswer']> {
  const answers = await ctx.store.curatedAnswers.list(scope, MAX_CURATED_ANSWERS);
  for (const question of examples) {
    const found = matchQuestion(question, answers);
    if (found) return { covered: true, id: found.id };
  }
  return { covered: false, id: null };
}

/** A failure of the embedder, told apart from a store failure (which fails the job). */
class EmbeddingFailed extends Error {}

/** Vectors of question texts, each distinct text embedded once (within the cache's bound). */
class QuestionVectors {
  private readonly cache = new Map<string, Float32Array>();
  constructor(private readonly embedder: Embedder) {}

  /** The vectors of a slice's questions, in order, embedding the texts not seen yet in batches. */
  async of(questions: readonly string[]): Promise<Float32Array[]> {
    const local = new Map<string, Float32Array>();
    const missing = [...new Set(questions.filter((q) => !this.cache.has(q)))];
    for (let i = 0; i < missing.length; i += GAP_EMBED_BATCH) {
      const batch = missing.slice(i, i + GAP_EMBED_BATCH);
      let vectors: Float32Array[];
      try {
        vectors = (await embedInBatches(this.embedder, batch)).embeddings;
      } catch (e) {
        throw new EmbeddingFailed(e instanceof Error ? e.message : String(e));
      }
      batch.forEach((text, j) => {
        local.set(text, vectors[j]!);
        if (this.cache.size < VECTORS_CACHED) this.cache.set(text, vectors[j]!);
      });
      await yieldThread();
    }
    return questions.map((q) => this.cache.get(q) ?? local.get(q)!);
  }
}

/** Clusters one workspace's gap questions of a period (by vector when `vectors` is given) and counts the previous period against them. */
async function clusterGaps(ctx: JobContext, scope: Scope, windows: ReturnType<typeof gapWindows>, vectors: QuestionVectors | null): Promise<{ clusterer: GapClusterer; questions: number }> {
  const clusterer = new GapClusterer();
  let questions = 0;
  for await (const slice of questionsIn(ctx, scope, windows.current)) {
    const embedded = vectors ? await vectors.of(slice.map((q) => q.question)) : null;
    for (let i = 0; i < slice.length; i += GAP_STEP) {
      for (let j = i; j < Math.min(i + GAP_STEP, slice.length); j++) {
        const q = slice[j]!;
        clusterer.add({ question: q.question, createdAt: q.createdAt, reasons: reasonsOf(q), ...(embedded ? { vector: embedded[j]! } : {}) });
      }
      await yieldThread();
    }
    questions += slice.length;
  }
  for await (const slice of questionsIn(ctx, scope, windows.previous)) {
    const embedded = vectors ? await vectors.of(slice.map((q) => q.question)) : null;
    for (let i = 0; i < slice.length; i += GAP_STEP) {
      for (let j = i; j < Math.min(i + GAP_STEP, slice.length); j++) clusterer.countPrevious(slice[j]!.question, embedded?.[j]);
      await yieldThread();
    }
  }
  return { clusterer, questions };
}

/**
 * The clusters of a period: by vector with a configured embedder (not the model-free `hash`
 * one, whose vectors say no more than the terms), lexical without one or when embedding fails.
 */
async function clustersOf(ctx: JobContext, scope: Scope, windows: ReturnType<typeof gapWindows>) {
  if (!ctx.embedder.queryTime && !(ctx.embedder instanceof HashEmbedder)) {
    try {
      return await clusterGaps(ctx, scope, windows, new QuestionVectors(ctx.embedder));
    } catch (e) {
      if (!(e instanceof EmbeddingFailed)) throw e;
      ctx.logger.warn('content gaps: embedding the questions failed; clustered lexically', { tenantId: scope.tenantId, workspaceId: scope.workspaceId, embedder: ctx.embedder.id, error: e.message });
    }
  }
  return clusterGaps(ctx, scope, windows, null);
}

/** Clusters one workspace's gap questions of a period, counts the previous period against them, and stores the result. */
export async function computeGaps(ctx: JobContext, request: GapRequest, now: Date): Promise<number> {
  const scope = { tenantId: request.tenantId, workspaceId: request.workspaceId };
  const period = (Object.hasOwn(GAP_PERIOD_DAYS, request.period) ? request.period : '30d') as GapPeriod;
  const windows = gapWindows(period, now);
  const { clusterer, questions } = await clustersOf(ctx, scope, windows);
  const clusters: GapJson[] = [];
  for (const gap of clusterer.top(MAX_GAPS)) {
    const nearest = ctx.nearestDocument ? await ctx.nearestDocument(scope, gap.examples.join('\n')) : null;
    clusters.push({
      id: createHash('sha256').update(gap.terms.join(' ')).digest('base64url').slice(0, 12),
      terms: gap.terms,
      count: gap.count,
      previousCount: gap.previousCount,
      trend: trendOf(gap.count, gap.previousCount),
      examples: gap.examples,
      reasons: gap.reasons,
      nearestDocument: nearest,
      curatedAnswer: await curatedCover(ctx, scope, gap.examples),
      lastAskedAt: gap.lastAskedAt,
    });
    await yieldThread();
  }
  await ctx.store.questions.saveGaps(scope, { period, computedAt: now.toISOString(), questions, clusters }, request.requestedAt);
  return questions;
}

/**
 * Recomputes the content gaps that were asked for (a stale or missing result was read), oldest
 * request first, in slices, until none is left or the budget is spent (at least one per run).
 */
export async function contentGaps(ctx: JobContext, now: Date): Promise<Result<ContentGapsSummary, PanyaError>> {
  const started = performance.now();
  const budgetMs = ctx.budgetMs ?? 50_000;
  let computed = 0;
  let questions = 0;
  let left = false;
  const done = new Set<string>();
  outer: for (;;) {
    const requests = (await ctx.store.questions.pendingGapRequests(REQUESTS, ctx.tenantId)).filter((r) => !done.has(`${r.workspaceId}/${r.period}/${r.requestedAt}`));
    if (requests.length === 0) break;
    for (const request of requests) {
      if (computed > 0 && performance.now() - started >= budgetMs) {
        left = true;
        break outer;
      }
      questions += await computeGaps(ctx, request, now);
      done.add(`${request.workspaceId}/${request.period}/${request.requestedAt}`);
      computed++;
    }
  }
  return ok({ job: 'content-gaps', computed, questions, left, elapsedMs: Math.round(performance.now() - started) });
}
