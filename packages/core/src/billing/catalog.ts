/**
 * What billing needs to know about the processor's catalog: the price ids of each paid tier and
 * the meter event names. Adapters read them from configuration; core only decides with them.
 */
import type { PlanId } from '../plans.js';
import type { MeterKey } from './ports/billing.js';

export const PAID_TIERS = ['team', 'business', 'growth', 'enterprise'] as const satisfies readonly PlanId[];
export type PaidTier = (typeof PAID_TIERS)[number];

export interface TierPrices {
  /** Monthly base recurring price. */
  base?: string;
  /** Yearly base recurring price. */
  baseAnnual?: string;
  /** Metered resolution-overage price (aggregates `svc_resolutions`). */
  resolutions?: string;
  /** Metered API-query-overage price (aggregates `svc_api_queries`). */
  apiQueries?: string;
}

export interface PriceCatalog {
  tiers: Partial<Record<PaidTier, TierPrices>>;
  /** Metered Team seat add-on price (aggregates `svc_seat_addon_team`, last value). */
  teamSeats?: string;
}

export { METERS, type MeterKey } from './ports/billing.js';

/** Configured event name per meter; a meter without one is not reported. */
export type MeterEventNames = Partial<Record<MeterKey, string>>;

export function isPaidTier(plan: PlanId): plan is PaidTier {
  return (PAID_TIERS as readonly string[]).includes(plan);
}

/** The tier whose base price (monthly or yearly) is `priceId`, e.g. to read a webhook's plan. */
export function tierOfBasePrice(catalog: PriceCatalog, priceId: string): { plan: PaidTier; interval: 'month' | 'year' } | null {
  for (const plan of PAID_TIERS) {
    const prices = catalog.tiers[plan];
    if (prices?.base === priceId) return { plan, interval: 'month' };
    if (prices?.baseAnnual === priceId) return { plan, interval: 'year' };
  }
  return null;
}
