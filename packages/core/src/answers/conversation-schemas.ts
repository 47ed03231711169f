import { z } from 'zod';
import { FEEDBACK_RATINGS } from './ports/conversations.js';
import { LOCALES } from '../messages.js';
import { citationSchema } from '../schemas/responses.js';

/*
 * Conversations: what the conversation, message, poll, CSAT, tag and feedback routes accept and
 * answer. Inputs are strict (an unknown field is a mistake worth a 400); outputs are open like
 * every response schema.
 */

const cursor = z.string().max(200).optional();
const limit = z.coerce.number().int().min(1).max(100).default(20);
const comment = z.string().trim().max(2000);
const isoTime = z.iso.datetime({ offset: true });

/** Conversation status: `handed_off` once a ticket was opened from it, else `open`. */
export const CONVERSATION_STATUSES = ['open', 'handed_off'] as const;

export const listConversationsSchema = z.strictObject({
  status: z.enum(CONVERSATION_STATUSES).optional(),
  tag: z.string().trim().min(1).max(50).transform((t) => t.toLowerCase()).optional(),
  since: isoTime.optional().describe('Only conversations with activity at or after this time.'),
  cursor,
  limit,
});

export const listMessagesSchema = z.strictObject({ cursor, limit });

/** Longest a poll waits for a new message, in seconds. */
export const MAX_POLL_SECONDS = 25;

export const pollSchema = z.strictObject({
  after: z.string().max(100).optional().describe('The last message id the client has; absent: any message counts.'),
  timeout: z.coerce.number().int().min(0).max(MAX_POLL_SECONDS).default(MAX_POLL_SECONDS).describe('Seconds to wait for a new message.'),
});

export const csatSchema = z.strictObject({
  score: z.number().int().min(1).max(5),
  comment: comment.optional(),
});

/** At most this many tags on one conversation. */
export const MAX_TAGS = 20;
const tag = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[\p{L}\p{N}][\p{L}\p{N}\p{M} _.:-]{0,49}$/u, 'a tag is 1–50 letters, digits, spaces or _ . : -');
export const tagsSchema = z.strictObject({ tags: z.array(tag).min(1).max(MAX_TAGS) });

export const feedbackSchema = z.strictObject({
  rating: z.enum(FEEDBACK_RATINGS),
  comment: comment.optional(),
});

const csatJson = z.looseObject({ score: z.number().int(), comment: z.string().nullable(), at: z.string() }).nullable();

export const conversationSchema = z.looseObject({
  id: z.string(),
  workspaceId: z.string(),
  status: z.enum(CONVERSATION_STATUSES),
  locale: z.enum(LOCALES),
  hasGroundedAnswer: z.boolean(),
  hasUngroundedAnswer: z.boolean(),
  hasThumbsDown: z.boolean().describe('Any thumbs-down disqualifies the conversation from being a resolution.'),
  handedOff: z.boolean(),
  visitorId: z.string().nullable(),
  csat: csatJson,
  tags: z.array(z.string()),
  createdAt: z.string(),
  lastMessageAt: z.string(),
  firstQuestion: z.string().nullable().optional().describe('In lists: the opening question (its first 200 characters), so conversations can be told apart.'),
});
export type ConversationJson = z.infer<typeof conversationSchema>;

const feedbackJson = z.looseObject({ rating: z.enum(FEEDBACK_RATINGS), comment: z.string().nullable(), at: z.string() }).nullable();

export const messageSchema = z.looseObject({
  id: z.string(),
  conversationId: z.string(),
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  citations: z.array(citationSchema.partial({ headingPath: true, articleUrl: true })).describe('headingPath and articleUrl are absent on messages stored before citations carried them.'),
  grounded: z.boolean().nullable(),
  feedback: feedbackJson,
  createdAt: z.string(),
});
export type MessageJson = z.infer<typeof messageSchema>;

/** Messages in time order (oldest first), unlike the other lists. */
export const messageListSchema = z.looseObject({
  data: z.array(messageSchema).describe('Oldest first.'),
  hasMore: z.boolean(),
  nextCursor: z.string().nullable().describe('Pass as `cursor` (or to poll as `after`) to continue; null when there is nothing more.'),
});

export const tagsResponseSchema = z.looseObject({ tags: z.array(z.string()) });
