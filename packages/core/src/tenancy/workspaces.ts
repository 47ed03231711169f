import { err, ok, type Result } from 'neverthrow';
import { errors, panyaError, type PanyaError } from '../errors.js';
import { PLAN_IDS, PLANS, planRank, resolveLimits, type PlanId } from '../plans.js';
import type { Scope, Store, TenantRecord, WorkspaceRecord } from '../ports/store.js';
import { parseInput } from '../schemas/validate.js';
import {
  createWorkspaceSchema,
  updateWorkspaceSchema,
  type CreateWorkspaceInput,
  type UpdateWorkspaceInput,
} from './workspace-schemas.js';
import { requireScope, runInTransaction, type RequestContext, type ServiceDeps } from '../context.js';
import { NEW_WORKSPACE_PRIVACY } from '../privacy/settings.js';
import { appendAudit, auditActor } from '../audit/audit.js';

/** Spec "Workspace lifecycle": a soft-deleted workspace is recoverable for 30 days. */
export const WORKSPACE_RECOVERY_DAYS = 30;
const DAY_MS = 86_400_000;

/** A workspace as the API shows it: the record plus its recovery countdown when soft-deleted. */
export interface WorkspaceView extends WorkspaceRecord {
  /** Until when a soft-deleted workspace can be restored; null while live. */
  recoverUntil: string | null;
  /** Whole days left to restore (the per-day countdown: 30 right after deletion); null while live. */
  daysLeft: number | null;
}

export function recoverUntil(deletedAt: string): Date {
  return new Date(Date.parse(deletedAt) + WORKSPACE_RECOVERY_DAYS * DAY_MS);
}

export function workspaceView(record: WorkspaceRecord, now: Date): WorkspaceView {
  // Privacy settings have their own operations (`/privacy`).
  const { privacy: _privacy, ...rest } = record;
  const ws = { ...rest, suspendedAt: rest.suspendedAt ?? null };
  if (!ws.deletedAt) return { ...ws, recoverUntil: null, daysLeft: null };
  const until = recoverUntil(ws.deletedAt);
  return { ...ws, recoverUntil: until.toISOString(), daysLeft: Math.max(0, Math.ceil((until.getTime() - now.getTime()) / DAY_MS)) };
}

/**
 * Tenant-wide workspace settings the API reports with the list. Cross-workspace visitor linking
 * is an Enterprise flag (spec): it is stored, but linking is not implemented, so `implemented`
 * is always false and visitors stay confined to their workspace.
 */
export function workspaceSettings(tenant: TenantRecord) {
  return {
    crossWorkspaceVisitorLinking: { enabled: tenant.quotas.crossWorkspaceVisitorLinking === true, implemented: false as const },
  };
}

/** The lowest plan above `plan` whose workspace cap admits `needed` workspaces (the upgrade to offer). */
function planAllowing(plan: PlanId, needed: number): PlanId | undefined {
  return PLAN_IDS.find((p) => planRank(p) > planRank(plan) && (PLANS[p].limits.maxWorkspaces === null || PLANS[p].limits.maxWorkspaces! >= needed));
}

const plural = (n: number) => `${n} workspace${n === 1 ? '' : 's'}`;

/** The upgrade trigger: `quota_exceeded` naming the plan that lifts the cap, or null while under it. */
function capError(tenant: TenantRecord, live: number, now: Date): PanyaError | null {
  const cap = resolveLimits(tenant, now).maxWorkspaces;
  if (cap === null || live < cap) return null;
  const upgrade = planAllowing(tenant.plan, live + 1);
  const upgradeCap = upgrade ? PLANS[upgrade].limits.maxWorkspaces : null;
  const message = upgrade
    ? `The ${PLANS[tenant.plan].name} plan allows ${plural(cap)}; upgrade to ${PLANS[upgrade].name} for ${upgradeCap === null ? 'unlimited workspaces' : `up to ${plural(upgradeCap)}`}.`
    : `This tenant's limit of ${plural(cap)} is reached; a higher limit needs a contract change.`;
  return panyaError('quota_exceeded', { message, limit: cap, ...(upgrade ? { plan: PLANS[upgrade].name } : {}) });
}

/**
 * Re-applies the plan's workspace cap after a plan or quota change: the default workspace, then
 * the oldest, serve up to the cap; the others are suspended (data, keys and settings kept,
 * nothing served) and serve again, oldest first, once the cap allows. Nothing is deleted.
 */
export async function applyWorkspaceCap(store: Store, tenant: TenantRecord, now: Date): Promise<{ suspended: string[]; restored: string[] }> {
  const cap = resolveLimits(tenant, now).maxWorkspaces;
  const live = (await store.workspaces.list(tenant.id)).sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  const changed = { suspended: [] as string[], restored: [] as string[] };
  for (const [i, ws] of live.entries()) {
    // The default workspace always serves, whatever an override says.
    const serves = cap === null || i < Math.max(1, cap);
    if (serves && ws.suspendedAt) {
      await store.workspaces.update(tenant.id, ws.id, { suspendedAt: null, updatedAt: now.toISOString() });
      changed.restored.push(ws.id);
    } else if (!serves && !ws.suspendedAt) {
      await store.workspaces.update(tenant.id, ws.id, { suspendedAt: now.toISOString(), updatedAt: now.toISOString() });
      changed.suspended.push(ws.id);
    }
  }
  return changed;
}

/** What a suspended workspace answers: `plan_required` naming the plan that serves it again. */
export function suspendedWorkspaceError(tenant: TenantRecord, workspace: WorkspaceRecord, live: number, now: Date): PanyaError {
  const cap = resolveLimits(tenant, now).maxWorkspaces ?? live;
  const upgrade = planAllowing(tenant.plan, live);
  const message = `Workspace "${workspace.slug}" is suspended: the ${PLANS[tenant.plan].name} plan serves ${plural(cap)}. ${upgrade ? `Upgrade to ${PLANS[upgrade].name} to restore it` : 'A contract change restores it'}; its data is kept.`;
  return panyaError('plan_required', { message, plan: upgrade ? PLANS[upgrade].name : PLANS[tenant.plan].name });
}

/** Workspaces are managed tenant-wide: an `admin` key or owner/admin membership not bound to one workspace. */
function tenantAdmin(ctx: RequestContext): Result<void, PanyaError> {
  const scoped = requireScope(ctx, 'admin');
  if (scoped.isErr()) return scoped;
  return ctx.principal.workspaceId === null ? ok(undefined) : err(errors.forbidden('Managing workspaces needs a tenant-wide admin key or membership, not one bound to a workspace.', 'admin'));
}

/**
 * Workspaces (brands) of a tenant: create within the plan cap, rename/recolour, soft delete with
 * a 30-day recovery window, restore. Hard deletion is the `workspace-cleanup` job's. Every
 * operation needs the `admin` scope (an admin key, or an owner/admin session).
 */
/** What the audit log keeps of a workspace. */
function workspaceAudit(ws: WorkspaceRecord): Record<string, unknown> {
  return { slug: ws.slug, name: ws.name, brandAccent: ws.brandAccent, deletedAt: ws.deletedAt };
}

export function createWorkspaceService(deps: ServiceDeps & { changed?: (scope: Scope) => Promise<unknown> }) {
  /** After a rename, re-brand, delete or restore: the help center purges the workspace's cached pages. */
  const afterChange = <T>(result: Result<T, PanyaError>, tenantId: string, workspaceId: string): Result<T, PanyaError> => {
    if (result.isOk()) deps.changed?.({ tenantId, workspaceId }).catch((error) => deps.logger.warn('workspaces.changed hook failed', { error: (error as Error).message }));
    return result;
  };
  const { store, clock, ids } = deps;

  const find = async (ctx: RequestContext, id: string) => {
    const ws = await store.workspaces.get(ctx.tenant.id, id);
    return ws ?? null;
  };

  return {
    /** Every workspace of the tenant, soft-deleted ones included (with their countdown). */
    async list(ctx: RequestContext): Promise<Result<WorkspaceView[], PanyaError>> {
      const allowed = tenantAdmin(ctx);
      if (allowed.isErr()) return err(allowed.error);
      const now = clock.now();
      return ok((await store.workspaces.list(ctx.tenant.id, { includeDeleted: true })).map((w) => workspaceView(w, now)));
    },

    async get(ctx: RequestContext, id: string): Promise<Result<WorkspaceView, PanyaError>> {
      const allowed = tenantAdmin(ctx);
      if (allowed.isErr()) return err(allowed.error);
      const ws = await find(ctx, id);
      return ws ? ok(workspaceView(ws, clock.now())) : err(errors.notFound('Workspace'));
    },

    /**
     * Creates a workspace unless the plan's cap (`quotas_json.maxWorkspaces` overrides it) is
     * reached; soft-deleted workspaces do not count but keep their slug until hard-deleted.
     */
    async create(ctx: RequestContext, input: CreateWorkspaceInput): Promise<Result<WorkspaceView, PanyaError>> {
      const allowed = tenantAdmin(ctx);
      if (allowed.isErr()) return err(allowed.error);
      const parsed = parseInput(createWorkspaceSchema, input);
      if (parsed.isErr()) return err(parsed.error);
      const now = clock.now();
      const result = await runInTransaction(store, async (tx) => {
        const tenant = await tx.tenants.get(ctx.tenant.id);
        if (!tenant) return err(errors.notFound('Tenant'));
        // Touching the tenant row first serialises concurrent creates of one tenant (a row lock on PostgreSQL).
        await tx.tenants.update(tenant.id, { updatedAt: tenant.updatedAt });
        const refused = capError(tenant, (await tx.workspaces.list(tenant.id)).length, now);
        if (refused) return err(refused);
        if (await tx.workspaces.getBySlug(tenant.id, parsed.value.slug)) {
          return err(errors.conflict(`Workspace slug "${parsed.value.slug}" is taken (a soft-deleted workspace keeps its slug until it is hard-deleted).`));
        }
        const ws: WorkspaceRecord = {
          id: ids.next('ws'),
          tenantId: tenant.id,
          slug: parsed.value.slug,
          name: parsed.value.name,
          brandAccent: parsed.value.brandAccent ?? null,
          isDefault: false,
          deletedAt: null,
          suspendedAt: null,
          privacy: NEW_WORKSPACE_PRIVACY,
          createdAt: now.toISOString(),
          updatedAt: now.toISOString(),
        };
        await tx.workspaces.insert(ws);
        await appendAudit(tx, deps, tenant.id, auditActor(ctx.principal), { type: 'workspace.created', workspaceId: ws.id, subjectId: ws.id, after: workspaceAudit(ws) });
        return ok(ws);
      });
      return result.map((ws) => workspaceView(ws, now));
    },

    async update(ctx: RequestContext, id: string, input: UpdateWorkspaceInput): Promise<Result<WorkspaceView, PanyaError>> {
      const allowed = tenantAdmin(ctx);
      if (allowed.isErr()) return err(allowed.error);
      const parsed = parseInput(updateWorkspaceSchema, input);
      if (parsed.isErr()) return err(parsed.error);
      const current = await find(ctx, id);
      // A soft-deleted workspace is invisible until restored.
      if (!current || current.deletedAt) return err(errors.notFound('Workspace'));
      const now = clock.now();
      const updated = await store.transaction(async (tx) => {
        const after = await tx.workspaces.update(ctx.tenant.id, id, {
          ...(parsed.value.name !== undefined ? { name: parsed.value.name } : {}),
          ...(parsed.value.brandAccent !== undefined ? { brandAccent: parsed.value.brandAccent } : {}),
          updatedAt: now.toISOString(),
        });
        if (after) await appendAudit(tx, deps, ctx.tenant.id, auditActor(ctx.principal), { type: 'workspace.updated', workspaceId: id, subjectId: id, before: workspaceAudit(current), after: workspaceAudit(after) });
        return after;
      });
      return afterChange(updated ? ok(workspaceView(updated, now)) : err(errors.notFound('Workspace')), ctx.tenant.id, id);
    },

    /** Soft delete: the workspace and its keys stop answering at once; its data stays for 30 days. */
    async delete(ctx: RequestContext, id: string): Promise<Result<WorkspaceView, PanyaError>> {
      const allowed = tenantAdmin(ctx);
      if (allowed.isErr()) return err(allowed.error);
      const current = await find(ctx, id);
      if (!current || current.deletedAt) return err(errors.notFound('Workspace'));
      if (current.isDefault) return err(errors.conflict('The default workspace cannot be deleted.'));
      const now = clock.now();
      const updated = await store.transaction(async (tx) => {
        const after = await tx.workspaces.update(ctx.tenant.id, id, { deletedAt: now.toISOString(), updatedAt: now.toISOString() });
        if (after) await appendAudit(tx, deps, ctx.tenant.id, auditActor(ctx.principal), { type: 'workspace.deleted', workspaceId: id, subjectId: id, before: workspaceAudit(current), after: workspaceAudit(after) });
        return after;
      });
      return afterChange(updated ? ok(workspaceView(updated, now)) : err(errors.notFound('Workspace')), ctx.tenant.id, id);
    },

    /** Brings a soft-deleted workspace back within its 30-day window; afterwards it is `gone`. */
    async restore(ctx: RequestContext, id: string): Promise<Result<WorkspaceView, PanyaError>> {
      const allowed = tenantAdmin(ctx);
      if (allowed.isErr()) return err(allowed.error);
      const current = await find(ctx, id);
      if (!current) return err(errors.notFound('Workspace'));
      if (!current.deletedAt) return err(errors.conflict('The workspace is not deleted.'));
      const now = clock.now();
      if (now.getTime() >= recoverUntil(current.deletedAt).getTime()) {
        return err(panyaError('gone', { message: `The ${WORKSPACE_RECOVERY_DAYS}-day recovery window of workspace "${current.slug}" has passed; it is being deleted.` }));
      }
      // A restored workspace counts toward the cap again.
      const restored = await runInTransaction(store, async (tx) => {
        const tenant = await tx.tenants.get(ctx.tenant.id);
        if (!tenant) return err(errors.notFound('Tenant'));
        await tx.tenants.update(tenant.id, { updatedAt: tenant.updatedAt });
        const refused = capError(tenant, (await tx.workspaces.list(tenant.id)).length, now);
        if (refused) return err(refused);
        const updated = await tx.workspaces.update(tenant.id, id, { deletedAt: null, updatedAt: now.toISOString() });
        if (updated) await appendAudit(tx, deps, tenant.id, auditActor(ctx.principal), { type: 'workspace.restored', workspaceId: id, subjectId: id, before: workspaceAudit(current), after: workspaceAudit(updated) });
        return updated ? ok(workspaceView(updated, now)) : err(errors.notFound('Workspace'));
      });
      return afterChange(restored, ctx.tenant.id, id);
    },
  };
}

export type WorkspaceService = ReturnType<typeof createWorkspaceService>;
