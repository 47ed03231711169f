import { privacyOf } from '../privacy/settings.js';
import type { JobContext } from './types.js';

export type ConversationRetentionSummary = {
  /** Workspaces with a retention setting looked at. */
  workspaces: number;
  messagesPurged: number;
  conversationsPurged: number;
  /** False when the time budget ran out first; the next run continues. */
  done: boolean;
};

/** Rows removed per step: bounded so no step holds the database for long. */
export const RETENTION_BATCH_ROWS = 500;
const DAY_MS = 86_400_000;

/**
 * Purges each workspace's conversations (and their messages) idle longer than its
 * `retentionDays`, in bounded steps through the store, within the job's time budget.
 */
export async function purgeIdleConversations(ctx: JobContext, now: Date, batch = RETENTION_BATCH_ROWS): Promise<ConversationRetentionSummary> {
  const started = performance.now();
  const budgetMs = ctx.budgetMs ?? 50_000;
  const summary: ConversationRetentionSummary = { workspaces: 0, messagesPurged: 0, conversationsPurged: 0, done: false };
  const tenants = ctx.tenantId ? [ctx.tenantId] : (await ctx.store.tenants.list()).map((t) => t.id);
  for (const tenantId of tenants) {
    for (const ws of await ctx.store.workspaces.list(tenantId, { includeDeleted: true })) {
      const days = privacyOf(ws).retentionDays;
      if (days === null) continue;
      summary.workspaces++;
      const before = new Date(now.getTime() - days * DAY_MS).toISOString();
      for (;;) {
        if (performance.now() - started >= budgetMs) return summary;
        const step = await ctx.store.retention.purgeIdleConversations({ tenantId, workspaceId: ws.id }, before, batch);
        summary.messagesPurged += step.messages;
        summary.conversationsPurged += step.conversations;
        if (step.messages + step.conversations < batch) break;
      }
    }
  }
  summary.done = true;
  return summary;
}
