import { err, ok, type Result } from 'neverthrow';
import { errors, type PanyaError } from '../errors.js';
import { quotasSchema } from '../plans.js';
import type { TenantRecord, WorkspaceRecord } from '../ports/store.js';
import { createTenantSchema, type CreateTenantInput } from '../schemas/tenancy.js';
import { parseInput } from '../schemas/validate.js';
import { runInTransaction, type ServiceDeps } from './context.js';

export const DEFAULT_WORKSPACE_SLUG = 'default';

export interface CreatedTenant {
  tenant: TenantRecord;
  defaultWorkspace: WorkspaceRecord;
}

export function createTenancyService(deps: ServiceDeps) {
  const { store, clock, ids } = deps;

  return {
    /** Creates a tenant and, in the same transaction, its default workspace. */
    async createTenant(input: CreateTenantInput | unknown): Promise<Result<CreatedTenant, PanyaError>> {
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
        name: 'Default',
        brandAccent: null,
        isDefault: true,
        deletedAt: null,
        createdAt: now,
        updatedAt: now,
      };
      return runInTransaction(store, async (tx) => {
        if (await tx.tenants.getBySlug(tenant.slug)) return err(errors.conflict(`Tenant "${tenant.slug}" already exists.`));
        await tx.tenants.insert(tenant);
        await tx.workspaces.insert(defaultWorkspace);
        return ok({ tenant, defaultWorkspace });
      });
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
