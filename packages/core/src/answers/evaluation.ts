/**
 * Per-workspace evaluation: sets of test questions with the documents that should answer them
 * (written, imported as JSONL, or seeded from curated answers and positive feedback), and runs
 * that score retrieval (Hit@1, Hit@5, MRR, nDCG@10) and citations against them, each stored and
 * compared with the set's previous run.
 *
 * A run of at most `INLINE_EVAL_QUESTIONS` questions finishes before its request answers; a larger
 * one answers at once (`running`) and goes on in the background, one question at a time with the
 * event loop free between questions, at most `MAX_RUNNING_EVALS` at once per process.
 */
import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import { compareRuns, scoreQuestion, summarize, type EvalDiff } from './eval-workspace.js';
import { errors, type FieldIssue, type PanyaError } from '../errors.js';
import type { EvalQuestion, EvalRunRecord, EvalSetRecord } from './ports/evaluation.js';
import type { Scope } from '../ports/scope.js';
import { searchSchema } from '../search/schemas.js';
import type { AnswerService } from './answer.js';
import { requireScope, type RequestContext, type ServiceDeps } from '../context.js';
import type { SearchService } from '../search/search.js';

export const MAX_EVAL_QUESTIONS = 1_000;
/** Runs over at most this many questions finish before the request answers. */
export const INLINE_EVAL_QUESTIONS = 50;
/** Background runs one process works on at once; more are refused until one ends. */
export const MAX_RUNNING_EVALS = 2;
const MAX_SETS_LISTED = 100;
const MAX_RUNS_LISTED = 50;
/** Retrieved results read per question: enough for ten distinct documents in most workspaces. */
const RESULTS_PER_QUESTION = 40;
/** Conversations read (newest first) when seeding from positive feedback, and messages per conversation. */
const FEEDBACK_CONVERSATIONS = 200;
const FEEDBACK_MESSAGES = 100;
const REF_BATCH = 500;

const documentIdsSchema = z.array(z.string().min(1).max(100)).min(1).max(20);
export const evalQuestionSchema = z.strictObject({
  id: z.string().trim().min(1).max(100).optional(),
  question: z.string().trim().min(1).max(500),
  documentIds: documentIdsSchema,
});

export const createEvalSetSchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  questions: z.array(evalQuestionSchema).max(MAX_EVAL_QUESTIONS).default([]),
  seed: z.array(z.enum(['curated', 'feedback'])).max(2).default([]).describe('Add questions from the curated answers (with their documents) and from answers rated thumbs-up (with the documents they cited).'),
});
export const updateEvalSetSchema = z
  .strictObject({ name: z.string().trim().min(1).max(200).optional(), questions: z.array(evalQuestionSchema).max(MAX_EVAL_QUESTIONS).optional() })
  .refine((v) => v.name !== undefined || v.questions !== undefined, 'give name or questions');
export const importEvalSetSchema = z.strictObject({
  jsonl: z.string().min(1).max(2_000_000).describe('One JSON object per line: {"question": "…", "documentIds": ["doc_…"], "id"?: "…"}.'),
  replace: z.boolean().default(false).describe('Replace the set\'s questions instead of adding to them.'),
});
export const startEvalRunSchema = z.strictObject({
  setId: z.string().min(1).max(100),
  weights: searchSchema.shape.weights,
  citations: z.boolean().default(true).describe('Also generate each answer and score its citations (false: retrieval only).'),
});

export type EvalRunView = Omit<EvalRunRecord, 'tenantId'> & { diff: EvalDiff | null };

export function createEvalService(deps: ServiceDeps & { search: SearchService; answers: AnswerService }) {
  const { store, clock, ids, logger } = deps;
  const setNotFound = () => errors.notFound('Evaluation set');
  let running = 0;
  /** Background runs of this process, until they end. */
  const tasks = new Map<string, Promise<void>>();

  async function missingDocuments(scope: Scope, questions: readonly Pick<EvalQuestion, 'documentIds'>[]): Promise<Set<string>> {
    const wanted = [...new Set(questions.flatMap((q) => q.documentIds))];
    const found = new Set<string>();
    for (let i = 0; i < wanted.length; i += REF_BATCH) for (const d of await store.documents.getRefs(scope, wanted.slice(i, i + REF_BATCH))) found.add(d.id);
    return new Set(wanted.filter((id) => !found.has(id)));
  }

  /** Questions with ids (given, or new), checked against the workspace's documents; `path` names the input field. */
  async function prepare(scope: Scope, input: readonly z.output<typeof evalQuestionSchema>[], source: EvalQuestion['source'], path: (i: number) => string): Promise<Result<EvalQuestion[], PanyaError>> {
    const missing = await missingDocuments(scope, input);
    const issues: FieldIssue[] = [];
    input.forEach((q, i) => q.documentIds.forEach((d) => missing.has(d) && issues.push({ path: `${path(i)}.documentIds`, message: `no document ${d} in this workspace` })));
    if (issues.length > 0) return err(errors.unprocessable('Every documentId must name a document of this workspace.', issues.slice(0, 50)));
    return ok(input.map((q) => ({ id: q.id ?? ids.next('evq'), question: q.question, documentIds: [...new Set(q.documentIds)], source })));
  }

  /** Merges questions by id (later wins), bounded. */
  function merge(existing: readonly EvalQuestion[], added: readonly EvalQuestion[]): Result<EvalQuestion[], PanyaError> {
    const byId = new Map(existing.map((q) => [q.id, q]));
    for (const q of added) byId.set(q.id, q);
    if (byId.size > MAX_EVAL_QUESTIONS) return err(errors.unprocessable(`An evaluation set holds at most ${MAX_EVAL_QUESTIONS} questions.`));
    return ok([...byId.values()]);
  }

  async function seedQuestions(ctx: RequestContext, seed: readonly ('curated' | 'feedback')[]): Promise<EvalQuestion[]> {
    const out: EvalQuestion[] = [];
    if (seed.includes('curated')) {
      for (const c of await store.curatedAnswers.list(ctx.scope, MAX_EVAL_QUESTIONS)) {
        if (c.documentIds.length > 0) out.push({ id: `curated:${c.id}`, question: c.question, documentIds: c.documentIds, source: 'curated' });
      }
    }
    if (seed.includes('feedback')) {
      const conversations = await store.conversations.list(ctx.scope, {}, { limit: FEEDBACK_CONVERSATIONS });
      for (const conversation of conversations.items) {
        const { items: messages } = await store.conversations.messagesAfter(ctx.scope, conversation.id, { limit: FEEDBACK_MESSAGES });
        messages.forEach((m, i) => {
          const asked = messages[i - 1];
          if (m.role !== 'assistant' || m.feedback?.rating !== 'up' || m.citations.length === 0 || asked?.role !== 'user') return;
          out.push({ id: `feedback:${m.id}`, question: asked.content.slice(0, 500), documentIds: [...new Set(m.citations.map((c) => c.documentId))].slice(0, 20), source: 'feedback' });
        });
      }
    }
    return out;
  }

  const view = ({ tenantId: _t, ...set }: EvalSetRecord) => set;

  async function runView(scope: Scope, run: EvalRunRecord): Promise<EvalRunView> {
    const { tenantId: _t, ...rest } = run;
    const previous = run.previousRunId ? await store.evals.getRun(scope, run.previousRunId) : null;
    return { ...rest, diff: previous && run.status === 'done' ? compareRuns(run, previous) : null };
  }

  /** Scores every question of the set; in the background, the event loop is free between questions. */
  async function execute(ctx: RequestContext, run: EvalRunRecord, set: EvalSetRecord, citations: boolean, background: boolean): Promise<void> {
    try {
      const results = [];
      for (const q of set.questions) {
        const { results: hits } = await deps.search.run(ctx.scope, { query: q.question, topK: RESULTS_PER_QUESTION, ...(run.weights ? { weights: run.weights } : {}) });
        const ranked = [...new Set(hits.map((h) => h.documentId))];
        let cited: string[] | null = null;
        if (citations) {
          const answered = await deps.answers.generate(ctx, { query: q.question }, undefined, undefined, { curated: false });
          cited = answered.isOk() ? answered.value.citations.map((c) => c.documentId) : null;
        }
        results.push(scoreQuestion(q, ranked, cited));
        if (background) await new Promise((resolve) => setImmediate(resolve));
      }
      await store.evals.finishRun(ctx.scope, run.id, { status: 'done', metrics: summarize(results), results, error: null, finishedAt: clock.now().toISOString() });
    } catch (error) {
      logger.error('evaluation run failed', { runId: run.id, error: error instanceof Error ? error.message : String(error) });
      await store.evals.finishRun(ctx.scope, run.id, { status: 'failed', metrics: null, results: [], error: 'The run stopped on an internal error.', finishedAt: clock.now().toISOString() });
    }
  }

  return {
    async listSets(ctx: RequestContext): Promise<Result<ReturnType<typeof view>[], PanyaError>> {
      const allowed = requireScope(ctx, 'write');
      if (allowed.isErr()) return err(allowed.error);
      return ok((await store.evals.listSets(ctx.scope, MAX_SETS_LISTED)).map(view));
    },

    async getSet(ctx: RequestContext, id: string): Promise<Result<ReturnType<typeof view>, PanyaError>> {
      const allowed = requireScope(ctx, 'write');
      if (allowed.isErr()) return err(allowed.error);
      const set = await store.evals.getSet(ctx.scope, id);
      return set ? ok(view(set)) : err(setNotFound());
    },

    async createSet(ctx: RequestContext, input: z.output<typeof createEvalSetSchema>): Promise<Result<ReturnType<typeof view>, PanyaError>> {
      const allowed = requireScope(ctx, 'write');
      if (allowed.isErr()) return err(allowed.error);
      const given = await prepare(ctx.scope, input.questions, 'manual', (i) => `questions[${i}]`);
      if (given.isErr()) return err(given.error);
      const questions = merge(await seedQuestions(ctx, input.seed), given.value);
      if (questions.isErr()) return err(questions.error);
      const now = clock.now().toISOString();
      const set: EvalSetRecord = { id: ids.next('evs'), ...ctx.scope, name: input.name, questions: questions.value, createdAt: now, updatedAt: now };
      await store.evals.insertSet(set);
      return ok(view(set));
    },

    async updateSet(ctx: RequestContext, id: string, input: z.output<typeof updateEvalSetSchema>): Promise<Result<ReturnType<typeof view>, PanyaError>> {
      const allowed = requireScope(ctx, 'write');
      if (allowed.isErr()) return err(allowed.error);
      let questions: EvalQuestion[] | undefined;
      if (input.questions) {
        const prepared = await prepare(ctx.scope, input.questions, 'manual', (i) => `questions[${i}]`);
        if (prepared.isErr()) return err(prepared.error);
        questions = prepared.value;
      }
      const updated = await store.evals.updateSet(ctx.scope, id, { ...(input.name ? { name: input.name } : {}), ...(questions ? { questions } : {}), updatedAt: clock.now().toISOString() });
      return updated ? ok(view(updated)) : err(setNotFound());
    },

    /** Adds (or with `replace`, sets) questions from JSON Lines; a bad line changes nothing and is named in the error. */
    async importSet(ctx: RequestContext, id: string, input: z.output<typeof importEvalSetSchema>): Promise<Result<ReturnType<typeof view>, PanyaError>> {
      const allowed = requireScope(ctx, 'write');
      if (allowed.isErr()) return err(allowed.error);
      const set = await store.evals.getSet(ctx.scope, id);
      if (!set) return err(setNotFound());
      const lines = input.jsonl.split(/\r?\n/);
      const parsed: { line: number; q: z.output<typeof evalQuestionSchema> }[] = [];
      const issues: FieldIssue[] = [];
      lines.forEach((text, i) => {
        if (!text.trim() || issues.length >= 50) return;
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          issues.push({ path: `jsonl[${i + 1}]`, message: 'not a JSON object' });
          return;
        }
        const q = evalQuestionSchema.safeParse(value);
        if (q.success) parsed.push({ line: i + 1, q: q.data });
        else issues.push({ path: `jsonl[${i + 1}]`, message: q.error.issues.map((x) => `${x.path.join('.') || '(line)'}: ${x.message}`).join('; ') });
      });
      if (issues.length > 0) return err(errors.invalid(`Invalid JSON Lines: ${issues.map((x) => x.path).join(', ')}.`, issues));
      if (parsed.length === 0) return err(errors.invalid('The JSON Lines hold no question.', [{ path: 'jsonl', message: 'no question' }]));
      if (parsed.length > MAX_EVAL_QUESTIONS) return err(errors.unprocessable(`An evaluation set holds at most ${MAX_EVAL_QUESTIONS} questions.`));
      const prepared = await prepare(ctx.scope, parsed.map((p) => p.q), 'import', (i) => `jsonl[${parsed[i]!.line}]`);
      if (prepared.isErr()) return err(prepared.error);
      const questions = merge(input.replace ? [] : set.questions, prepared.value);
      if (questions.isErr()) return err(questions.error);
      const updated = await store.evals.updateSet(ctx.scope, id, { questions: questions.value, updatedAt: clock.now().toISOString() });
      return updated ? ok(view(updated)) : err(setNotFound());
    },

    /** Deletes the set and its runs. */
    async deleteSet(ctx: RequestContext, id: string): Promise<Result<{ id: string; deleted: true }, PanyaError>> {
      const allowed = requireScope(ctx, 'write');
      if (allowed.isErr()) return err(allowed.error);
      return (await store.evals.deleteSet(ctx.scope, id)) ? ok({ id, deleted: true }) : err(setNotFound());
    },

    /** Starts a run: done when it returns for a small set, `running` (poll `getRun`) for a large one. */
    async startRun(ctx: RequestContext, input: z.output<typeof startEvalRunSchema>): Promise<Result<EvalRunView, PanyaError>> {
      const allowed = requireScope(ctx, 'write');
      if (allowed.isErr()) return err(allowed.error);
      const set = await store.evals.getSet(ctx.scope, input.setId);
      if (!set) return err(setNotFound());
      if (set.questions.length === 0) return err(errors.unprocessable('The evaluation set has no questions yet.', [{ path: 'setId', message: 'empty set' }]));
      const background = set.questions.length > INLINE_EVAL_QUESTIONS;
      if (background) {
        const active = await store.evals.listRuns(ctx.scope, MAX_RUNS_LISTED, set.id);
        if (active.some((r) => r.status === 'running')) return err(errors.conflict('A run of this set is still going; wait for it to finish.'));
        if (running >= MAX_RUNNING_EVALS) return err(errors.conflict('Too many evaluation runs are going at once; try again shortly.'));
      }
      const now = clock.now().toISOString();
      const previous = await store.evals.previousRun(ctx.scope, set.id, now);
      const run: EvalRunRecord = { id: ids.next('evr'), ...ctx.scope, setId: set.id, status: 'running', weights: input.weights ?? null, metrics: null, results: [], previousRunId: previous?.id ?? null, error: null, createdAt: now, finishedAt: null };
      await store.evals.insertRun(run);
      if (!background) {
        await execute(ctx, run, set, input.citations, false);
      } else {
        running++;
        const task = execute(ctx, run, set, input.citations, true).finally(() => {
          running--;
          tasks.delete(run.id);
        });
        tasks.set(run.id, task);
      }
      return ok(await runView(ctx.scope, (await store.evals.getRun(ctx.scope, run.id))!));
    },

    /** Resolves when this process's background run `id` has ended (at once for any other). */
    async finished(id: string): Promise<void> {
      await tasks.get(id);
    },

    async getRun(ctx: RequestContext, id: string): Promise<Result<EvalRunView, PanyaError>> {
      const allowed = requireScope(ctx, 'write');
      if (allowed.isErr()) return err(allowed.error);
      const run = await store.evals.getRun(ctx.scope, id);
      return run ? ok(await runView(ctx.scope, run)) : err(errors.notFound('Evaluation run'));
    },

    /** Newest first, without per-question results. */
    async listRuns(ctx: RequestContext, setId?: string): Promise<Result<Omit<EvalRunRecord, 'tenantId' | 'results'>[], PanyaError>> {
      const allowed = requireScope(ctx, 'write');
      if (allowed.isErr()) return err(allowed.error);
      return ok((await store.evals.listRuns(ctx.scope, MAX_RUNS_LISTED, setId)).map(({ tenantId: _t, results: _r, ...run }) => run));
    },
  };
}

export type EvalService = ReturnType<typeof createEvalService>;
