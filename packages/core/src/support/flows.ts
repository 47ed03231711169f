/**
 * Guided flows: CRUD of a workspace's flows, and runs that deliver a draft and are completed.
 * Completion writes the immutable audit event `flow.completed` and one `guided_flow` usage unit
 * (reported on `svc_guided_flow`) in the same transaction as the run's move to completed, so a
 * run is billed exactly once however often completion is retried.
 */
import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import { GUIDED_FLOW_METER } from '../billing/period-usage.js';
import { errors, type PanyaError } from '../errors.js';
import type { FlowRecord, FlowRunRecord } from './ports/flows.js';
import { runInTransaction, type RequestContext, type ServiceDeps } from '../context.js';
import { billingPeriod } from '../tenancy/usage.js';
import { appendAudit, auditActor } from '../audit/audit.js';

const stepSchema = z.strictObject({
  title: z.string().trim().min(1).max(200),
  instructions: z.string().max(4000).nullable().default(null),
});
const stepsSchema = z.array(stepSchema).min(1).max(50);
const flowNameSchema = z.string().trim().min(1).max(200);

export const createFlowSchema = z.strictObject({ name: flowNameSchema, steps: stepsSchema });
export const updateFlowSchema = z
  .strictObject({ name: flowNameSchema.optional(), steps: stepsSchema.optional() })
  .refine((v) => v.name !== undefined || v.steps !== undefined, 'give name or steps');
export const startRunSchema = z.strictObject({ conversationId: z.string().min(1).max(100).nullable().default(null) }).default({ conversationId: null });
export const draftSchema = z.strictObject({ content: z.string().min(1).max(20_000) });

export function createFlowService(deps: ServiceDeps) {
  const { store, clock, ids } = deps;
  const notFound = () => errors.notFound('Flow');
  const runNotFound = () => errors.notFound('Flow run');

  return {
    async list(ctx: RequestContext): Promise<Result<FlowRecord[], PanyaError>> {
      return ok(await store.flows.list(ctx.scope));
    },

    async create(ctx: RequestContext, input: z.output<typeof createFlowSchema>): Promise<Result<FlowRecord, PanyaError>> {
      const now = clock.now().toISOString();
      const flow: FlowRecord = { id: ids.next('flow'), ...ctx.scope, name: input.name, steps: input.steps, createdAt: now, updatedAt: now };
      await store.flows.insert(flow);
      return ok(flow);
    },

    async get(ctx: RequestContext, id: string): Promise<Result<FlowRecord, PanyaError>> {
      const flow = await store.flows.get(ctx.scope, id);
      return flow ? ok(flow) : err(notFound());
    },

    async update(ctx: RequestContext, id: string, input: z.output<typeof updateFlowSchema>): Promise<Result<FlowRecord, PanyaError>> {
      const flow = await store.flows.update(ctx.scope, id, { ...input, updatedAt: clock.now().toISOString() });
      return flow ? ok(flow) : err(notFound());
    },

    /** Deletes the flow; its runs (and what they billed) stay. */
    async delete(ctx: RequestContext, id: string): Promise<Result<{ id: string; deleted: true }, PanyaError>> {
      return (await store.flows.delete(ctx.scope, id)) ? ok({ id, deleted: true }) : err(notFound());
    },

    async startRun(ctx: RequestContext, flowId: string, input: z.output<typeof startRunSchema>): Promise<Result<FlowRunRecord, PanyaError>> {
      if (!(await store.flows.get(ctx.scope, flowId))) return err(notFound());
      const run: FlowRunRecord = { id: ids.next('frun'), ...ctx.scope, flowId, conversationId: input.conversationId, status: 'started', draft: null, createdAt: clock.now().toISOString(), draftedAt: null, completedAt: null };
      await store.flows.insertRun(run);
      return ok(run);
    },

    async getRun(ctx: RequestContext, id: string): Promise<Result<FlowRunRecord, PanyaError>> {
      const run = await store.flows.getRun(ctx.scope, id);
      return run ? ok(run) : err(runNotFound());
    },

    /** Delivers a draft (a later one replaces it) until the run is completed. */
    async draft(ctx: RequestContext, id: string, input: z.output<typeof draftSchema>): Promise<Result<FlowRunRecord, PanyaError>> {
      const run = await store.flows.draftRun(ctx.scope, id, input.content, clock.now().toISOString());
      if (!run) return err(runNotFound());
      if (run.status === 'completed' && run.draft !== input.content) return err(errors.conflict('This flow run is completed; its draft can no longer change.'));
      return ok(run);
    },

    /** Completes a drafted run: audit event and billing exactly once; a retry answers the completed run. */
    async complete(ctx: RequestContext, id: string): Promise<Result<FlowRunRecord, PanyaError>> {
      const now = clock.now();
      const done = await runInTransaction(store, async (tx): Promise<Result<FlowRunRecord, PanyaError>> => {
        const run = await tx.flows.getRun(ctx.scope, id);
        if (!run) return err(runNotFound());
        if (run.status === 'started') return err(errors.conflict('A flow run is completed after its draft was delivered: POST /flow-runs/{id}/draft first.'));
        if (await tx.flows.completeRun(ctx.scope, id, now.toISOString())) {
          await appendAudit(tx, deps, ctx.scope.tenantId, auditActor(ctx.principal), { type: 'flow.completed', workspaceId: ctx.scope.workspaceId, subjectId: run.id, data: { flowId: run.flowId, conversationId: run.conversationId } });
          await tx.usage.recordUsage({ id: ids.next('evt'), ...ctx.scope, meter: GUIDED_FLOW_METER, quantity: 1, billingPeriod: billingPeriod(now), createdAt: now.toISOString(), data: { flowRunId: run.id, flowId: run.flowId } });
        }
        return ok((await tx.flows.getRun(ctx.scope, id))!);
      });
      return done;
    },
  };
}

export type FlowService = ReturnType<typeof createFlowService>;
