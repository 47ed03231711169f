/** Conversations and their messages (chat history), workspace-scoped like all tenant data. */
import type { Page } from '../../ports/page.js';
import type { Scope } from '../../ports/scope.js';

export type Citation = {
  n: number;
  documentId: string;
  chunkId: string;
  title: string;
  /** (Absent on messages stored before citations carried it.) The section of the document the cited chunk is in, outermost heading first. */
  headingPath?: string[];
  /** The document's source link, if it has one. */
  url: string | null;
  /** The cited section in the help center (`…/articles/{id}#{heading}`); null when the document is not published there. */
  articleUrl?: string | null;
  snippet: string;
};

/**
 * Who started a conversation: a publishable key (a page anyone can read) or a private caller
 * (a secret key, a signed-in user). A public caller continues only public conversations.
 */
export const CONVERSATION_STARTERS = ['public', 'private'] as const;
export type ConversationStarter = (typeof CONVERSATION_STARTERS)[number];

export interface NewConversation {
  id: string;
  tenantId: string;
  workspaceId: string;
  locale: 'th' | 'en';
  /** At least one answer was grounded in the knowledge base (a resolution candidate). */
  hasGroundedAnswer: boolean;
  /** Any thumbs-down disqualifies the whole conversation from billing. */
  hasThumbsDown: boolean;
  /** Handed to a human or turned into a ticket: not an AI resolution. */
  handedOff: boolean;
  createdAt: string;
  lastMessageAt: string;
  /** Default `private`. */
  startedBy?: ConversationStarter;
}

/** A conversation as stored and read back: the fields chat writes plus the support ones. */
export interface ConversationRecord extends NewConversation {
  /** Conversations stored before this was recorded read as `private`. */
  startedBy: ConversationStarter;
  /** An answer cited nothing: the inbox shows it for a human to look at. */
  hasUngroundedAnswer: boolean;
  /** The visitor whose contact details were captured on it. */
  visitorId: string | null;
  /** Customer satisfaction, 1–5, with an optional comment. */
  csat: { score: number; comment: string | null; at: string } | null;
  /** Sorted, distinct. */
  tags: string[];
}

export const FEEDBACK_RATINGS = ['up', 'down'] as const;
export type FeedbackRating = (typeof FEEDBACK_RATINGS)[number];

export type MessageFeedback = {
  rating: FeedbackRating;
  comment: string | null;
  at: string;
};

export interface MessageRecord extends NewMessage {
  feedback: MessageFeedback | null;
}

export interface NewMessage {
  id: string;
  conversationId: string;
  tenantId: string;
  workspaceId: string;
  role: 'user' | 'assistant';
  content: string;
  citations: Citation[];
  /** For assistant messages: whether the answer cited the knowledge base. */
  grounded: boolean | null;
  createdAt: string;
}

export interface ConversationFilter {
  /** True: only conversations handed to a human (a ticket); false: only the others. */
  handedOff?: boolean;
  tag?: string;
  visitorId?: string;
  /** Only conversations with activity at or after this time. */
  since?: string;
}

export interface ConversationStore {
  insert(conversation: NewConversation): Promise<void>;
  get(scope: Scope, id: string): Promise<ConversationRecord | null>;
  /** Appends a message and moves the conversation's activity time and grounding flag along. */
  appendMessage(scope: Scope, message: NewMessage): Promise<void>;
  /** The latest `limit` messages, oldest first. */
  messages(scope: Scope, conversationId: string, limit: number): Promise<MessageRecord[]>;
  /**
   * Conversations of a tenant (all workspaces) that would count as resolutions in a billing
   * period but are not counted yet (no resolution record): a grounded answer, no thumbs-down, no
   * hand-off, last activity in the period and, when `idleBefore` is given, none since then.
   */
  /** Conversations of a workspace, newest first; `after` is the id to continue after. */
  list(scope: Scope, filter: ConversationFilter, options: { after?: string; limit: number }): Promise<Page<ConversationRecord>>;
  /** Messages of a conversation oldest first, those after the message `after` (by id). */
  messagesAfter(scope: Scope, conversationId: string, options: { after?: string; limit: number }): Promise<Page<MessageRecord>>;
  getMessage(scope: Scope, id: string): Promise<MessageRecord | null>;
  /** Records (or replaces) the feedback on a message; returns the updated message, null when not in scope. */
  setFeedback(scope: Scope, messageId: string, feedback: MessageFeedback): Promise<MessageRecord | null>;
  setCsat(scope: Scope, id: string, csat: NonNullable<ConversationRecord['csat']>): Promise<ConversationRecord | null>;
  /**
   * Adds and removes tags in one atomic step, unless the result would hold more than `max`
   * tags. Returns the updated record, `'too_many'`, or null when not in scope.
   */
  updateTags(scope: Scope, id: string, change: { add: readonly string[]; remove: readonly string[] }, max: number): Promise<ConversationRecord | 'too_many' | null>;
  setVisitor(scope: Scope, id: string, visitorId: string): Promise<ConversationRecord | null>;
  countBillable(tenantId: string, period: { start: string; end: string }, idleBefore?: string): Promise<number>;
}
