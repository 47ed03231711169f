/**
 * A resolution bill the customer can audit: each counted resolution of a period with its
 * conversation, workspace, when it qualified, the rule that counted it and its state; and a
 * dispute within 14 days, which goes through the same refund hook as a thumbs-down (deleted if
 * no report included it yet, credited in the next report if one did).
 */
import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import { errors, type PanyaError } from '../errors.js';
import type { ResolutionRecord } from './ports/resolutions.js';
import { requireScope, runInTransaction, type RequestContext, type ServiceDeps } from '../context.js';
import { disqualifyResolution } from './resolutions.js';
import { billingPeriod } from '../tenancy/usage.js';
import { appendAudit, auditActor } from '../audit/audit.js';

/** The rule the detector counts by (DESIGN "Resolutions"). */
export const RESOLUTION_RULE = 'grounded_answer_no_handoff_no_thumbs_down_idle_30m';
/** How long after it qualified a resolution can be disputed. */
export const DISPUTE_WINDOW_DAYS = 14;
const DISPUTED = 'resolution.disputed';
const PAGE = 100;

export const resolutionListSchema = z.looseObject({
  period: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'expected YYYY-MM').optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(PAGE),
});
export const disputeSchema = z.strictObject({ reason: z.string().trim().min(3).max(1_000) });

export type ResolutionState = 'counted' | 'refunded' | 'credited' | 'disputed';

export interface ResolutionLine {
  id: string;
  conversationId: string;
  workspaceId: string;
  period: string;
  /** When the detector counted it (within 15 minutes of qualifying). */
  qualifiedAt: string;
  rule: typeof RESOLUTION_RULE;
  state: ResolutionState;
  reportedPeriod: string | null;
  disputableUntil: string | null;
  dispute: { reason: string; at: string; outcome: string } | null;
}

const disputeEnd = (qualifiedAt: string) => new Date(Date.parse(qualifiedAt) + DISPUTE_WINDOW_DAYS * 86_400_000);

export function createResolutionAuditService(deps: ServiceDeps) {
  const { store, clock, ids } = deps;

  const line = (r: ResolutionRecord, dispute: ResolutionLine['dispute'], now: Date): ResolutionLine => {
    const state: ResolutionState = r.refundedAt ? (dispute ? 'disputed' : r.correctedPeriod ? 'credited' : 'refunded') : 'counted';
    const open = !r.refundedAt && now.getTime() <= disputeEnd(r.createdAt).getTime();
    return { id: r.id, conversationId: r.conversationId, workspaceId: r.workspaceId, period: r.billingPeriod, qualifiedAt: r.createdAt, rule: RESOLUTION_RULE, state, reportedPeriod: r.reportedPeriod, disputableUntil: open ? disputeEnd(r.createdAt).toISOString() : null, dispute };
  };

  return {
    /** `GET /billing/resolutions`: a period's resolutions, a page at a time (cursor: the last conversation id). */
    async list(ctx: RequestContext, input: z.output<typeof resolutionListSchema>): Promise<Result<{ period: string; data: ResolutionLine[]; nextCursor: string | null }, PanyaError>> {
      const allowed = requireScope(ctx, 'admin');
      if (allowed.isErr()) return err(allowed.error);
      const now = clock.now();
      const period = input.period ?? billingPeriod(now);
      const rows = await store.resolutions.list(ctx.tenant.id, period, { ...(input.cursor ? { after: input.cursor } : {}), limit: input.limit + 1 });
      const page = rows.slice(0, input.limit);
      // Disputes are the tenant's own actions: few, read in full.
      const disputes = (await store.audit.list(ctx.tenant.id, { type: DISPUTED })).filter((d) => d.data.period === period);
      const byId = new Map(disputes.map((d) => [d.subjectId, { reason: String(d.data.reason), at: d.createdAt, outcome: String(d.data.outcome) }]));
      const data = page.map((r) => line(r, byId.get(r.id) ?? null, now));
      const nextCursor = rows.length > input.limit ? page.at(-1)!.conversationId : null;
      // Disputed before any report: the resolution is gone from the bill; the last page still shows it.
      if (nextCursor === null) {
        for (const d of disputes.filter((d) => d.data.outcome === 'removed')) {
          data.push({ id: d.subjectId ?? '', conversationId: String(d.data.conversationId), workspaceId: String(d.data.workspaceId), period, qualifiedAt: String(d.data.qualifiedAt), rule: RESOLUTION_RULE, state: 'disputed', reportedPeriod: null, disputableUntil: null, dispute: byId.get(d.subjectId)! });
        }
      }
      return ok({ period, data, nextCursor });
    },

    /** `POST /billing/resolutions/{id}/dispute`: within 14 days of qualifying; refunded through the thumbs-down hook. */
    async dispute(ctx: RequestContext, id: string, input: z.output<typeof disputeSchema>): Promise<Result<ResolutionLine, PanyaError>> {
      const allowed = requireScope(ctx, 'admin');
      if (allowed.isErr()) return err(allowed.error);
      const now = clock.now();
      return runInTransaction(store, async (tx): Promise<Result<ResolutionLine, PanyaError>> => {
        const r = await tx.resolutions.get(ctx.tenant.id, id);
        if (!r) return err(errors.notFound('Resolution'));
        if (r.refundedAt) return err(errors.conflict('This resolution is no longer billed (refunded or disputed already).'));
        if (now.getTime() > disputeEnd(r.createdAt).getTime()) {
          return err(errors.unprocessable(`Resolutions can be disputed within ${DISPUTE_WINDOW_DAYS} days of qualifying; this one qualified on ${r.createdAt.slice(0, 10)}.`, [{ path: 'id', message: 'dispute window closed' }]));
        }
        const outcome = await disqualifyResolution(tx, { tenantId: r.tenantId, workspaceId: r.workspaceId }, r.conversationId, 'dispute', now);
        const dispute = { reason: input.reason, at: now.toISOString(), outcome: outcome ?? 'not_counted' };
        await appendAudit(tx, deps, r.tenantId, auditActor(ctx.principal), { type: DISPUTED, workspaceId: r.workspaceId, subjectId: r.id, data: { reason: input.reason, outcome: dispute.outcome, conversationId: r.conversationId, workspaceId: r.workspaceId, period: r.billingPeriod, qualifiedAt: r.createdAt } });
        return ok({ ...line({ ...r, refundedAt: now.toISOString() }, dispute, now), state: 'disputed' });
      });
    },
  };
}

export type ResolutionAuditService = ReturnType<typeof createResolutionAuditService>;
