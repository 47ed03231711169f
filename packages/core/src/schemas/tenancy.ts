import { z } from 'zod';
import { PLAN_IDS } from '../plans.js';
import { API_KEY_SCOPES } from '../ports/store.js';

/** Slugs appear in URLs (`/c/{slug}`) and hostnames, so they are DNS-label-like. */
const RESERVED_TENANT_SLUGS = new Set(['api', 'c', 'admin', 'app', 'www', 'help', 'static', 'assets', 'healthz', 'mcp', 'cron', 'login', 'auth']);

export const slugSchema = z
  .string()
  .min(2)
  .max(40)
  .regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/, 'lowercase letters, digits and inner hyphens only')
  .refine((s) => !s.includes('--'), 'no consecutive hyphens');

export const tenantSlugSchema = slugSchema.refine((s) => !RESERVED_TENANT_SLUGS.has(s), 'this slug is reserved');

export const planSchema = z.preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), z.enum(PLAN_IDS));

export const createTenantSchema = z.strictObject({
  slug: tenantSlugSchema,
  plan: planSchema.default('free'),
  quotas: z.record(z.string(), z.unknown()).default({}),
  paymentCustomerId: z.string().min(1).nullable().default(null),
});
export type CreateTenantInput = z.input<typeof createTenantSchema>;

export const apiKeyScopeSchema = z.enum(API_KEY_SCOPES);

export const createApiKeySchema = z.strictObject({
  name: z.string().trim().min(1).max(100).default('API key'),
  scopes: z.array(apiKeyScopeSchema).min(1).transform((s) => [...new Set(s)]),
  workspaceSlug: slugSchema.optional(),
});
export type CreateApiKeyInput = z.input<typeof createApiKeySchema>;
