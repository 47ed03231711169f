/**
 * Per-workspace evaluation: sets of test questions with the documents that should answer them,
 * and the stored runs that score retrieval and citations against them.
 */
import type { Scope } from '../../ports/scope.js';

export const EVAL_QUESTION_SOURCES = ['manual', 'curated', 'feedback', 'import'] as const;
export type EvalQuestionSource = (typeof EVAL_QUESTION_SOURCES)[number];

export type EvalQuestion = {
  /** Stable within the set: runs are compared question by question. */
  id: string;
  question: string;
  /** Documents that answer it (any of them counts as a hit). */
  documentIds: string[];
  source: EvalQuestionSource;
};

export type EvalSetRecord = {
  id: string;
  tenantId: string;
  workspaceId: string;
  name: string;
  questions: EvalQuestion[];
  createdAt: string;
  updatedAt: string;
};

export type EvalMetrics = {
  hitAt1: number;
  hitAt5: number;
  mrr: number;
  ndcgAt10: number;
  /** Share of the cited documents (over all answers) that are expected documents of their question; null when not measured. */
  citationAccuracy: number | null;
  questions: number;
};

export type EvalQuestionResult = {
  questionId: string;
  question: string;
  /** 1-based rank of the first expected document among the retrieved documents; null: not in the top 10. */
  rank: number | null;
  reciprocalRank: number;
  ndcgAt10: number;
  /** Documents cited by the generated answer; null when citations were not measured. */
  cited: string[] | null;
  /** Cited documents that are expected ones / all cited; null when nothing was cited or not measured. */
  citationAccuracy: number | null;
};

export const EVAL_RUN_STATUSES = ['running', 'done', 'failed'] as const;
export type EvalRunStatus = (typeof EVAL_RUN_STATUSES)[number];

export type EvalRunRecord = {
  id: string;
  tenantId: string;
  workspaceId: string;
  setId: string;
  status: EvalRunStatus;
  /** The search weights the run used (null: the engine's defaults). */
  weights: { lexical?: number; semantic?: number; trigram?: number } | null;
  metrics: EvalMetrics | null;
  results: EvalQuestionResult[];
  /** The set's last finished run before this one, which the diff compares against. */
  previousRunId: string | null;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
};

export interface EvalStore {
  insertSet(set: EvalSetRecord): Promise<void>;
  getSet(scope: Scope, id: string): Promise<EvalSetRecord | null>;
  /** Newest first, at most `limit`. */
  listSets(scope: Scope, limit: number): Promise<EvalSetRecord[]>;
  updateSet(scope: Scope, id: string, patch: { name?: string; questions?: EvalQuestion[]; updatedAt: string }): Promise<EvalSetRecord | null>;
  /** Deletes the set and its runs. */
  deleteSet(scope: Scope, id: string): Promise<boolean>;
  insertRun(run: EvalRunRecord): Promise<void>;
  getRun(scope: Scope, id: string): Promise<EvalRunRecord | null>;
  /** Newest first, at most `limit`; only the set's when `setId` is given. */
  listRuns(scope: Scope, limit: number, setId?: string): Promise<EvalRunRecord[]>;
  /** Records the outcome of a running run. */
  finishRun(scope: Scope, id: string, outcome: Pick<EvalRunRecord, 'status' | 'metrics' | 'results' | 'error' | 'finishedAt'>): Promise<void>;
  /** The set's newest finished (`done`) run created at or before `before`. */
  previousRun(scope: Scope, setId: string, before: string): Promise<EvalRunRecord | null>;
}
