import type { Engine } from '@panya/core';
import { cronSecretMatches, errors } from '@panya/core';
import { Router, type Request } from 'express';
import { bearer } from '../context.js';
import { sendProblem } from '../problem.js';
import { sessionToken } from '../session.js';

export interface CronOptions {
  /** `PANYA_CRON_SECRET`; without it only admin mode works. */
  secret?: string;
  /** Identifies this node as a lease holder. */
  nodeId: string;
}

function budget(req: Request): number | undefined | null {
  const raw = req.query.budgetMs;
  if (raw === undefined) return undefined;
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 && n <= 600_000 ? n : null;
}

/**
 * `GET /api/cron/{job}` with `Authorization: Bearer <PANYA_CRON_SECRET>` runs a job for every
 * tenant; `GET /c/{tenant}/api/cron/{job}` runs it for that tenant only, with the cron secret
 * or a tenant owner's session (admin mode). Anything else is 403.
 */
export function cronRouter(engine: Engine, options: CronOptions): Router {
  const router = Router({ mergeParams: true });
  router.get('/:job', async (req, res) => {
    const { tenantSlug, job } = req.params as { tenantSlug?: string; job: string };
    let tenantId: string | undefined;
    const bySecret = cronSecretMatches(bearer(req), options.secret);
    if (tenantSlug !== undefined) {
      const tenant = await engine.tenancy.getTenantBySlug(tenantSlug);
      if (!bySecret) {
        const user = await engine.users.authenticateSession(sessionToken(req));
        const ctx = user.isOk() && tenant.isOk() ? await engine.users.resolve(user.value, tenantSlug) : null;
        if (!ctx?.isOk() || ctx.value.principal.role !== 'owner') return sendProblem(req, res, errors.forbidden('Cron jobs need the cron secret or a tenant owner session.'));
      }
      if (tenant.isErr()) return sendProblem(req, res, tenant.error);
      tenantId = tenant.value.id;
    } else if (!bySecret) {
      return sendProblem(req, res, errors.forbidden('Cron jobs need the cron secret.'));
    }
    const budgetMs = budget(req);
    if (budgetMs === null) return sendProblem(req, res, errors.invalid('budgetMs must be an integer from 1 to 600000.', [{ path: 'budgetMs', message: 'out of range' }]));
    const run = await engine.jobs.run(job, { holder: options.nodeId, ...(tenantId ? { tenantId } : {}), ...(budgetMs !== undefined ? { budgetMs } : {}) });
    if (run.isErr()) return sendProblem(req, res, run.error);
    res.json(run.value.ran ? { job: run.value.job, ran: true, ...(tenantId ? { tenantId } : {}), ...run.value.summary } : run.value);
  });
  return router;
}
