import { answerSchema } from './schemas.js';
import { answerResponseSchema, searchResponseSchema } from '../schemas/responses.js';
import { searchSchema } from '../search/schemas.js';
import { ok } from 'neverthrow';
import { defineOperation } from '../operations/types.js';
import { redactorFor } from '../privacy/settings.js';

export const search = defineOperation({
  id: 'search',
  http: { method: 'POST', path: '/search' },
  scope: 'read',
  acceptsPublishable: true,
  counted: 'search',
  input: { body: searchSchema },
  output: searchResponseSchema,
  async run({ request, services }, { body }) {
    return ok(await services.search.forCaller(request, body));
  },
});

export const answer = defineOperation({
  id: 'answer',
  http: { method: 'POST', path: '/answer' },
  scope: 'read',
  acceptsPublishable: true,
  counted: 'answer',
  input: { body: answerSchema },
  output: answerResponseSchema,
  run({ request, services, signal }, { body }) {
    return services.answers.generate(request, body, signal);
  },
});

export const QUERY_OPERATIONS = [search, answer];
