/**
 * Overage math (DESIGN): resolution-equivalents = resolutions + 0.2 × API queries. Resolutions
 * draw on the included pool first; API queries (5 per included resolution) use what is left.
 * What remains is overage, in whole units; money is integer satang, never a float.
 */
import { API_QUERIES_PER_RESOLUTION, PLANS, type EffectiveLimits, type PlanId } from '../plans.js';
import type { OverageRates } from './ports/billing.js';

export type { OverageRates };

/** A period's usage totals (whole numbers). */
export interface UsageTotals {
  resolutions: number;
  apiQueries: number;
  guidedFlows: number;
  /** Paid Team add-on seats at the end of the period. */
  addonSeats: number;
}

export interface Overage {
  /** resolutions + API queries / 5, exact to 0.2. */
  resolutionEquivalents: number;
  includedResolutions: number | null;
  resolutionOverage: number;
  apiQueryOverage: number;
  rates: OverageRates;
  resolutionOverageSatang: number;
  apiQueryOverageSatang: number;
  seatsSatang: number;
  /** Base price of the plan (monthly), null where there is none (Free) or it is per contract. */
  baseSatang: number | null;
  /** Base + seats + overage: what the period is projected to cost, in satang. */
  projectedSatang: number;
}

/** The overage rates that bind a tenant: those locked at an annual sign-up, else the plan's. */
export function overageRates(plan: PlanId, locked?: OverageRates | null): OverageRates {
  if (locked) return locked;
  const { resolutionOverageSatang, apiQueryOverageSatang } = PLANS[plan].pricing;
  return { resolutionSatang: resolutionOverageSatang, apiQuerySatang: apiQueryOverageSatang };
}

export function computeOverage(input: { plan: PlanId; limits: Pick<EffectiveLimits, 'includedResolutions' | 'overageApplies'>; usage: UsageTotals; lockedRates?: OverageRates | null }): Overage {
  const { usage, limits } = input;
  const rates = overageRates(input.plan, input.lockedRates);
  const included = limits.includedResolutions;
  // Integer arithmetic in fifths of a resolution keeps 0.2 exact.
  const resolutionEquivalents = (usage.resolutions * API_QUERIES_PER_RESOLUTION + usage.apiQueries) / API_QUERIES_PER_RESOLUTION;
  let resolutionOverage = 0;
  let apiQueryOverage = 0;
  // No pool (unlimited), grandfathered, or nothing to charge with (Free): no overage.
  if (included !== null && limits.overageApplies) {
    resolutionOverage = Math.max(0, usage.resolutions - included);
    const poolLeftForQueries = Math.max(0, included - usage.resolutions) * API_QUERIES_PER_RESOLUTION;
    apiQueryOverage = Math.max(0, usage.apiQueries - poolLeftForQueries);
    if (rates.resolutionSatang === null) resolutionOverage = 0;
    if (rates.apiQuerySatang === null) apiQueryOverage = 0;
  }
  const resolutionOverageSatang = resolutionOverage * (rates.resolutionSatang ?? 0);
  const apiQueryOverageSatang = apiQueryOverage * (rates.apiQuerySatang ?? 0);
  const seatsSatang = usage.addonSeats * (PLANS[input.plan].seatAddon?.pricePerSeatSatang ?? 0);
  const baseSatang = PLANS[input.plan].pricing.basePriceSatang;
  return {
    resolutionEquivalents,
    includedResolutions: included,
    resolutionOverage,
    apiQueryOverage,
    rates,
    resolutionOverageSatang,
    apiQueryOverageSatang,
    seatsSatang,
    baseSatang,
    projectedSatang: (baseSatang ?? 0) + seatsSatang + resolutionOverageSatang + apiQueryOverageSatang,
  };
}
