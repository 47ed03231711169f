/**
 * Curated answers: an approved answer a workspace pins to a question and its paraphrases. Answer,
 * chat, `svc_answer` and the help center's ask box give it verbatim when a query matches.
 */
import type { Scope } from '../../ports/scope.js';

/** Where a curated answer came from: a content gap, a feedback item, or written by hand. */
export const CURATED_ORIGINS = ['gap', 'feedback', 'manual'] as const;
export type CuratedOrigin = (typeof CURATED_ORIGINS)[number];

export interface CuratedAnswerRecord {
  id: string;
  tenantId: string;
  workspaceId: string;
  question: string;
  paraphrases: string[];
  /** Returned verbatim: numbers and wording exactly as approved. */
  answer: string;
  /** Documents the answer rests on (its citations; an evaluation question's expected documents). */
  documentIds: string[];
  origin: CuratedOrigin;
  /** The gap cluster or feedback item it was created from; null when written by hand. */
  originRef: string | null;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

export type CuratedAnswerPatch = Partial<Pick<CuratedAnswerRecord, 'question' | 'paraphrases' | 'answer' | 'documentIds'>> & { updatedAt: string };

export interface CuratedAnswerStore {
  insert(record: CuratedAnswerRecord): Promise<void>;
  get(scope: Scope, id: string): Promise<CuratedAnswerRecord | null>;
  /** The workspace's curated answers, oldest first, at most `limit`. */
  list(scope: Scope, limit: number): Promise<CuratedAnswerRecord[]>;
  /** Null when the workspace has no such answer. */
  update(scope: Scope, id: string, patch: CuratedAnswerPatch): Promise<CuratedAnswerRecord | null>;
  delete(scope: Scope, id: string): Promise<boolean>;
  count(scope: Scope): Promise<number>;
}
