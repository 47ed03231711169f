import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import { errors, type PanyaError } from '../errors.js';
import { parseInput } from '../schemas/validate.js';
import { requireScope, type RequestContext, type ServiceDeps } from '../context.js';
import { appendAudit, auditActor } from '../audit/audit.js';

export const MAX_ALLOWED_ORIGINS = 50;

/**
 * A browser origin as the `Origin` header carries it: `https://help.example.com` (scheme, host,
 * port unless default). Anything else — a path, a query, credentials, another scheme — is null.
 */
export function normalizeOrigin(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) return null;
  return url.origin;
}

const originSchema = z.string().max(300).transform((v, ctx) => {
  const origin = normalizeOrigin(v);
  if (!origin) {
    ctx.addIssue({ code: 'custom', message: 'an origin such as https://help.example.com (scheme, host and port only)' });
    return z.NEVER;
  }
  return origin;
});

export const updateTenantSettingsSchema = z.strictObject({
  allowedOrigins: z.array(originSchema).max(MAX_ALLOWED_ORIGINS).transform((o) => [...new Set(o)].sort()),
});
export type UpdateTenantSettingsInput = z.input<typeof updateTenantSettingsSchema>;

export type TenantSettings = {
  /** Origins whose pages may call the API from a browser (CORS), tenant-wide. */
  allowedOrigins: string[];
  connectorWebhook: { secretSet: boolean; secretCreatedAt: string | null };
};

/** Tenant settings are tenant-wide: an `admin` key or owner/admin membership not bound to one workspace. */
function tenantAdmin(ctx: RequestContext): Result<void, PanyaError> {
  const scoped = requireScope(ctx, 'admin');
  if (scoped.isErr()) return scoped;
  return ctx.principal.workspaceId === null ? ok(undefined) : err(errors.forbidden('Tenant settings need a tenant-wide admin key or membership, not one bound to a workspace.', 'admin'));
}

/** What the settings need of the connector service (knowledge): a new signing secret. */
export interface ConnectorSecrets {
  rotateSecret(tenantId: string): Promise<{ secret: string; createdAt: string }>;
}

/** The tenant-wide settings of browser access and content sync. */
export function createTenantSettingsService(deps: ServiceDeps & { connectors: ConnectorSecrets }) {
  const { store } = deps;
  async function view(tenantId: string): Promise<TenantSettings> {
    const secret = await store.connectors.getSecret(tenantId);
    return { allowedOrigins: await store.origins.list(tenantId), connectorWebhook: { secretSet: secret !== null, secretCreatedAt: secret?.createdAt ?? null } };
  }
  return {
    async get(ctx: RequestContext): Promise<Result<TenantSettings, PanyaError>> {
      const allowed = tenantAdmin(ctx);
      if (allowed.isErr()) return err(allowed.error);
      return ok(await view(ctx.tenant.id));
    },

    async update(ctx: RequestContext, input: UpdateTenantSettingsInput): Promise<Result<TenantSettings, PanyaError>> {
      const allowed = tenantAdmin(ctx);
      if (allowed.isErr()) return err(allowed.error);
      const parsed = parseInput(updateTenantSettingsSchema, input);
      if (parsed.isErr()) return err(parsed.error);
      await store.transaction(async (tx) => {
        const before = await tx.origins.list(ctx.tenant.id);
        await tx.origins.replace(ctx.tenant.id, parsed.value.allowedOrigins);
        await appendAudit(tx, deps, ctx.tenant.id, auditActor(ctx.principal), { type: 'tenant.settings_updated', workspaceId: null, subjectId: ctx.tenant.id, before: { allowedOrigins: before }, after: { allowedOrigins: parsed.value.allowedOrigins } });
      });
      return ok(await view(ctx.tenant.id));
    },

    async rotateConnectorSecret(ctx: RequestContext): Promise<Result<{ secret: string; createdAt: string }, PanyaError>> {
      const allowed = tenantAdmin(ctx);
      if (allowed.isErr()) return err(allowed.error);
      const rotated = await deps.connectors.rotateSecret(ctx.tenant.id);
      await appendAudit(store, deps, ctx.tenant.id, auditActor(ctx.principal), { type: 'tenant.connector_secret_rotated', workspaceId: null, subjectId: ctx.tenant.id, after: { createdAt: rotated.createdAt } });
      return ok(rotated);
    },

    /** Whether `origin` may call the API for this tenant. */
    async allowsOrigin(tenantId: string, origin: string): Promise<boolean> {
      return (await store.origins.list(tenantId)).includes(origin);
    },
  };
}

export type TenantSettingsService = ReturnType<typeof createTenantSettingsService>;
