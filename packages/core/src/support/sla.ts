import type { TicketPriority } from './ports/support.js';

/**
 * How long a ticket of each priority may stay open before its SLA is breached, in minutes
 * (an Intercom/Zendesk-style default; the spec names the job, not the targets).
 */
export const SLA_MINUTES: Readonly<Record<TicketPriority, number>> = {
  urgent: 60,
  high: 4 * 60,
  normal: 24 * 60,
  low: 72 * 60,
};

/** When a ticket opened (or reopened) at `from` breaches its SLA. */
export function slaDueAt(priority: TicketPriority, from: Date): string {
  return new Date(from.getTime() + SLA_MINUTES[priority] * 60_000).toISOString();
}
