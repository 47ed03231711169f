/**
 * Budgets of the public surfaces (widget, help center ask box): what anonymous visitors may ask
 * through a site's publishable key. They are the site's own, never the tenant's server keys'
 * (no public traffic can refuse a tenant's secret key), scale with the plan, and each visitor
 * (address + cookie or visitor id) draws from a small budget inside the site's, so one visitor
 * cannot spend the site's and the 61st visitor is not refused because of the 60 before.
 * A tenant's `quotas_json` may override each number (`null`: no limit).
 */
import { z } from 'zod';
import type { PlanId, Quotas } from '../plans.js';

export interface PublicBudgets {
  /** Questions one site (publishable key) answers per hour, all visitors together. */
  sitePerHour: number | null;
  /** …and per UTC day. */
  sitePerDay: number | null;
  /** Questions one visitor asks per hour. */
  visitorPerHour: number | null;
}

export const PUBLIC_BUDGETS: Record<PlanId, PublicBudgets> = {
  free: { sitePerHour: 300, sitePerDay: 1_000, visitorPerHour: 20 },
  team: { sitePerHour: 1_500, sitePerDay: 10_000, visitorPerHour: 30 },
  business: { sitePerHour: 6_000, sitePerDay: 60_000, visitorPerHour: 40 },
  growth: { sitePerHour: 15_000, sitePerDay: 150_000, visitorPerHour: 60 },
  enterprise: { sitePerHour: null, sitePerDay: null, visitorPerHour: 120 },
};

/** The `quotas_json` keys that override a plan's public budgets. */
export const PUBLIC_BUDGET_QUOTA_KEYS = { publicSitePerHour: 'sitePerHour', publicSitePerDay: 'sitePerDay', publicVisitorPerHour: 'visitorPerHour' } as const satisfies Record<string, keyof PublicBudgets>;

const override = z.number().int().nonnegative().nullable();

/** The public budgets binding a tenant: its plan's, then its `quotas_json` overrides. */
export function resolvePublicBudgets(tenant: { plan: PlanId; quotas: Quotas }): PublicBudgets {
  const budgets = { ...PUBLIC_BUDGETS[tenant.plan] };
  for (const [quota, field] of Object.entries(PUBLIC_BUDGET_QUOTA_KEYS)) {
    const value = override.safeParse((tenant.quotas as Record<string, unknown>)[quota]);
    if (value.success) budgets[field] = value.data;
  }
  return budgets;
}
