import { z } from 'zod';
import { listSchema } from '../schemas/responses.js';
import { conversationSchema, csatSchema, feedbackSchema, listConversationsSchema, listMessagesSchema, messageListSchema, messageSchema, pollSchema, tagsResponseSchema, tagsSchema } from './conversation-schemas.js';
import { publicConversation } from './conversations.js';
import { defineOperation } from '../operations/types.js';

/*
 * Conversations (the chat turns are their messages) and feedback on answers. What the person
 * chatting does (CSAT, feedback on an answer) needs `read`, like chat itself; tagging is an
 * agent's work and needs `write`.
 */

const idParams = z.looseObject({ id: z.string() });

export const listConversations = defineOperation({
  id: 'conversations.list',
  http: { method: 'GET', path: '/conversations' },
  scope: 'read',
  counted: false,
  input: { query: listConversationsSchema },
  output: listSchema(conversationSchema),
  run: ({ request, services }, { query }) => services.conversations.list(request, query),
});

export const getConversation = defineOperation({
  id: 'conversations.get',
  http: { method: 'GET', path: '/conversations/:id' },
  scope: 'read',
  counted: false,
  input: { params: idParams },
  output: conversationSchema,
  async run({ request, services }, { params }) {
    return (await services.conversations.get(request, params.id)).map(publicConversation);
  },
});

export const listConversationMessages = defineOperation({
  id: 'conversations.messages',
  http: { method: 'GET', path: '/conversations/:id/messages' },
  scope: 'read',
  counted: false,
  input: { params: idParams, query: listMessagesSchema },
  output: messageListSchema,
  run: ({ request, services }, { params, query }) => services.conversations.messages(request, params.id, query),
});

export const pollConversation = defineOperation({
  id: 'conversations.poll',
  // Long-poll: answers as soon as a message after `after` exists, or empty after `timeout` seconds.
  http: { method: 'GET', path: '/conversations/:id/poll' },
  scope: 'read',
  counted: false,
  input: { params: idParams, query: pollSchema },
  output: messageListSchema,
  run: ({ request, services, signal }, { params, query }) => services.conversations.poll(request, params.id, query, signal),
});

export const conversationCsat = defineOperation({
  id: 'conversations.csat',
  http: { method: 'POST', path: '/conversations/:id/csat' },
  scope: 'read',
  counted: false,
  input: { params: idParams, body: csatSchema },
  output: conversationSchema,
  run: ({ request, services }, { params, body }) => services.conversations.csat(request, params.id, body),
});

export const getConversationTags = defineOperation({
  id: 'conversations.tags.list',
  http: { method: 'GET', path: '/conversations/:id/tags' },
  scope: 'read',
  counted: false,
  input: { params: idParams },
  output: tagsResponseSchema,
  run: ({ request, services }, { params }) => services.conversations.tags(request, params.id),
});

export const addConversationTags = defineOperation({
  id: 'conversations.tags.add',
  http: { method: 'POST', path: '/conversations/:id/tags' },
  scope: 'write',
  counted: false,
  input: { params: idParams, body: tagsSchema },
  output: tagsResponseSchema,
  run: ({ request, services }, { params, body }) => services.conversations.changeTags(request, params.id, { add: body.tags }),
});

export const removeConversationTags = defineOperation({
  id: 'conversations.tags.remove',
  http: { method: 'DELETE', path: '/conversations/:id/tags' },
  scope: 'write',
  counted: false,
  input: { params: idParams, body: tagsSchema },
  output: tagsResponseSchema,
  run: ({ request, services }, { params, body }) => services.conversations.changeTags(request, params.id, { remove: body.tags }),
});

export const messageFeedback = defineOperation({
  id: 'messages.feedback',
  http: { method: 'POST', path: '/messages/:id/feedback' },
  scope: 'read',
  counted: false,
  input: { params: idParams, body: feedbackSchema },
  output: messageSchema,
  run: ({ request, services }, { params, body }) => services.conversations.feedback(request, params.id, body),
});

export const CONVERSATION_OPERATIONS = [
  listConversations,
  getConversation,
  listConversationMessages,
  pollConversation,
  conversationCsat,
  getConversationTags,
  addConversationTags,
  removeConversationTags,
  messageFeedback,
];
