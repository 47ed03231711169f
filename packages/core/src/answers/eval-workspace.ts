/**
 * Scoring of a workspace's evaluation run, question by question, on the BEIR metrics of
 * `metrics.ts` (binary relevance: every expected document is relevant), and the comparison of two
 * runs of one set: which questions got better (wins) or worse (losses).
 */
import type { EvalMetrics, EvalQuestion, EvalQuestionResult, EvalRunRecord } from './ports/evaluation.js';
import { evaluateRun } from './eval-metrics.js';

/** How deep ranks are read: nDCG@10, MRR@10. */
export const EVAL_DEPTH = 10;

/** One question's scores from the documents retrieved for it (best first, distinct) and those its answer cited. */
export function scoreQuestion(q: EvalQuestion, ranked: readonly string[], cited: readonly string[] | null): EvalQuestionResult {
  const expected = new Set(q.documentIds);
  const m = evaluateRun(new Map([[q.id, new Map(q.documentIds.map((d) => [d, 1]))]]), new Map([[q.id, ranked.slice(0, EVAL_DEPTH)]]));
  const at = ranked.slice(0, EVAL_DEPTH).findIndex((d) => expected.has(d));
  const citedDocs = cited === null ? null : [...new Set(cited)];
  return {
    questionId: q.id,
    question: q.question,
    rank: at >= 0 ? at + 1 : null,
    reciprocalRank: m.mrrAt10,
    ndcgAt10: m.ndcgAt10,
    cited: citedDocs,
    citationAccuracy: citedDocs && citedDocs.length > 0 ? citedDocs.filter((d) => expected.has(d)).length / citedDocs.length : null,
  };
}

const mean = (xs: readonly number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

/** A run's metrics over its question results; citation accuracy over every cited document of every answer. */
export function summarize(results: readonly EvalQuestionResult[]): EvalMetrics {
  let cited = 0;
  let right = 0;
  for (const r of results) {
    if (!r.cited || r.citationAccuracy === null) continue;
    cited += r.cited.length;
    right += r.citationAccuracy * r.cited.length;
  }
  return {
    hitAt1: mean(results.map((r) => (r.rank === 1 ? 1 : 0))),
    hitAt5: mean(results.map((r) => (r.rank !== null && r.rank <= 5 ? 1 : 0))),
    mrr: mean(results.map((r) => r.reciprocalRank)),
    ndcgAt10: mean(results.map((r) => r.ndcgAt10)),
    citationAccuracy: cited === 0 ? null : Math.round((right / cited) * 1e6) / 1e6,
    questions: results.length,
  };
}

export const EVAL_METRICS = ['hitAt1', 'hitAt5', 'mrr', 'ndcgAt10', 'citationAccuracy'] as const;
export type EvalMetricName = (typeof EVAL_METRICS)[number];

export type EvalChange = {
  questionId: string;
  question: string;
  /** Rank of the first expected document before and after (null: not in the top 10). */
  before: number | null;
  after: number | null;
};

export type EvalDiff = {
  previousRunId: string;
  /** This run's metric minus the previous run's (null where either lacks it). */
  metrics: Record<EvalMetricName, number | null>;
  /** Questions whose first expected document moved up (or into the top 10). */
  wins: EvalChange[];
  /** Questions whose first expected document moved down (or out of the top 10). */
  losses: EvalChange[];
  unchanged: number;
  /** Questions only one of the runs had (the set changed between them). */
  added: number;
  removed: number;
};

/** How `run` compares with `previous` (both finished runs of one set). */
export function compareRuns(run: Pick<EvalRunRecord, 'metrics' | 'results'>, previous: Pick<EvalRunRecord, 'id' | 'metrics' | 'results'>): EvalDiff {
  const metrics = {} as Record<EvalMetricName, number | null>;
  for (const name of EVAL_METRICS) {
    const a = run.metrics?.[name];
    const b = previous.metrics?.[name];
    metrics[name] = a === null || a === undefined || b === null || b === undefined ? null : Math.round((a - b) * 1e6) / 1e6;
  }
  const before = new Map(previous.results.map((r) => [r.questionId, r]));
  const wins: EvalChange[] = [];
  const losses: EvalChange[] = [];
  let unchanged = 0;
  let added = 0;
  for (const r of run.results) {
    const old = before.get(r.questionId);
    if (!old) {
      added++;
      continue;
    }
    before.delete(r.questionId);
    const change = { questionId: r.questionId, question: r.question, before: old.rank, after: r.rank };
    if (r.reciprocalRank > old.reciprocalRank) wins.push(change);
    else if (r.reciprocalRank < old.reciprocalRank) losses.push(change);
    else unchanged++;
  }
  return { previousRunId: previous.id, metrics, wins, losses, unchanged, added, removed: before.size };
}

/** `hitAt1=0.8,mrr=0.7` → the gate's thresholds; throws on an unknown metric or a value outside [0, 1]. */
export function parseGate(spec: string): Partial<Record<EvalMetricName, number>> {
  const gate: Partial<Record<EvalMetricName, number>> = {};
  for (const part of spec.split(',').filter((p) => p.trim())) {
    const [name, value] = part.split('=').map((s) => s.trim());
    const n = Number(value);
    if (!EVAL_METRICS.includes(name as EvalMetricName) || value === undefined || value === '' || !Number.isFinite(n) || n < 0 || n > 1) {
      throw new Error(`Bad gate "${part}": use <metric>=<value between 0 and 1>, metric one of ${EVAL_METRICS.join(', ')}.`);
    }
    gate[name as EvalMetricName] = n;
  }
  return gate;
}

/** The gate's metrics the run falls below (a metric the run lacks fails its gate). */
export function failedGates(metrics: EvalMetrics, gate: Partial<Record<EvalMetricName, number>>): { metric: EvalMetricName; value: number | null; threshold: number }[] {
  return Object.entries(gate)
    .map(([metric, threshold]) => ({ metric: metric as EvalMetricName, value: metrics[metric as EvalMetricName], threshold: threshold! }))
    .filter((g) => g.value === null || g.value < g.threshold);
}
