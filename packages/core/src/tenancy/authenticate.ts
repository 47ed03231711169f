import { err, ok, type Result } from 'neverthrow';
import { errors, type PanyaError } from '../errors.js';
import type { ApiKeyScope } from '../ports/store.js';
import type { Addressing, AccessService } from './access.js';
import type { ApiKeyService } from './api-keys.js';
import { audiencesOf, requireScope, type RequestContext } from '../context.js';
import { HELP_CENTER_SURFACE } from '../audiences/rules.js';
import { cronSecretMatches } from './cron-secret.js';
import { normalizeOrigin } from './tenant-settings.js';
import type { TenancyService } from './tenancy.js';
import type { UserService } from './users.js';

/** What a request presents to prove who it is; adapters copy it from headers and cookies. */
export interface Credentials {
  /** The `Authorization` header as sent. */
  authorization?: string | undefined;
  /** The session token of a signed-in user (already verified as untampered by the adapter). */
  sessionToken?: string | undefined;
  /** The HTTP method: cookie-authenticated writes need `requestedWith` (CSRF defence). */
  method?: string;
  /** Whether `X-Requested-With` was sent: a custom header cannot cross sites without a preflight. */
  requestedWith?: boolean;
  /** The `Origin` header: sent by browsers, so its presence marks a browser caller. */
  origin?: string | undefined;
  /**
   * A visitor token the tenant's backend signed (widget `data-visitor-token`, help center): on a
   * public key's request it becomes the verified `identity`, or the request is refused (401).
   */
  visitorToken?: string | undefined;
}

/** What the addressed route admits beyond its scope. */
export interface RouteAccess {
  /** The route accepts publishable keys (search, answer, chat); every other route refuses them. */
  acceptsPublishable?: boolean;
}

/** Where a request comes in: the REST API, or the MCP tool server. */
export type Surface = 'api' | 'mcp';

/**
 * The scopes a surface requires, and what holding a scope implies there. The mcp scope admits a
 * key to the tool server, whose tools only read: within it the key reads the knowledge base
 * whether or not it also holds `read` (a key for an AI host needs nothing else).
 */
export const SURFACES: Record<Surface, { requires: ApiKeyScope | null; sessions: boolean; implies: Partial<Record<ApiKeyScope, ApiKeyScope[]>> }> = {
  api: { requires: null, sessions: true, implies: {} },
  mcp: { requires: 'mcp', sessions: false, implies: { mcp: ['read'] } },
};

/** The token of an `Authorization: Bearer <token>` header. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

function withImplied(ctx: RequestContext, implies: Partial<Record<ApiKeyScope, ApiKeyScope[]>>): RequestContext {
  const held = ctx.principal.scopes;
  const extra = held.flatMap((s) => implies[s] ?? []).filter((s) => !held.includes(s));
  if (extra.length === 0) return ctx;
  return { ...ctx, principal: { ...ctx.principal, scopes: [...held, ...new Set(extra)] } };
}

/**
 * One authentication for every adapter: API keys, user sessions and the cron secret, and the
 * tenant/workspace the request addresses (`/api`, `/c/{tenant}/api`, `/c/{tenant}/_w/{ws}/api`).
 */
export function createAuthService(deps: {
  apiKeys: ApiKeyService;
  users: UserService;
  access: AccessService;
  tenancy: TenancyService;
  /** The tenant's allowed browser origins (tenant settings). */
  allowsOrigin(tenantId: string, origin: string): Promise<boolean>;
  allowsAnyTenant(origin: string): Promise<boolean>;
  /** The origins of the tenant's help center (help host, active custom hostnames). */
  helpCenterOrigins(tenantId: string): Promise<string[]>;
  /** Verifies a visitor token for the request (visitor-identity service). */
  identify(ctx: RequestContext, token: string): Promise<Result<RequestContext, PanyaError>>;
}) {
  /** An allowed origin of the tenant; a key restricted to the help center also works on the help center's own pages. */
  async function allowedFor(ctx: RequestContext, origin: string): Promise<boolean> {
    if (await deps.allowsOrigin(ctx.tenant.id, origin)) return true;
    return ctx.principal.surface === HELP_CENTER_SURFACE && (await deps.helpCenterOrigins(ctx.tenant.id)).includes(origin);
  }

  /**
   * Browser rules for API keys. A publishable key works only on routes that accept it, never on
   * MCP, and only from a page on one of the tenant's allowed origins (no `Origin` → refused: it
   * is a browser key). A secret key without `Origin` is a server and passes; with an `Origin`
   * it must be an allowed one, so a leaked secret key cannot be used from an arbitrary page. A
   * key restricted to the help center is also accepted from the help center's own origins.
   */
  async function browserRules(ctx: RequestContext, origin: string | undefined, surface: Surface, route: RouteAccess): Promise<Result<void, PanyaError>> {
    const normalized = origin === undefined ? null : normalizeOrigin(origin);
    const allowed = normalized !== null && (await allowedFor(ctx, normalized));
    if (ctx.principal.publishable) {
      if (surface !== 'api' || !route.acceptsPublishable) return err(errors.forbidden('A publishable key (svc_pub_…) may only search, answer and chat; use a secret key (svc_live_…) from a server for anything else.'));
      if (origin === undefined) return err(errors.forbidden('A publishable key (svc_pub_…) works only from a browser page on one of the tenant\'s allowed origins; servers use a secret key (svc_live_…).'));
      if (!allowed) return err(errors.forbidden(`The origin ${origin} is not in the tenant's allowed origins (PATCH /api/tenant/settings allowedOrigins).`));
      return ok(undefined);
    }
    if (origin !== undefined && !allowed) return err(errors.forbidden(`Secret keys are not accepted from the browser origin ${origin}: it is not in the tenant's allowed origins. Use a publishable key (svc_pub_…) in pages.`));
    return ok(undefined);
  }

  return {
    async authenticate(credentials: Credentials, addressing: Addressing, surface: Surface = 'api', route: RouteAccess = {}): Promise<Result<RequestContext, PanyaError>> {
      const rules = SURFACES[surface];
      // A signed-in user (admin app) on a tenant path; an API key takes precedence when both are sent.
      if (rules.sessions && !credentials.authorization && credentials.sessionToken && addressing.tenantSlug !== undefined) {
        if (!SAFE_METHODS.has((credentials.method ?? 'GET').toUpperCase()) && !credentials.requestedWith) {
          return err(errors.forbidden('Cookie-authenticated writes need the X-Requested-With header.'));
        }
        const user = await deps.users.authenticateSession(credentials.sessionToken);
        if (user.isErr()) return err(user.error);
        return deps.users.resolve(user.value, addressing.tenantSlug, addressing.workspaceSlug, credentials.sessionToken);
      }
      const principal = await deps.apiKeys.authenticate(bearerToken(credentials.authorization));
      if (principal.isErr()) return err(principal.error);
      const ctx = await deps.access.resolve(principal.value, addressing);
      if (ctx.isErr()) return err(ctx.error);
      const browser = await browserRules(ctx.value, credentials.origin, surface, route);
      if (browser.isErr()) return err(browser.error);
      if (rules.requires) {
        const allowed = requireScope(ctx.value, rules.requires);
        if (allowed.isErr()) return err(allowed.error);
      }
      const resolved = withImplied(ctx.value, rules.implies);
      // Only a public reader's audiences depend on who the visitor is; internal callers read everything.
      if (credentials.visitorToken !== undefined && audiencesOf(resolved) !== null) return deps.identify(resolved, credentials.visitorToken);
      return ok(resolved);
    },

    /**
     * Whether a browser page on `origin` may call the API (CORS): on a tenant path, that tenant's
     * allowed origins; on `/api` (no tenant named) any tenant's, since the real request is then
     * checked against its key's tenant.
     */
    async corsAllows(origin: string, tenantSlug?: string): Promise<boolean> {
      const normalized = normalizeOrigin(origin);
      if (!normalized) return false;
      if (tenantSlug === undefined) return deps.allowsAnyTenant(normalized);
      const tenant = await deps.tenancy.getTenantBySlug(tenantSlug);
      return tenant.isOk() && deps.allowsOrigin(tenant.value.id, normalized);
    },

    /**
     * Who may run scheduled jobs: the cron secret runs a job for every tenant; on a tenant path
     * (admin mode) the secret or a tenant owner's session runs it for that tenant only.
     */
    async authorizeCron(credentials: Credentials, options: { secret?: string | undefined; tenantSlug?: string | undefined }): Promise<Result<{ tenantId?: string }, PanyaError>> {
      const bySecret = cronSecretMatches(bearerToken(credentials.authorization), options.secret);
      // Without a configured secret no caller can ever succeed by secret: say so, instead of "wrong secret".
      const secretHint = options.secret
        ? 'send "Authorization: Bearer <PANYA_CRON_SECRET>"'
        : 'no cron secret is configured on this server: set PANYA_CRON_SECRET (16 characters or more) and send it as "Authorization: Bearer <secret>"';
      if (options.tenantSlug === undefined) return bySecret ? ok({}) : err(errors.forbidden(`Cron jobs need the cron secret; ${secretHint}.`));
      const tenant = await deps.tenancy.getTenantBySlug(options.tenantSlug);
      if (!bySecret) {
        // A job run changes state even on GET: a cookie alone (a cross-site link or image) never starts one.
        if (credentials.sessionToken && !credentials.requestedWith) return err(errors.forbidden('A job run with the session cookie needs the X-Requested-With header.'));
        const user = await deps.users.authenticateSession(credentials.sessionToken);
        const ctx = user.isOk() && tenant.isOk() ? await deps.users.resolve(user.value, options.tenantSlug, undefined, credentials.sessionToken) : null;
        if (!ctx?.isOk() || ctx.value.principal.role !== 'owner') return err(errors.forbidden(`Cron jobs need the cron secret or a tenant owner session; ${secretHint}.`));
      }
      if (tenant.isErr()) return err(tenant.error);
      return ok({ tenantId: tenant.value.id });
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
