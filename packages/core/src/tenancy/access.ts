import { err, ok, type Result } from 'neverthrow';
import { errors, type PanyaError } from '../errors.js';
import { API_KEY_SCOPES, type TenantRecord, type WorkspaceRecord } from '../ports/store.js';
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
 * Resolved tenant-and-workspace pairs a process keeps (a few hundred bytes each): room for every
 * workspace of a node's 10,000 tenants and their extra workspaces, so a tenant searched once an
 * hour is not resolved again at each visit; about 15 MB when full.
 */
const RESOLVED_ENTRIES = 50_000;

/**
 * Resolves which tenant and workspace a request acts on. A slug of another tenant is
 * answered as "not found" (never data, never a hint that it exists); a key bound to one
 * workspace cannot address another.
 */
export function createAccessService(deps: ServiceDeps) {
  const { store } = deps;
  /**
   * Tenants and workspaces this process resolved, each filed under the tenant's version read
   * before it (`TenantStore.version`): one small read per request instead of two records, and a
   * change made anywhere (another process or node included) is seen on the next request.
   */
  const resolved = new Map<string, { version: number; tenant: TenantRecord; workspace: WorkspaceRecord | null }>();

  async function lookup(principal: Principal, addressing: Addressing): Promise<{ tenant: TenantRecord; workspace: WorkspaceRecord | null } | null> {
    const byKey = addressing.workspaceSlug === undefined && addressing.tenantSlug === undefined && principal.workspaceId ? principal.workspaceId : null;
    const key = `${principal.tenantId}\u0000${addressing.workspaceSlug ?? ''}\u0000${byKey ?? ''}`;
    const version = await store.tenants.version(principal.tenantId);
    if (version === null) return null;
    const known = resolved.get(key);
    if (known && known.version === version) return known;
    const tenant = await store.tenants.get(principal.tenantId);
    if (!tenant) return null;
    const workspace =
      addressing.workspaceSlug !== undefined ? await store.workspaces.getBySlug(tenant.id, addressing.workspaceSlug)
      : byKey ? await store.workspaces.get(tenant.id, byKey)
      : await store.workspaces.getDefault(tenant.id);
    if (resolved.size >= RESOLVED_ENTRIES) resolved.delete(resolved.keys().next().value!);
    resolved.set(key, { version, tenant, workspace });
    return { tenant, workspace };
  }

  return {
    async resolve(principal: Principal, addressing: Addressing): Promise<Result<RequestContext, PanyaError>> {
      if (addressing.workspaceSlug !== undefined && addressing.tenantSlug === undefined) return err(errors.notFound('Workspace'));
      const found = await lookup(principal, addressing);
      if (!found) return err(errors.unauthorized());
      const tenant = { ...found.tenant };
      if (addressing.tenantSlug !== undefined && addressing.tenantSlug !== tenant.slug) return err(errors.notFound('Tenant'));
      const workspace = found.workspace && { ...found.workspace };
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
