import { z } from 'zod';
import { CURATED_ORIGINS, type CuratedAnswerRecord } from './ports/curated-answers.js';
import { createCuratedAnswerSchema, updateCuratedAnswerSchema } from './curated-answers.js';
import { defineOperation } from '../operations/types.js';

/*
 * Curated answers (`/curated-answers`), for a `write` key or an editor session: approved answers a
 * workspace pins to a question and its paraphrases.
 */

const idParams = z.looseObject({ id: z.string() });

const curatedAnswerSchema = z.looseObject({
  id: z.string(),
  workspaceId: z.string(),
  question: z.string(),
  paraphrases: z.array(z.string()),
  answer: z.string().describe('Given verbatim to a matching query.'),
  documentIds: z.array(z.string()),
  origin: z.enum(CURATED_ORIGINS),
  originRef: z.string().nullable(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const publicAnswer = ({ tenantId: _t, ...record }: CuratedAnswerRecord) => record;

export const listCuratedAnswers = defineOperation({
  id: 'curated_answers.list',
  http: { method: 'GET', path: '/curated-answers' },
  scope: 'write',
  counted: false,
  input: {},
  output: z.looseObject({ data: z.array(curatedAnswerSchema) }),
  run: async ({ request, services }) => (await services.curatedAnswers.list(request)).map((all) => ({ data: all.map(publicAnswer) })),
});

export const createCuratedAnswer = defineOperation({
  id: 'curated_answers.create',
  http: { method: 'POST', path: '/curated-answers', status: 201, location: (a) => `/curated-answers/${a.id}` },
  scope: 'write',
  counted: false,
  input: { body: createCuratedAnswerSchema },
  output: curatedAnswerSchema,
  run: async ({ request, services }, { body }) => (await services.curatedAnswers.create(request, body)).map(publicAnswer),
});

export const getCuratedAnswer = defineOperation({
  id: 'curated_answers.get',
  http: { method: 'GET', path: '/curated-answers/:id' },
  scope: 'write',
  counted: false,
  input: { params: idParams },
  output: curatedAnswerSchema,
  run: async ({ request, services }, { params }) => (await services.curatedAnswers.get(request, params.id)).map(publicAnswer),
});

export const updateCuratedAnswer = defineOperation({
  id: 'curated_answers.update',
  http: { method: 'PATCH', path: '/curated-answers/:id' },
  scope: 'write',
  counted: false,
  input: { params: idParams, body: updateCuratedAnswerSchema },
  output: curatedAnswerSchema,
  run: async ({ request, services }, { params, body }) => (await services.curatedAnswers.update(request, params.id, body)).map(publicAnswer),
});

export const deleteCuratedAnswer = defineOperation({
  id: 'curated_answers.delete',
  http: { method: 'DELETE', path: '/curated-answers/:id' },
  scope: 'write',
  counted: false,
  input: { params: idParams },
  output: z.looseObject({ id: z.string(), deleted: z.literal(true) }),
  run: ({ request, services }, { params }) => services.curatedAnswers.delete(request, params.id),
});

export const CURATED_ANSWER_OPERATIONS = [listCuratedAnswers, createCuratedAnswer, getCuratedAnswer, updateCuratedAnswer, deleteCuratedAnswer] as const;
