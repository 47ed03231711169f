import { err, ok, type Result } from 'neverthrow';
import { errors, panyaError, type PanyaError } from '../errors.js';
import { quotaKey, quotasSchema, type PlanId } from '../plans.js';
import type { PlanChangeEntry } from '../billing/ports/billing.js';
import type { Store, TenantRecord, WorkspaceRecord } from '../ports/store.js';
import { createTenantSchema, updateTenantSchema, type CreateTenantInput, type UpdateTenantInput } from './schemas.js';
import { parseInput } from '../schemas/validate.js';
import { runInTransaction, type ServiceDeps } from '../context.js';
import { applyWorkspaceCap } from './workspaces.js';
import { NEW_WORKSPACE_PRIVACY } from '../privacy/settings.js';
import { appendAudit, type AuditActor } from '../audit/audit.js';
import { canonicalJson } from '../audit/chain.js';
import type { Clock, Ids } from '../ports/system.js';

export const DEFAULT_WORKSPACE_SLUG = 'default';

export interface CreatedTenant {
  tenant: TenantRecord;
  defaultWorkspace: WorkspaceRecord;
}

export interface TenancyHooks {
  /** After a tenant's plan or quotas changed (custom hostnames go inactive or reactivate). */
  limitsChanged?(tenantId: string): Promise<unknown>;
}

/** A change of plan and, with it, of the tenant's customer at the payment processor. */
export interface PlanChange {
  plan?: PlanId;
  paymentCustomerId?: string;
}

/**
 * The one place a tenant's plan changes for billing (the processor's subscription webhooks;
 * `TenancyService.changePlan` for everything else). Writes through `store`, which may be the
 * caller's transaction; once it has committed, the caller runs the plan-change hooks
 * (`TenancyHooks.limitsChanged`: limits follow the plan, custom hostnames go inactive below
 * Business and reactivate on re-upgrade). Returns the tenant as written.
 */
/** Who changes a plan, for the audit log: the operator's CLI, a payment-processor webhook. */
/** The operator's own tools (`panya tenant …`). */
const OPERATOR: AuditActor = { kind: 'operator', id: 'cli' };

export type PlanChangeAudit = { actor: AuditActor; system: { clock: Clock; ids: Ids } };

export async function changePlan(store: Store, tenant: TenantRecord, change: PlanChange, now: Date, audit?: PlanChangeAudit): Promise<{ tenant: TenantRecord; planChanged: boolean }> {
  const patch = {
    ...(change.plan && change.plan !== tenant.plan ? { plan: change.plan } : {}),
    ...(change.paymentCustomerId && change.paymentCustomerId !== tenant.paymentCustomerId ? { paymentCustomerId: change.paymentCustomerId } : {}),
  };
  if (Object.keys(patch).length === 0) {
    // Quotas may have changed (operator update): the workspace cap is re-applied all the same.
    await applyWorkspaceCap(store, tenant, now);
    return { tenant, planChanged: false };
  }
  const updated = { ...patch, updatedAt: now.toISOString() };
  await store.tenants.update(tenant.id, updated);
  if (patch.plan) await recordPlanChange(store, tenant.id, { at: now.toISOString(), from: tenant.plan, to: patch.plan }, now);
  if (audit) {
    await appendAudit(store, audit.system, tenant.id, audit.actor, {
      type: patch.plan ? 'plan.changed' : 'billing.customer_changed',
      subjectId: tenant.id,
      before: { plan: tenant.plan, paymentCustomerId: tenant.paymentCustomerId },
      after: { plan: patch.plan ?? tenant.plan, paymentCustomerId: patch.paymentCustomerId ?? tenant.paymentCustomerId },
    });
  }
  const result = { ...tenant, ...updated };
  // Every cap follows the plan: workspaces here (same transaction), hostnames in the hook after commit.
  await applyWorkspaceCap(store, result, now);
  return { tenant: result, planChanged: 'plan' in patch };
}

/** Plan changes are kept ~13 months: long enough for any period still to be reported or viewed. */
const PLAN_HISTORY_MS = 400 * 86_400_000;

/** Appends to the tenant's plan history, from which a period is billed part by part. */
async function recordPlanChange(store: Store, tenantId: string, change: PlanChangeEntry, now: Date): Promise<void> {
  const current = await store.billing.getTenantBilling(tenantId);
  const keep = (current?.planHistory ?? []).filter((c) => Date.parse(c.at) >= now.getTime() - PLAN_HISTORY_MS);
  await store.billing.putTenantBilling({
    ...(current ?? { tenantId, subscriptionId: null, subscriptionStatus: null, interval: null, lockedRates: null, lockedUntil: null, addonSeats: 0 }),
    planHistory: [...keep, change],
    updatedAt: now.toISOString(),
  });
}

export function createTenancyService(deps: ServiceDeps, hooks: TenancyHooks = {}) {
  const { store, clock, ids } = deps;

  return {
    /** Creates a tenant and, in the same transaction, its default workspace. */
    async createTenant(input: CreateTenantInput): Promise<Result<CreatedTenant, PanyaError>> {
      const parsed = parseInput(createTenantSchema, input);
      if (parsed.isErr()) return err(parsed.error);
      const quotas = parseInput(quotasSchema, parsed.value.quotas, 'quotas');
      if (quotas.isErr()) return err(quotas.error);
      const now = clock.now().toISOString();
      const tenant: TenantRecord = {
        id: ids.next('ten'),
        slug: parsed.value.slug,
        plan: parsed.value.plan,
        quotas: quotas.value,
        paymentCustomerId: parsed.value.paymentCustomerId,
        createdAt: now,
        updatedAt: now,
      };
      const defaultWorkspace: WorkspaceRecord = {
        id: ids.next('ws'),
        tenantId: tenant.id,
        slug: DEFAULT_WORKSPACE_SLUG,
        name: parsed.value.name ?? 'Default',
        brandAccent: parsed.value.brandAccent ?? null,
        isDefault: true,
        deletedAt: null,
        suspendedAt: null,
        privacy: NEW_WORKSPACE_PRIVACY,
        createdAt: now,
        updatedAt: now,
      };
      return runInTransaction(store, async (tx) => {
        if (await tx.tenants.getBySlug(tenant.slug)) return err(errors.conflict(`Tenant "${tenant.slug}" already exists.`));
        // An erased tenant's slug is not reused: its URLs keep answering 410 and never reach a new owner.
        if (await tx.tombstones.getBySlug(tenant.slug)) return err(errors.conflict(`"${tenant.slug}" belonged to an erased tenant and is not reused; choose another slug.`));
        await tx.tenants.insert(tenant);
        await tx.workspaces.insert(defaultWorkspace);
        return ok({ tenant, defaultWorkspace });
      });
    },

    /** Every tenant (operator listing), by slug. */
    async list(): Promise<TenantRecord[]> {
      return store.tenants.list();
    },

    /**
     * The operator's change to a tenant's plan, `quotas_json` overrides and grandfathering
     * window; the result is re-validated as a whole before it is written.
     */
    async update(slug: string, input: UpdateTenantInput): Promise<Result<TenantRecord, PanyaError>> {
      const parsed = parseInput(updateTenantSchema, input);
      if (parsed.isErr()) return err(parsed.error);
      const { plan, quotas: changes, grandfather, crossWorkspaceVisitorLinking } = parsed.value;
      const updated = await runInTransaction(store, async (tx): Promise<Result<TenantRecord, PanyaError>> => {
        const tenant = await tx.tenants.getBySlug(slug);
        if (!tenant) return err(errors.notFound(`Tenant "${slug}"`));
        const quotas: Record<string, unknown> = { ...tenant.quotas };
        for (const [name, value] of Object.entries(changes ?? {})) {
          // A plan-table limit (or its alias), or a public-surface budget (`public-budgets.ts`).
          const key = quotaKey(name) ?? name;
          if (value === 'default') delete quotas[key];
          else quotas[key] = value;
        }
        if (grandfather === null) {
          delete quotas.legacyPlan;
          delete quotas.grandfatheredUntil;
        } else if (grandfather) {
          quotas.legacyPlan = grandfather.legacyPlan;
          quotas.grandfatheredUntil = grandfather.until;
        }
        if (crossWorkspaceVisitorLinking !== undefined) quotas.crossWorkspaceVisitorLinking = crossWorkspaceVisitorLinking;
        if (quotas.crossWorkspaceVisitorLinking === true && (plan ?? tenant.plan) !== 'enterprise') {
          return err(panyaError('plan_required', { message: 'Cross-workspace visitor linking is an Enterprise flag.', plan: 'Enterprise' }));
        }
        const valid = parseInput(quotasSchema, quotas, 'quotas');
        if (valid.isErr()) return err(valid.error);
        const now = clock.now();
        const patch = { quotas: valid.value, updatedAt: now.toISOString() };
        await tx.tenants.update(tenant.id, patch);
        if (canonicalJson(tenant.quotas) !== canonicalJson(valid.value)) {
          await appendAudit(tx, deps, tenant.id, OPERATOR, { type: 'tenant.limits_updated', subjectId: tenant.id, before: { quotas: tenant.quotas }, after: { quotas: valid.value } });
        }
        // The plan itself moves through the one plan-change function, like a processor webhook's.
        return ok((await changePlan(tx, { ...tenant, ...patch }, plan ? { plan } : {}, now, { actor: OPERATOR, system: deps })).tenant);
      });
      if (updated.isOk()) await hooks.limitsChanged?.(updated.value.id);
      return updated;
    },

    /** Changes a tenant's plan (and processor customer) through `changePlan`, then runs the hooks. */
    async changePlan(tenantId: string, change: PlanChange): Promise<Result<TenantRecord, PanyaError>> {
      const tenant = await store.tenants.get(tenantId);
      if (!tenant) return err(errors.notFound('Tenant'));
      const result = await changePlan(store, tenant, change, clock.now(), { actor: OPERATOR, system: deps });
      if (result.planChanged) await hooks.limitsChanged?.(tenantId);
      return ok(result.tenant);
    },

    async getTenantBySlug(slug: string): Promise<Result<TenantRecord, PanyaError>> {
      const tenant = await store.tenants.getBySlug(slug);
      return tenant ? ok(tenant) : err(errors.notFound('Tenant'));
    },

    /** A live (not soft-deleted) workspace of the tenant, by slug. */
    async getWorkspaceBySlug(tenantId: string, slug: string): Promise<Result<WorkspaceRecord, PanyaError>> {
      const ws = await store.workspaces.getBySlug(tenantId, slug);
      return ws && !ws.deletedAt ? ok(ws) : err(errors.notFound('Workspace'));
    },
  };
}

export type TenancyService = ReturnType<typeof createTenancyService>;
