/**
 * Resolutions (DESIGN): a conversation with at least one grounded AI answer, no human hand-off
 * or ticket, no thumbs-down, idle for 30 minutes — one per conversation, in the billing period
 * (UTC month) of its last activity. The detector job writes them as records; billing counts
 * the records; a later disqualification removes or refunds them.
 */
import type { ConversationRecord, ConversationStore } from '../answers/ports/conversations.js';
import type { DisqualifyOutcome, DisqualifyReason } from './ports/resolutions.js';
import type { Scope, Store } from '../ports/store.js';
import type { Ids } from '../ports/system.js';

/**
 * What makes a conversation billable (DESIGN): a grounded AI answer, no thumbs-down, no hand-off
 * or ticket. The stores render it as SQL (`RowCodec.where`) wherever they select candidates,
 * record a resolution or count what is about to bill; they hold no copy of it.
 */
export const BILLABLE_CONVERSATION = { hasGroundedAnswer: true, hasThumbsDown: false, handedOff: false } as const satisfies Partial<Record<keyof ConversationRecord, boolean>>;

/** The conversation flag each disqualification sets (for good: a later thumbs-up does not undo it). */
export const DISQUALIFYING_FLAG = { thumbs_down: 'hasThumbsDown', ticket: 'handedOff', dispute: 'hasThumbsDown' } as const satisfies Record<DisqualifyReason, keyof ConversationRecord>;

/** A conversation is a resolution once it has been idle this long (DESIGN: 30 minutes). */
export const RESOLUTION_IDLE_MS = 30 * 60_000;

/** `YYYY-MM` → the period's bounds as ISO instants (UTC calendar month). */
export function periodBounds(period: string): { start: string; end: string } {
  const [y, m] = period.split('-').map(Number) as [number, number];
  return { start: new Date(Date.UTC(y, m - 1, 1)).toISOString(), end: new Date(Date.UTC(y, m, 1)).toISOString() };
}

/**
 * Resolutions of a tenant in a billing period: the detector's records. With `includeActive`,
 * qualifying conversations not counted yet (still in progress, or idle since the last detector
 * run) are added: the chat hard cap and the current month's usage count what is about to bill.
 */
export async function countResolutions(store: { resolutions: Store['resolutions']; conversations: ConversationStore }, tenantId: string, period: string, options: { includeActive?: boolean } = {}): Promise<number> {
  const recorded = await store.resolutions.count(tenantId, period);
  return options.includeActive ? recorded + (await store.conversations.countBillable(tenantId, periodBounds(period))) : recorded;
}

/**
 * The refund hook. Call it on every thumbs-down on a conversation's message (`thumbs_down`) and
 * whenever a conversation is handed to a human or becomes a ticket (`ticket`): it sets the
 * conversation's flag, so the detector never counts it, and — atomically — removes a resolution
 * already counted. A resolution no usage report has included yet is deleted; one already
 * reported is marked refunded and credited in the next report (sent meter events are never
 * edited). Idempotent. Null when the workspace has no such conversation.
 */
export function disqualifyResolution(store: Store, scope: Scope, conversationId: string, reason: DisqualifyReason, now: Date): Promise<DisqualifyOutcome | null> {
  return store.transaction(async (tx): Promise<DisqualifyOutcome | null> => {
    // The flag first: from here on the detector cannot count the conversation.
    if (!(await tx.resolutions.flagConversation(scope, conversationId, reason))) return null;
    const counted = await tx.resolutions.forConversation(scope.tenantId, conversationId);
    if (!counted) return 'not_counted';
    // Not reported yet: the count simply goes. Reported: kept, refunded by the next report.
    if (counted.reportedPeriod === null) {
      await tx.resolutions.remove(scope.tenantId, counted.id);
      return 'removed';
    }
    if (counted.refundedAt === null) await tx.resolutions.refund(scope.tenantId, counted.id, now.toISOString());
    return 'refunded';
  });
}

export interface ResolutionDetection {
  /** Qualifying conversations looked at. */
  scanned: number;
  /** Resolutions written (a conversation disqualified meanwhile is not). */
  written: number;
  /** False when the batch cap stopped the run; the next run continues. */
  done: boolean;
}

const DETECT_BATCH = 200;

/**
 * Writes a resolution for every conversation (of one tenant, or all) that has qualified and
 * been idle 30 minutes. Idempotent: a counted conversation is never counted again.
 */
export async function detectResolutions(store: Store, ids: Ids, now: Date, options: { tenantId?: string; maxBatches?: number } = {}): Promise<ResolutionDetection> {
  const idleBefore = new Date(now.getTime() - RESOLUTION_IDLE_MS).toISOString();
  // Only this month and the previous one can still be billed (the previous is reported on the 1st): older
  // conversations are never scanned again, so a run's cost follows recent volume, not history.
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString();
  const result: ResolutionDetection = { scanned: 0, written: 0, done: false };
  for (let batch = 0; batch < (options.maxBatches ?? 50); batch++) {
    const candidates = await store.resolutions.candidates({ from, idleBefore }, DETECT_BATCH, options.tenantId);
    for (const c of candidates) {
      result.scanned++;
      const written = await store.resolutions.record({
        id: ids.next('res'),
        tenantId: c.tenantId,
        workspaceId: c.workspaceId,
        conversationId: c.id,
        billingPeriod: c.lastMessageAt.slice(0, 7),
        createdAt: now.toISOString(),
        reportedPeriod: null,
        refundedAt: null,
        correctedPeriod: null,
      });
      if (written) result.written++;
    }
    if (candidates.length < DETECT_BATCH) {
      result.done = true;
      break;
    }
  }
  return result;
}
