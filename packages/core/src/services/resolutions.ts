import type { ConversationStore } from '../ports/conversations.js';

/** A conversation is a resolution once it has been idle this long (DESIGN: 30 minutes). */
export const RESOLUTION_IDLE_MS = 30 * 60_000;

/** `YYYY-MM` → the period's bounds as ISO instants (UTC calendar month). */
export function periodBounds(period: string): { start: string; end: string } {
  const [y, m] = period.split('-').map(Number) as [number, number];
  return { start: new Date(Date.UTC(y, m - 1, 1)).toISOString(), end: new Date(Date.UTC(y, m, 1)).toISOString() };
}

/**
 * Resolutions of a tenant in a billing period: conversations with a grounded AI answer, no
 * hand-off or ticket, no thumbs-down, idle for 30 minutes — one per conversation. With
 * `includeActive`, conversations still in progress count too (the chat hard cap counts what
 * is about to be billed).
 */
export function countResolutions(conversations: ConversationStore, tenantId: string, period: string, now: Date, options: { includeActive?: boolean } = {}): Promise<number> {
  const idleBefore = options.includeActive ? undefined : new Date(now.getTime() - RESOLUTION_IDLE_MS).toISOString();
  return conversations.countBillable(tenantId, periodBounds(period), idleBefore);
}
