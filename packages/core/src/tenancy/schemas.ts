import { z } from 'zod';
import { PLAN_IDS, PLAN_NAMES, QUOTA_KEYS, quotaKey, type PlanId, type QuotaAlias, type QuotaKey } from '../plans.js';
import { PUBLIC_BUDGET_QUOTA_KEYS } from './public-budgets.js';
import { API_KEY_KINDS, API_KEY_SCOPES, PUBLIC_SURFACES } from '../ports/store.js';

/** Slugs appear in URLs (`/c/{slug}`) and hostnames, so they are DNS-label-like. */
const RESERVED_TENANT_SLUGS = new Set(['api', 'c', 'admin', 'app', 'www', 'help', 'static', 'assets', 'healthz', 'readyz', 'metrics', 'mcp', 'cron', 'login', 'auth']);

export const slugSchema = z
  .string()
  .min(2)
  .max(40)
  .regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/, 'lowercase letters, digits and inner hyphens only')
  .refine((s) => !s.includes('--'), 'no consecutive hyphens');

export const tenantSlugSchema = slugSchema.refine((s) => !RESERVED_TENANT_SLUGS.has(s), 'this slug is reserved');

/** A brand accent colour: `#rrggbb`, stored lowercase. */
export const brandAccentSchema = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'a #rrggbb colour')
  .transform((s) => s.toLowerCase());

/** A workspace's display name: the brand its help center, widget and admin app show. */
export const brandNameSchema = z.string().trim().min(1).max(100);

export const planSchema = z.preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), z.enum(PLAN_IDS));

export const createTenantSchema = z.strictObject({
  slug: tenantSlugSchema,
  plan: planSchema.default('free'),
  quotas: z.record(z.string(), z.unknown()).default({}),
  paymentCustomerId: z.string().min(1).nullable().default(null),
  /** The default workspace's brand: its display name (default "Default") and accent colour. */
  name: brandNameSchema.optional(),
  brandAccent: brandAccentSchema.optional(),
});
/** Plans are named by id or display name (any case at run time). */
export type PlanName = PlanId | (typeof PLAN_NAMES)[PlanId];
export type CreateTenantInput = Omit<z.input<typeof createTenantSchema>, 'plan'> & { plan?: PlanName };

export const apiKeyScopeSchema = z.enum(API_KEY_SCOPES);

export const createApiKeySchema = z.strictObject({
  name: z.string().trim().min(1).max(100).default('API key'),
  scopes: z.array(apiKeyScopeSchema).min(1).transform((s) => [...new Set(s)]),
  workspaceSlug: slugSchema.optional(),
  /** `publishable` (`svc_pub_…`): read-only, one workspace, allowed browser origins only. */
  kind: z.enum(API_KEY_KINDS).default('secret'),
  /** `help_center`: the key reads only documents published on the help center (a widget citing help-center articles). */
  surface: z.enum(PUBLIC_SURFACES).optional(),
});
export type CreateApiKeyInput = z.input<typeof createApiKeySchema>;

const quotaValue = z.union([z.number().int().nonnegative(), z.null(), z.literal('default')]);

/**
 * An operator's change to a tenant. `quotas` merges into `quotas_json` by plan-table key
 * (aliases such as `queriesPerKeyPerHour` accepted): a number overrides the plan, `null` lifts
 * the limit, `'default'` removes the override. `grandfather` sets (or with null ends) a window
 * during which the legacy plan's rate limits apply and no hard cap or overage does.
 */
export const updateTenantSchema = z.strictObject({
  plan: planSchema.optional(),
  quotas: z
    .record(z.string(), quotaValue)
    .superRefine((quotas, ctx) => {
      for (const key of Object.keys(quotas)) {
        if (!quotaKey(key) && !Object.hasOwn(PUBLIC_BUDGET_QUOTA_KEYS, key)) ctx.addIssue({ code: 'custom', path: [key], message: `unknown quota; use one of ${[...QUOTA_KEYS, ...Object.keys(PUBLIC_BUDGET_QUOTA_KEYS)].join(', ')}` });
      }
    })
    .optional(),
  grandfather: z
    .strictObject({ until: z.iso.date().or(z.iso.datetime()), legacyPlan: planSchema })
    .nullable()
    .optional(),
  crossWorkspaceVisitorLinking: z.boolean().optional(),
});
export interface UpdateTenantInput {
  plan?: PlanId | (typeof PLAN_NAMES)[PlanId];
  quotas?: Partial<Record<QuotaKey | QuotaAlias | keyof typeof PUBLIC_BUDGET_QUOTA_KEYS, number | null | 'default'>>;
  grandfather?: { until: string; legacyPlan: PlanId | (typeof PLAN_NAMES)[PlanId] } | null;
  /** Enterprise only. Stored for the contract; linking visitors across workspaces is not implemented. */
  crossWorkspaceVisitorLinking?: boolean;
}
