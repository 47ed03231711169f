import { err, ok, type Result } from 'neverthrow';
import { errors, type PanyaError } from '../errors.js';
import { API_KEY_SCOPES, type WorkspaceRecord } from '../ports/store.js';
import type { Principal, RequestContext, ServiceDeps } from '../context.js';
import { suspendedWorkspaceError } from './workspaces.js';

/** How a request addressed its tenant and workspace (the spec's routing shape). */
export interface Addressing {
  /** `/c/{tenantSlug}/…`; absent for plain `/api/…`. */
  tenantSlug?: string;
  /** `/c/{tenantSlug}/_w/{workspaceSlug}/…`; absent means the default workspace (or the key's own on `/api`). */
  workspaceSlug?: string;
}

/**
 * Resolves which tenant and workspace a request acts on. A slug of another tenant is
 * answered as "not found" (never data, never a hint that it exists); a key bound to one
 * workspace cannot address another.
 */
export function createAccessService(deps: ServiceDeps) {
  const { store } = deps;

  return {
    async resolve(principal: Principal, addressing: Addressing): Promise<Result<RequestContext, PanyaError>> {
      const tenant = await store.tenants.get(principal.tenantId);
      if (!tenant) return err(errors.unauthorized());
      if (addressing.tenantSlug !== undefined && addressing.tenantSlug !== tenant.slug) return err(errors.notFound('Tenant'));

      let workspace: WorkspaceRecord | null;
      if (addressing.workspaceSlug !== undefined) {
        if (addressing.tenantSlug === undefined) return err(errors.notFound('Workspace'));
        workspace = await store.workspaces.getBySlug(tenant.id, addressing.workspaceSlug);
      } else if (addressing.tenantSlug === undefined && principal.workspaceId) {
        workspace = await store.workspaces.get(tenant.id, principal.workspaceId);
      } else {
        workspace = await store.workspaces.getDefault(tenant.id);
      }
      if (!workspace || workspace.deletedAt) return err(errors.notFound('Workspace'));
      // A sibling workspace the key may not address answers exactly like one that does not exist.
      if (principal.workspaceId && principal.workspaceId !== workspace.id) return err(errors.notFound('Workspace'));
      if (workspace.suspendedAt) return err(suspendedWorkspaceError(tenant, workspace, (await store.workspaces.list(tenant.id)).length, deps.clock.now()));
      return ok({ tenant, workspace, principal, scope: { tenantId: tenant.id, workspaceId: workspace.id } });
    },

    /** The slug of the tenant's workspace with this id (soft-deleted ones too), or null. */
    async workspaceSlugById(tenantId: string, workspaceId: string): Promise<string | null> {
      return (await store.workspaces.get(tenantId, workspaceId))?.slug ?? null;
    },

    /** A context for the operator's own tools (CLI, scheduled jobs): every scope, one tenant. */
    async system(tenantSlug: string, workspaceSlug?: string): Promise<Result<RequestContext, PanyaError>> {
      const tenant = await store.tenants.getBySlug(tenantSlug);
      if (!tenant) return err(errors.notFound(`Tenant "${tenantSlug}"`));
      const principal: Principal = { kind: 'system', id: 'system', tenantId: tenant.id, workspaceId: null, scopes: [...API_KEY_SCOPES] };
      return this.resolve(principal, { tenantSlug, ...(workspaceSlug ? { workspaceSlug } : {}) });
    },
  };
}

export type AccessService = ReturnType<typeof createAccessService>;
