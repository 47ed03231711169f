import type { ApiKeyScope, Me, WorkspaceJson } from './types.js';

/** What every screen gets: where to call, and what the signed-in role may do there. */
export interface AppContext {
  /** API root of the selected workspace (`/c/{tenant}/api` or `/c/{tenant}/_w/{ws}/api`). */
  base: string;
  /** API root of the tenant's default address, for tenant-wide settings. */
  tenantBase: string;
  me: Me;
  can: (scope: ApiKeyScope) => boolean;
  /** Tenant-wide owner or admin: keys, workspaces, hostnames, billing. */
  isTenantAdmin: boolean;
  workspaces: WorkspaceJson[];
  reloadWorkspaces: () => Promise<void>;
}
