import { ok, type Result } from 'neverthrow';
import type { PanyaError } from '../errors.js';
import { WORKSPACE_RECOVERY_DAYS } from '../tenancy/workspaces.js';
import type { JobContext } from './types.js';

export type WorkspaceCleanupSummary = {
  job: 'workspace-cleanup';
  /** Workspaces past their recovery window looked at in this run. */
  scanned: number;
  /** Workspaces whose data tree and own row are now gone. */
  hardDeleted: number;
  /** Rows removed in this run, by table. */
  rowsDeleted: Record<string, number>;
  workspaces: { tenantId: string; workspaceId: string; slug: string; deletedAt: string; hardDeleted: boolean }[];
  /** False when the time budget ran out first; the next run continues where this one stopped. */
  done: boolean;
  elapsedMs: number;
};

/** Rows removed per purge step: bounded so no step holds the database for long. */
const BATCH_ROWS = 500;
const PAGE = 20;

/**
 * Hard-deletes workspaces soft-deleted at least 30 days ago, with everything under them, in
 * bounded batches through the store's cascade. Time-bounded by `budgetMs`; resumable because a
 * half-emptied workspace stays soft-deleted until its last row and then its own row are gone.
 */
export async function workspaceCleanup(ctx: JobContext, now: Date): Promise<Result<WorkspaceCleanupSummary, PanyaError>> {
  const { store } = ctx;
  const started = performance.now();
  const budgetMs = ctx.budgetMs ?? 50_000;
  const cutoff = new Date(now.getTime() - WORKSPACE_RECOVERY_DAYS * 86_400_000).toISOString();
  const summary: WorkspaceCleanupSummary = { job: 'workspace-cleanup', scanned: 0, hardDeleted: 0, rowsDeleted: {}, workspaces: [], done: false, elapsedMs: 0 };
  const outOfTime = () => performance.now() - started >= budgetMs;

  scan: while (!outOfTime()) {
    const due = await store.workspaces.listDeletedBefore(cutoff, PAGE, ctx.tenantId);
    if (due.length === 0) {
      summary.done = true;
      break;
    }
    for (const ws of due) {
      summary.scanned++;
      const entry = { tenantId: ws.tenantId, workspaceId: ws.id, slug: ws.slug, deletedAt: ws.deletedAt!, hardDeleted: false };
      summary.workspaces.push(entry);
      while (!entry.hardDeleted) {
        if (outOfTime()) break scan;
        const step = await store.workspaces.purge(ws.tenantId, ws.id, BATCH_ROWS);
        for (const [table, n] of Object.entries(step.deleted)) summary.rowsDeleted[table] = (summary.rowsDeleted[table] ?? 0) + n;
        entry.hardDeleted = step.done;
      }
      summary.hardDeleted++;
      ctx.logger.info('workspace hard-deleted', { tenantId: ws.tenantId, workspaceId: ws.id, slug: ws.slug });
    }
  }
  summary.elapsedMs = Math.round(performance.now() - started);
  return ok(summary);
}
