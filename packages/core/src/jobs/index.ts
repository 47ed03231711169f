import { ok, type Result } from 'neverthrow';
import type { PanyaError } from '../errors.js';
import type { JobContext } from './types.js';
import { markSlaBreaches } from '../support/tickets.js';
import { runUsageReporter } from './usage-reporter.js';
import { detectResolutions } from '../billing/resolutions.js';
import { SEARCH_CHANGES_KEPT } from '../search/lexical-ranker.js';
import { createIds } from '../system.js';
import { vectorizeReindex } from './vectorize-reindex.js';
import { workspaceCleanup } from './workspace-cleanup.js';
import { contentGaps } from './content-gaps.js';
import { purgeIdleConversations } from './conversation-retention.js';
import { purgeExpiredAudit } from '../audit/audit.js';

export type { JobContext } from './types.js';

type JobFn = (ctx: JobContext, now: Date) => Promise<Result<Record<string, unknown>, PanyaError>>;

export interface JobDefinition {
  /** UTC cron expression (spec "Scheduled jobs"); null: run on demand only. */
  schedule: string | null;
  /** Whether a tenant owner may run it for their own tenant (admin mode). */
  adminMode: boolean;
  run: JobFn;
}

export type { UsageReporterSummary } from './usage-reporter.js';

/**
 * The scheduled jobs, each a plain function `(ctx, now) → Result<summary>`. Jobs whose domain
 * is not built yet report a summary with zero work.
 */
export const JOBS = {
  'sla-breach': {
    schedule: '* * * * *',
    adminMode: false,
    // Tenant-wide by design: tickets are checked across all of a tenant's workspaces.
    run: async (ctx, now) => ok({ job: 'sla-breach', scope: 'tenant-wide', ...(await markSlaBreaches(ctx.store, now)) }),
  },
  resolutions: {
    schedule: '*/15 * * * *',
    adminMode: false,
    run: async (ctx, now) => ok({ job: 'resolutions', ...(await detectResolutions(ctx.store, ctx.ids ?? createIds(), now, ctx.tenantId ? { tenantId: ctx.tenantId } : {})) }),
  },
  retention: {
    schedule: '0 3 * * *',
    adminMode: false,
    run: async (ctx, now) => {
      const purged = await ctx.store.rateLimits.purgeExpired(now.toISOString());
      const idempotencyKeys = await ctx.store.idempotency.purgeExpired(now.toISOString());
      const searchChanges = await ctx.store.search.pruneChanges(SEARCH_CHANGES_KEPT);
      // Spec (Tenant erasure 3): the edge cache of every URL of each erased tenant.
      const erased = ctx.erasure ? await ctx.erasure.purgeErased() : { tenantsPurged: 0, cachePurges: 0, purgeFailures: 0 };
      // Each workspace's conversation retention, then each plan's audit retention.
      const conversations = await purgeIdleConversations(ctx, now);
      const auditEntries = await purgeExpiredAudit(ctx.store, now);
      return ok({ job: 'retention', erasedTenantsPurged: erased.tenantsPurged, cachePurges: erased.cachePurges, purgeFailures: erased.purgeFailures, expiredRateCounters: purged, expiredIdempotencyKeys: idempotencyKeys, searchChangesPruned: searchChanges, conversations, auditEntriesPurged: auditEntries });
    },
  },
  'workspace-cleanup': {
    schedule: '30 3 * * *',
    adminMode: false,
    run: workspaceCleanup,
  },
  'usage-reporter': {
    schedule: '0 1 1 * *',
    adminMode: true,
    run: async (ctx, now) => (await runUsageReporter(ctx, now)).map((summary) => ({ job: 'usage-reporter', ...summary })),
  },
  'hostname-poll': {
    // Verification typically takes 15 minutes to 4 hours: a re-read every 5 minutes is timely and cheap.
    schedule: '*/5 * * * *',
    adminMode: false,
    run: async (ctx) => ok(ctx.hostnames ? await ctx.hostnames.poll() : { job: 'hostname-poll', checked: 0, active: 0, failed: 0, unknown: 0 }),
  },
  'vectorize-reindex': {
    schedule: '*/10 * * * *',
    adminMode: false,
    run: vectorizeReindex,
  },
  // Computes the gaps a read found missing or stale (reads also start it at once).
  'content-gaps': {
    schedule: '*/5 * * * *',
    adminMode: true,
    run: contentGaps,
  },
} satisfies Record<string, JobDefinition>;

export type JobName = keyof typeof JOBS;
export const JOB_NAMES = Object.keys(JOBS) as JobName[];

export function isJobName(name: string): name is JobName {
  return Object.hasOwn(JOBS, name);
}

export { vectorizeReindex, type VectorizeReindexSummary } from './vectorize-reindex.js';
export { contentGaps, computeGaps, type ContentGapsSummary } from './content-gaps.js';
export { workspaceCleanup, type WorkspaceCleanupSummary } from './workspace-cleanup.js';
