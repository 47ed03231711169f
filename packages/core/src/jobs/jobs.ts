import { randomUUID } from 'node:crypto';
import { err, ok, type Result } from 'neverthrow';
import { errors, type PanyaError } from '../errors.js';
import { isJobName, JOBS, type JobContext, type JobName } from '../jobs/index.js';
import type { Embedder } from '../search/ports/embedder.js';
import type { PaymentProcessor } from '../billing/ports/payment.js';
import type { ServiceDeps } from '../context.js';

export interface JobRunOptions {
  /** Admin mode: run for one tenant only. */
  tenantId?: string;
  budgetMs?: number;
  /** Who holds the lease; default: this engine's holder (see `LeaseHolder`). */
  holder?: string;
}

/** This process as a lease holder: the node (stable across restarts) and this run of it. */
export interface LeaseHolder {
  node: string;
  incarnation: string;
}

/** Longest a single run may be asked to work, in milliseconds (`?budgetMs=` on the cron endpoint). */
export const MAX_JOB_BUDGET_MS = 600_000;

/** A requested work budget: absent, or an integer from 1 ms to MAX_JOB_BUDGET_MS. */
export function parseJobBudget(raw: unknown): Result<number | undefined, PanyaError> {
  if (raw === undefined) return ok(undefined);
  const n = Number(raw);
  if (Number.isInteger(n) && n >= 1 && n <= MAX_JOB_BUDGET_MS) return ok(n);
  return err(errors.invalid(`budgetMs must be an integer from 1 to ${MAX_JOB_BUDGET_MS}.`, [{ path: 'budgetMs', message: 'out of range' }]));
}

export type JobRun = { job: JobName; ran: true; summary: Record<string, unknown> } | { job: JobName; ran: false; reason: 'running_elsewhere' };

/** Longest a lease is held: a crashed node's lease expires after this. */
const LEASE_MS = 10 * 60_000;

/**
 * Runs scheduled jobs under a per-job lease in the store, so that when every node's scheduler
 * (or several cron callers) fires at once, the job executes once.
 */
export function createJobService(deps: ServiceDeps & { embedder: Embedder; ensureIndex(): Promise<void>; meterEventNames?: JobContext['meterEventNames']; hostnames?: JobContext['hostnames']; erasure?: JobContext['erasure']; nearestDocument?: JobContext['nearestDocument']; payments?: PaymentProcessor; holder?: LeaseHolder }) {
  const { store, clock, logger, embedder } = deps;
  // `node/incarnation/jobs`, like ingest leases: a restart frees what the killed run held (`reclaim`).
  const self = deps.holder ? `${deps.holder.node}/${deps.holder.incarnation}/jobs` : `anonymous/${randomUUID()}/jobs`;

  return {
    isJob: isJobName,

    async run(name: string, options: JobRunOptions): Promise<Result<JobRun, PanyaError>> {
      if (!isJobName(name)) return err(errors.notFound(`Job "${name}"`));
      const job = JOBS[name];
      if (options.tenantId && !job.adminMode) return err(errors.forbidden(`Job "${name}" cannot run in admin mode.`));
      const now = clock.now();
      const lease = options.tenantId ? `${name}:${options.tenantId}` : name;
      const holder = options.holder ?? self;
      const acquired = await store.jobs.acquireLease(lease, holder, now.toISOString(), new Date(now.getTime() + LEASE_MS).toISOString());
      if (!acquired) return ok({ job: name, ran: false, reason: 'running_elsewhere' });
      try {
        const ctx: JobContext = {
          store,
          embedder,
          logger,
          ids: deps.ids,
          ensureIndex: deps.ensureIndex,
          meterEventNames: deps.meterEventNames ?? {},
          ...(deps.hostnames ? { hostnames: deps.hostnames } : {}),
          ...(deps.erasure ? { erasure: deps.erasure } : {}),
          ...(deps.nearestDocument ? { nearestDocument: deps.nearestDocument } : {}),
          ...(deps.payments ? { payments: deps.payments } : {}),
          ...(options.tenantId ? { tenantId: options.tenantId } : {}),
          ...(options.budgetMs !== undefined ? { budgetMs: options.budgetMs } : {}),
        };
        const summary = await job.run(ctx, now);
        if (summary.isErr()) return err(summary.error);
        logger.info('job finished', { job: name, tenantId: options.tenantId ?? null });
        return ok({ job: name, ran: true, summary: summary.value });
      } finally {
        await store.jobs.releaseLease(lease, holder);
      }
    },

    /**
     * Frees the job leases earlier incarnations of this node held when they stopped (a crash,
     * kill -9): a job they were running runs again at once instead of after the lease expires.
     * Its steps are resumable (cleanup, cursors) or deduplicated (meter events).
     */
    async reclaim(): Promise<number> {
      if (!deps.holder) return 0;
      const { node, incarnation } = deps.holder;
      const count = await store.jobs.reclaimLeases(node, `${node}/${incarnation}/`);
      if (count > 0) logger.info('freed job leases an earlier run of this node held', { node, count });
      return count;
    },
  };
}

export type JobService = ReturnType<typeof createJobService>;
