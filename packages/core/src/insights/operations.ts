import { z } from 'zod';
import { listSchema } from '../schemas/responses.js';
import { documentFeedbackSchema, feedbackItemSchema, gapsQuerySchema, gapsResponseSchema, listFeedbackSchema } from './schemas.js';
import { defineOperation } from '../operations/types.js';

/*
 * The improvement loop for a workspace's editors: content gaps (what the knowledge base answers
 * badly) and feedback traced to the passages it was given on. Read like conversations: a secret
 * key's `read` scope or a member's role; never a publishable key.
 */

export const contentGaps = defineOperation({
  id: 'insights.gaps',
  http: { method: 'GET', path: '/insights/gaps' },
  scope: 'read',
  counted: false,
  input: { query: gapsQuerySchema },
  output: gapsResponseSchema,
  run: ({ request, services }, { query }) => services.insights.gaps(request, query),
});

export const listFeedback = defineOperation({
  id: 'feedback.list',
  http: { method: 'GET', path: '/feedback' },
  scope: 'read',
  counted: false,
  input: { query: listFeedbackSchema },
  output: listSchema(feedbackItemSchema),
  run: ({ request, services }, { query }) => services.insights.feedback(request, query),
});

export const documentFeedback = defineOperation({
  id: 'documents.feedback',
  http: { method: 'GET', path: '/docs/:id/feedback' },
  scope: 'read',
  counted: false,
  input: { params: z.looseObject({ id: z.string() }) },
  output: documentFeedbackSchema,
  run: ({ request, services }, { params }) => services.insights.documentFeedback(request, params.id),
});

export const INSIGHT_OPERATIONS = [contentGaps, listFeedback, documentFeedback];
