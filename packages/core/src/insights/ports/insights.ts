/**
 * The improvement loop's records: the question log (every answer and chat turn with its evidence
 * strength), the content-gap clusters computed from it, and feedback tied to the passages an
 * answer cited. Workspace-scoped like all tenant data.
 */
import type { FeedbackRating } from '../../answers/ports/conversations.js';
import type { Page } from '../../ports/page.js';
import type { Scope } from '../../ports/scope.js';

/** How well an answer was supported: `refused` cited nothing, `low_evidence` cited for under half its sentences. */
export const ANSWER_OUTCOMES = ['answered', 'low_evidence', 'refused'] as const;
export type AnswerOutcome = (typeof ANSWER_OUTCOMES)[number];

/** A passage an answer cited, with the version (the document's `updatedAt`) it came from. */
export interface CitedPassage {
  documentId: string;
  chunkId: string;
  documentVersion: string;
}

export interface QuestionRecord {
  id: string;
  tenantId: string;
  workspaceId: string;
  /** Masked of personal data before it is stored. */
  question: string;
  source: 'answer' | 'chat';
  outcome: AnswerOutcome;
  /** The best fused search score among the passages; null when retrieval found nothing. */
  topScore: number | null;
  groundedSentences: number;
  sentences: number;
  conversationId: string | null;
  /** The assistant message that answered it (chat turns). */
  messageId: string | null;
  citations: CitedPassage[];
  thumbsDown: boolean;
  handedOff: boolean;
  createdAt: string;
}

/** A stored computation of a workspace's gaps for one period. */
export interface GapSnapshot {
  period: string;
  computedAt: string;
  questions: number;
  clusters: unknown[];
}

/** What is stored for a workspace and period: the last computation (if any) and a pending request. */
export interface StoredGaps {
  period: string;
  computedAt: string | null;
  questions: number;
  clusters: unknown[];
  requestedAt: string | null;
}

export interface GapRequest {
  tenantId: string;
  workspaceId: string;
  period: string;
  requestedAt: string;
}

export interface QuestionLogStore {
  record(question: QuestionRecord): Promise<void>;
  /** Marks the questions of one answer (`messageId`) or of a whole conversation. */
  mark(scope: Scope, target: { messageId: string } | { conversationId: string }, flags: { thumbsDown?: true; handedOff?: true }): Promise<number>;
  byMessage(scope: Scope, messageId: string): Promise<QuestionRecord | null>;
  /** The version (`updatedAt`) of each of these documents of the workspace, without reading their content. */
  documentVersions(scope: Scope, documentIds: readonly string[]): Promise<Map<string, string>>;
  /**
   * Questions asked in `[since, until)` that were refused, weakly grounded, thumbed down or handed
   * off, oldest first, after `after` (the last one of the previous slice).
   */
  gapQuestions(scope: Scope, window: { since: string; until: string }, options: { after?: Pick<QuestionRecord, 'createdAt' | 'id'>; limit: number }): Promise<QuestionRecord[]>;
  getGaps(scope: Scope, period: string): Promise<StoredGaps | null>;
  /**
   * Asks for a recomputation unless one computed at or after `staleBefore` is stored by now (a
   * read that raced with the job's save asks for nothing); an earlier pending request is kept.
   */
  requestGaps(scope: Scope, period: string, at: string, staleBefore: string): Promise<void>;
  /** Oldest requests first; of one tenant when given. */
  pendingGapRequests(limit: number, tenantId?: string): Promise<GapRequest[]>;
  /** Stores a computation and clears a request made at or before `requestedAt`. */
  saveGaps(scope: Scope, snapshot: GapSnapshot, requestedAt: string | null): Promise<void>;
}

export interface FeedbackCitation extends CitedPassage {
  /** When an edit of the document replaced the version this feedback was given on. */
  addressedAt: string | null;
}

export interface FeedbackRecord {
  id: string;
  tenantId: string;
  workspaceId: string;
  messageId: string;
  conversationId: string;
  rating: FeedbackRating;
  comment: string | null;
  /** The question answered, masked of personal data. */
  question: string | null;
  citations: FeedbackCitation[];
  createdAt: string;
  updatedAt: string;
}

export interface FeedbackFilter {
  rating?: FeedbackRating;
  hasComment?: boolean;
  documentId?: string;
  since?: string;
  until?: string;
}

/** A chunk of a document and the negative feedback on answers that cited it. */
export interface ChunkFeedback {
  chunkId: string;
  documentVersion: string;
  negative: number;
  lastAt: string;
  /** How many of them were addressed by an edit since. */
  addressed: number;
}

export interface FeedbackStore {
  /** Records the feedback on a message, replacing an earlier one (its citations too). */
  upsert(record: FeedbackRecord): Promise<void>;
  /** Newest first (by id); `after` is the id to continue after. */
  list(scope: Scope, filter: FeedbackFilter, options: { after?: string; limit: number }): Promise<Page<FeedbackRecord>>;
  /** The document's chunks that drew thumbs-down, most first. */
  negativeChunks(scope: Scope, documentId: string, limit: number): Promise<ChunkFeedback[]>;
  /** Marks the unaddressed feedback citing the document as addressed (an edit replaced its version). */
  markAddressed(scope: Scope, documentId: string, at: string): Promise<number>;
}
