import { err, ok, type Result } from 'neverthrow';
import { AbortTransaction, errors, isAbortTransaction, isStoreConflict, type PanyaError } from './errors.js';
import type { Clock, Ids, Logger } from './ports/system.js';
import type { MembershipRole } from './tenancy/ports/users.js';
import type { ApiKeyScope, PublicSurface, Scope, Store, TenantRecord, WorkspaceRecord } from './ports/store.js';
import { readerAudiences, type VisitorIdentity } from './audiences/rules.js';

/** What every service gets: the store and the system ports. */
export interface ServiceDeps {
  store: Store;
  clock: Clock;
  ids: Ids;
  logger: Logger;
}

/**
 * Who is calling: an API key, a signed-in user (session), or the operator's own tools
 * (CLI, scheduled jobs) acting for a tenant.
 */
export interface Principal {
  kind: 'api_key' | 'user' | 'system';
  id: string;
  tenantId: string;
  /** The workspace an API key (or a workspace-scoped membership) is bound to, if any. */
  workspaceId: string | null;
  scopes: ApiKeyScope[];
  /** A signed-in user's role for this request. */
  role?: MembershipRole;
  /** A user whose session the tenant's single sign-on provider opened. */
  sso?: boolean;
  /** A publishable key (`svc_pub_…`): only operations that accept browser keys admit it. */
  publishable?: boolean;
  /** A key restricted to one public surface: it reads only documents published there. */
  surface?: PublicSurface;
}

/** A resolved request: the tenant and workspace it is confined to, and its caller. */
export interface RequestContext {
  tenant: TenantRecord;
  workspace: WorkspaceRecord;
  principal: Principal;
  scope: Scope;
  /**
   * The visitor behind a publishable key's request (widget, help center): an opaque id the
   * adapter derives from the client's address and its visitor cookie or id. Public budgets and
   * slots are counted per visitor inside the site's.
   */
  visitor?: string;
  /**
   * The visitor's identity, verified from a token the tenant's backend signed (widget, help
   * center). Absent: an anonymous visitor, who reads `public` documents only.
   */
  identity?: VisitorIdentity;
}

/** The audiences a request reads (audiences/rules.ts); null: every document of its workspace. */
export function audiencesOf(ctx: Pick<RequestContext, 'principal' | 'identity'>): string[] | null {
  return readerAudiences(ctx.principal, ctx.identity ?? null);
}

/**
 * Runs `fn` in a store transaction; an `err` result rolls everything back.
 * A unique-constraint violation becomes a `conflict` error.
 */
export async function runInTransaction<T>(
  store: Store,
  fn: (tx: Store) => Promise<Result<T, PanyaError>>,
): Promise<Result<T, PanyaError>> {
  try {
    const value = await store.transaction(async (tx) => {
      const result = await fn(tx);
      if (result.isErr()) throw new AbortTransaction(result.error);
      return result.value;
    });
    return ok(value);
  } catch (error) {
    if (isAbortTransaction(error)) return err(error.error);
    if (isStoreConflict(error)) return err(errors.conflict(error.message));
    throw error;
  }
}

export function requireScope(ctx: RequestContext, scope: ApiKeyScope): Result<void, PanyaError> {
  return ctx.principal.scopes.includes(scope)
    ? ok(undefined)
    : err(errors.forbidden(`This API key lacks the "${scope}" scope.`, scope));
}
