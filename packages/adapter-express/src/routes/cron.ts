import type { Engine } from '@panya/core';
import { parseJobBudget } from '@panya/core';
import { Router } from 'express';
import { credentials } from '../context.js';
import { sendProblem } from '../problem.js';
import { methodNotAllowed } from '../routing.js';

export interface CronOptions {
  /** `PANYA_CRON_SECRET`; without it only admin mode works. */
  secret?: string;
  /** Identifies this node as a lease holder; default: the engine's. */
  nodeId?: string;
}

/**
 * `GET /api/cron/{job}` with `Authorization: Bearer <PANYA_CRON_SECRET>` runs a job for every
 * tenant; `GET /c/{tenant}/api/cron/{job}` runs it for that tenant only, with the cron secret
 * or a tenant owner's session (admin mode). Who may do what is core's `authorizeCron`.
 */
export function cronRouter(engine: Engine, options: CronOptions): Router {
  const router = Router({ mergeParams: true });
  // Every method is authorized first: a call without authorization is 403 whatever its method (spec), then only GET runs.
  router.all('/:job', async (req, res) => {
    const { tenantSlug, job } = req.params as { tenantSlug?: string; job: string };
    const allowed = await engine.auth.authorizeCron(credentials(req), { secret: options.secret, tenantSlug });
    if (allowed.isErr()) return sendProblem(req, res, allowed.error);
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendProblem(req, res, methodNotAllowed(req.method, new Set(['GET'])));
    const { tenantId } = allowed.value;
    const budgetMs = parseJobBudget(req.query.budgetMs);
    if (budgetMs.isErr()) return sendProblem(req, res, budgetMs.error);
    const run = await engine.jobs.run(job, { ...(options.nodeId ? { holder: options.nodeId } : {}), ...(tenantId ? { tenantId } : {}), ...(budgetMs.value !== undefined ? { budgetMs: budgetMs.value } : {}) });
    if (run.isErr()) return sendProblem(req, res, run.error);
    res.json(run.value.ran ? { job: run.value.job, ran: true, ...(tenantId ? { tenantId } : {}), ...run.value.summary } : run.value);
  });
  return router;
}
