/**
 * Resolutions as records: one per conversation, written by the detector once the conversation
 * qualifies (DESIGN: a grounded AI answer, no hand-off or ticket, no thumbs-down, idle 30
 * minutes) and counted per billing period (the UTC month of its last activity).
 */
import type { MeterKey } from './billing.js';
import type { ConversationRecord } from '../../answers/ports/conversations.js';
import type { Scope } from '../../ports/scope.js';
import type { TimeRange } from '../../tenancy/ports/usage.js';

/** Why a conversation stops being billable: a thumbs-down, or a hand-off to a human / a ticket. */
export type DisqualifyReason = 'thumbs_down' | 'ticket' | 'dispute';

/**
 * What a disqualification did to billing: nothing was counted yet; the resolution was removed
 * before any report; or it had been reported already and is refunded in the next report.
 */
export type DisqualifyOutcome = 'not_counted' | 'removed' | 'refunded';

export interface ResolutionRecord {
  id: string;
  tenantId: string;
  workspaceId: string;
  /** Unique: a conversation is counted at most once. */
  conversationId: string;
  /** `YYYY-MM` (UTC) of the conversation's last activity when it was counted. */
  billingPeriod: string;
  createdAt: string;
  /** The period whose usage report included it; null until then. */
  reportedPeriod: string | null;
  /** Disqualified after it was reported: no longer counted; credited once in a later report. */
  refundedAt: string | null;
  /** The period whose report subtracted the refund; null while the credit is still due. */
  correctedPeriod: string | null;
}

export interface ResolutionStore {
  /**
   * Conversations (of one tenant, or all) that qualify and are not counted yet: a grounded
   * answer, no thumbs-down, no hand-off, last activity from `from` to `idleBefore`. Oldest first.
   */
  candidates(window: { from: string; idleBefore: string }, limit: number, tenantId?: string): Promise<ConversationRecord[]>;
  /**
   * Counts the conversation unless it is counted already or was disqualified meanwhile (checked
   * in the same statement, so a concurrent thumbs-down is never lost). True when written.
   */
  record(resolution: ResolutionRecord): Promise<boolean>;
  /** Resolutions of a tenant's period that count (refunded ones do not). */
  count(tenantId: string, period: string, range?: TimeRange): Promise<number>;
  /** By period, then conversation id; `after` (a conversation id) and `limit` page through a period. */
  list(tenantId: string, period?: string, page?: { after?: string; limit?: number }): Promise<ResolutionRecord[]>;
  get(tenantId: string, id: string): Promise<ResolutionRecord | null>;
  /**
   * Sets the conversation's flag for `reason` (for good); false when the workspace has no such
   * conversation. On a store that locks rows, the conversation stays locked until the
   * transaction ends, so a concurrent `record` waits and then sees the flag.
   */
  flagConversation(scope: Scope, conversationId: string, reason: DisqualifyReason): Promise<boolean>;
  /** The conversation's resolution, if it was counted. */
  forConversation(tenantId: string, conversationId: string): Promise<ResolutionRecord | null>;
  /** Deletes a resolution (one no report included yet). */
  remove(tenantId: string, id: string): Promise<void>;
  /** Marks a reported resolution refunded (once: a second call keeps the first instant). */
  refund(tenantId: string, id: string, at: string): Promise<void>;
  /** Marks the period's counted resolutions as reported; returns how many count in the period. */
  markReported(tenantId: string, period: string): Promise<number>;
  /** Refunds of reported resolutions not yet credited, per period they were reported in. */
  uncorrectedRefunds(tenantId: string): Promise<{ period: string; count: number }[]>;
  /** Records that the refunds of `period` were credited in the report of `correctedIn`. */
  markCorrected(tenantId: string, period: string, correctedIn: string): Promise<void>;
  /** Meter credits still to subtract from later reports (refunds larger than one report's value). */
  credits(tenantId: string): Promise<Partial<Record<MeterKey, number>>>;
  /** Adds `delta` (may be negative) to the tenant's credit per meter. */
  addCredits(tenantId: string, delta: Partial<Record<MeterKey, number>>): Promise<void>;
}
