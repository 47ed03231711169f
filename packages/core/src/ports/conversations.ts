/** Conversations and their messages (chat history), workspace-scoped like all tenant data. */
import type { Scope } from './scope.js';

export type Citation = {
  n: number;
  documentId: string;
  chunkId: string;
  title: string;
  url: string | null;
  snippet: string;
};

export interface ConversationRecord {
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
}

export interface MessageRecord {
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

export interface ConversationStore {
  insert(conversation: ConversationRecord): Promise<void>;
  get(scope: Scope, id: string): Promise<ConversationRecord | null>;
  /** Appends a message and moves the conversation's activity time and grounding flag along. */
  appendMessage(scope: Scope, message: MessageRecord): Promise<void>;
  /** The latest `limit` messages, oldest first. */
  messages(scope: Scope, conversationId: string, limit: number): Promise<MessageRecord[]>;
  /**
   * Conversations of a tenant (all workspaces) that would count as resolutions in a billing
   * period but are not counted yet (no resolution record): a grounded answer, no thumbs-down, no
   * hand-off, last activity in the period and, when `idleBefore` is given, none since then.
   */
  countBillable(tenantId: string, period: { start: string; end: string }, idleBefore?: string): Promise<number>;
}
