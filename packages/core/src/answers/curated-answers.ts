/**
 * Curated answers: CRUD of a workspace's approved answers, and the match every door (answer,
 * chat, `svc_answer`, the help center's ask box) asks before it retrieves: a query close enough to
 * a curated question gets its answer verbatim. Matching never leaves the request's workspace.
 */
import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import { bestMatch, CURATED_MATCH_THRESHOLD, questionKey, type QuestionKey } from './curated-match.js';
import { errors, type PanyaError } from '../errors.js';
import { CURATED_ORIGINS, type CuratedAnswerRecord } from './ports/curated-answers.js';
import type { Scope } from '../ports/scope.js';
import { requireScope, type RequestContext, type ServiceDeps } from '../context.js';

/** Curated answers a workspace may keep: every query is compared with all of them. */
export const MAX_CURATED_ANSWERS = 500;
const MAX_PARAPHRASES = 20;

const questionText = z.string().trim().min(3).max(500);
const documentIds = z.array(z.string().min(1).max(100)).max(20);

export const createCuratedAnswerSchema = z
  .strictObject({
    question: questionText,
    paraphrases: z.array(questionText).max(MAX_PARAPHRASES).default([]),
    answer: z.string().trim().min(1).max(8000),
    documentIds: documentIds.default([]),
    origin: z.enum(CURATED_ORIGINS).default('manual').describe('Where it came from: a content gap, a feedback item, or written by hand.'),
    originRef: z.string().min(1).max(200).nullable().default(null).describe('The gap cluster or feedback item id it was created from.'),
  })
  .refine((v) => (v.origin === 'manual') === (v.originRef === null), { message: 'originRef names the gap or feedback item (required for those origins, absent for manual)', path: ['originRef'] });

export const updateCuratedAnswerSchema = z
  .strictObject({
    question: questionText.optional(),
    paraphrases: z.array(questionText).max(MAX_PARAPHRASES).optional(),
    answer: z.string().trim().min(1).max(8000).optional(),
    documentIds: documentIds.optional(),
  })
  .refine((v) => Object.keys(v).length > 0, 'give question, paraphrases, answer or documentIds');

/** What an answer says about the curated answer it gave. */
export type CuratedMark = {
  id: string;
  question: string;
  origin: CuratedAnswerRecord['origin'];
  originRef: string | null;
  documentIds: string[];
};

export const curatedMark = (r: CuratedAnswerRecord): CuratedMark => ({ id: r.id, question: r.question, origin: r.origin, originRef: r.originRef, documentIds: r.documentIds });

/** Keys of the texts of one curated answer, kept while it is unchanged (segmenting is the costly part). */
const KEY_CACHE_LIMIT = 5_000;

export function createCuratedAnswerService(deps: ServiceDeps) {
  const { store, clock, ids } = deps;
  const notFound = () => errors.notFound('Curated answer');
  const keys = new Map<string, { updatedAt: string; keys: QuestionKey[] }>();

  function keysOf(r: CuratedAnswerRecord): QuestionKey[] {
    const cached = keys.get(r.id);
    if (cached && cached.updatedAt === r.updatedAt) return cached.keys;
    if (keys.size >= KEY_CACHE_LIMIT) keys.clear();
    const computed = [r.question, ...r.paraphrases].map(questionKey);
    keys.set(r.id, { updatedAt: r.updatedAt, keys: computed });
    return computed;
  }

  async function checkDocuments(scope: Scope, wanted: readonly string[]): Promise<Result<void, PanyaError>> {
    if (wanted.length === 0) return ok(undefined);
    const found = new Set((await store.documents.getRefs(scope, wanted)).map((d) => d.id));
    const missing = wanted.filter((id) => !found.has(id));
    return missing.length === 0 ? ok(undefined) : err(errors.unprocessable('Every documentId must name a document of this workspace.', missing.map((id) => ({ path: 'documentIds', message: `no document ${id}` }))));
  }

  return {
    async list(ctx: RequestContext): Promise<Result<CuratedAnswerRecord[], PanyaError>> {
      const allowed = requireScope(ctx, 'write');
      if (allowed.isErr()) return err(allowed.error);
      return ok(await store.curatedAnswers.list(ctx.scope, MAX_CURATED_ANSWERS));
    },

    async get(ctx: RequestContext, id: string): Promise<Result<CuratedAnswerRecord, PanyaError>> {
      const allowed = requireScope(ctx, 'write');
      if (allowed.isErr()) return err(allowed.error);
      const found = await store.curatedAnswers.get(ctx.scope, id);
      return found ? ok(found) : err(notFound());
    },

    async create(ctx: RequestContext, input: z.output<typeof createCuratedAnswerSchema>): Promise<Result<CuratedAnswerRecord, PanyaError>> {
      const allowed = requireScope(ctx, 'write');
      if (allowed.isErr()) return err(allowed.error);
      const docs = await checkDocuments(ctx.scope, input.documentIds);
      if (docs.isErr()) return err(docs.error);
      if ((await store.curatedAnswers.count(ctx.scope)) >= MAX_CURATED_ANSWERS) return err(errors.conflict(`A workspace keeps at most ${MAX_CURATED_ANSWERS} curated answers; delete one first.`));
      const now = clock.now().toISOString();
      const record: CuratedAnswerRecord = { id: ids.next('cans'), ...ctx.scope, ...input, documentIds: [...new Set(input.documentIds)], createdBy: ctx.principal.id, createdAt: now, updatedAt: now };
      await store.curatedAnswers.insert(record);
      return ok(record);
    },

    async update(ctx: RequestContext, id: string, input: z.output<typeof updateCuratedAnswerSchema>): Promise<Result<CuratedAnswerRecord, PanyaError>> {
      const allowed = requireScope(ctx, 'write');
      if (allowed.isErr()) return err(allowed.error);
      if (input.documentIds) {
        const docs = await checkDocuments(ctx.scope, input.documentIds);
        if (docs.isErr()) return err(docs.error);
      }
      const updated = await store.curatedAnswers.update(ctx.scope, id, { ...input, ...(input.documentIds ? { documentIds: [...new Set(input.documentIds)] } : {}), updatedAt: clock.now().toISOString() });
      return updated ? ok(updated) : err(notFound());
    },

    async delete(ctx: RequestContext, id: string): Promise<Result<{ id: string; deleted: true }, PanyaError>> {
      const allowed = requireScope(ctx, 'write');
      if (allowed.isErr()) return err(allowed.error);
      return (await store.curatedAnswers.delete(ctx.scope, id)) ? ok({ id, deleted: true }) : err(notFound());
    },

    /**
     * The workspace's curated answer for a question, or null: the closest one whose question or a
     * paraphrase reaches `CURATED_MATCH_THRESHOLD` (and names the same numbers). Only `scope`'s
     * answers are compared.
     */
    async match(scope: Scope, question: string): Promise<CuratedAnswerRecord | null> {
      const records = await store.curatedAnswers.list(scope, MAX_CURATED_ANSWERS);
      if (records.length === 0) return null;
      const query = questionKey(question);
      const found = bestMatch(query, records.map((r) => ({ record: r, keys: keysOf(r) })), CURATED_MATCH_THRESHOLD);
      return found?.record ?? null;
    },
  };
}

export type CuratedAnswerService = ReturnType<typeof createCuratedAnswerService>;
