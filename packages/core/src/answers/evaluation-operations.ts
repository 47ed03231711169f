import { z } from 'zod';
import { EVAL_QUESTION_SOURCES, EVAL_RUN_STATUSES } from './ports/evaluation.js';
import { createEvalSetSchema, importEvalSetSchema, startEvalRunSchema, updateEvalSetSchema } from './evaluation.js';
import { defineOperation } from '../operations/types.js';

/*
 * Per-workspace evaluation (`/eval/sets`, `/eval/runs`), for a `write` key or an editor session.
 */

const idParams = z.looseObject({ id: z.string() });

const questionSchema = z.looseObject({ id: z.string(), question: z.string(), documentIds: z.array(z.string()), source: z.enum(EVAL_QUESTION_SOURCES) });
const setSchema = z.looseObject({ id: z.string(), workspaceId: z.string(), name: z.string(), questions: z.array(questionSchema), createdAt: z.string(), updatedAt: z.string() });

const metricsSchema = z.looseObject({
  hitAt1: z.number(),
  hitAt5: z.number(),
  mrr: z.number().describe('Mean reciprocal rank of the first expected document (top 10).'),
  ndcgAt10: z.number(),
  citationAccuracy: z.number().nullable().describe('Share of cited documents that are expected ones; null when nothing was cited or citations were not scored.'),
  questions: z.number().int(),
});
const resultSchema = z.looseObject({
  questionId: z.string(),
  question: z.string(),
  rank: z.number().int().nullable(),
  reciprocalRank: z.number(),
  ndcgAt10: z.number(),
  cited: z.array(z.string()).nullable(),
  citationAccuracy: z.number().nullable(),
});
const changeSchema = z.looseObject({ questionId: z.string(), question: z.string(), before: z.number().int().nullable(), after: z.number().int().nullable() });
const diffSchema = z.looseObject({
  previousRunId: z.string(),
  metrics: z.record(z.string(), z.number().nullable()).describe('This run minus the previous one, per metric.'),
  wins: z.array(changeSchema),
  losses: z.array(changeSchema),
  unchanged: z.number().int(),
  added: z.number().int(),
  removed: z.number().int(),
});
const runSummarySchema = z.looseObject({
  id: z.string(),
  workspaceId: z.string(),
  setId: z.string(),
  status: z.enum(EVAL_RUN_STATUSES),
  weights: z.looseObject({ lexical: z.number().optional(), semantic: z.number().optional(), trigram: z.number().optional() }).nullable(),
  metrics: metricsSchema.nullable(),
  previousRunId: z.string().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
const runSchema = runSummarySchema.extend({ results: z.array(resultSchema), diff: diffSchema.nullable().describe('Compared with the set\'s previous finished run; null for the first.') });

export const listEvalSets = defineOperation({
  id: 'eval.list_sets',
  http: { method: 'GET', path: '/eval/sets' },
  scope: 'write',
  counted: false,
  input: {},
  output: z.looseObject({ data: z.array(setSchema) }),
  run: async ({ request, services }) => (await services.evals.listSets(request)).map((data) => ({ data })),
});

export const createEvalSet = defineOperation({
  id: 'eval.create_set',
  http: { method: 'POST', path: '/eval/sets', status: 201, location: (s) => `/eval/sets/${s.id}` },
  scope: 'write',
  counted: false,
  input: { body: createEvalSetSchema },
  output: setSchema,
  run: ({ request, services }, { body }) => services.evals.createSet(request, body),
});

export const getEvalSet = defineOperation({
  id: 'eval.get_set',
  http: { method: 'GET', path: '/eval/sets/:id' },
  scope: 'write',
  counted: false,
  input: { params: idParams },
  output: setSchema,
  run: ({ request, services }, { params }) => services.evals.getSet(request, params.id),
});

export const updateEvalSet = defineOperation({
  id: 'eval.update_set',
  http: { method: 'PATCH', path: '/eval/sets/:id' },
  scope: 'write',
  counted: false,
  input: { params: idParams, body: updateEvalSetSchema },
  output: setSchema,
  run: ({ request, services }, { params, body }) => services.evals.updateSet(request, params.id, body),
});

export const importEvalSet = defineOperation({
  id: 'eval.import_set',
  http: { method: 'POST', path: '/eval/sets/:id/import' },
  scope: 'write',
  counted: false,
  input: { params: idParams, body: importEvalSetSchema },
  output: setSchema,
  run: ({ request, services }, { params, body }) => services.evals.importSet(request, params.id, body),
});

export const deleteEvalSet = defineOperation({
  id: 'eval.delete_set',
  http: { method: 'DELETE', path: '/eval/sets/:id' },
  scope: 'write',
  counted: false,
  input: { params: idParams },
  output: z.looseObject({ id: z.string(), deleted: z.literal(true) }),
  run: ({ request, services }, { params }) => services.evals.deleteSet(request, params.id),
});

export const startEvalRun = defineOperation({
  id: 'eval.start_run',
  // 201 with the finished run; 202 while a large set is still running (poll its Location).
  http: { method: 'POST', path: '/eval/runs', status: (_input, run) => (run.status === 'running' ? 202 : 201), location: (run) => `/eval/runs/${run.id}` },
  scope: 'write',
  counted: false,
  input: { body: startEvalRunSchema },
  output: runSchema,
  run: ({ request, services }, { body }) => services.evals.startRun(request, body),
});

export const listEvalRuns = defineOperation({
  id: 'eval.list_runs',
  http: { method: 'GET', path: '/eval/runs' },
  scope: 'write',
  counted: false,
  input: { query: z.looseObject({ setId: z.string().min(1).max(100).optional() }) },
  output: z.looseObject({ data: z.array(runSummarySchema) }),
  run: async ({ request, services }, { query }) => (await services.evals.listRuns(request, query.setId)).map((data) => ({ data })),
});

export const getEvalRun = defineOperation({
  id: 'eval.get_run',
  http: { method: 'GET', path: '/eval/runs/:id' },
  scope: 'write',
  counted: false,
  input: { params: idParams },
  output: runSchema,
  run: ({ request, services }, { params }) => services.evals.getRun(request, params.id),
});

export const EVAL_OPERATIONS = [listEvalSets, createEvalSet, getEvalSet, updateEvalSet, importEvalSet, deleteEvalSet, startEvalRun, listEvalRuns, getEvalRun] as const;
