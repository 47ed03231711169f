/**
 * A billing period's bill, the one function the usage view and the usage reporter share.
 *
 * The period splits into parts wherever the plan changed and where a grandfathering window
 * ended; each usage event (a resolution when it qualified, an API query when it was made) bills
 * under the plan and rates of its part (docs/decisions.md "Billing periods in parts"):
 * - each part has the included pool of its plan, prorated by the share of the period it covers
 *   (rounded up, in the customer's favour); a whole-month part has the whole pool;
 * - a grandfathered part bills no overage and uses no pool; seats and guided flows are billed as
 *   usual whatever the window;
 * - annual locked rates apply to the parts that end within the locked term.
 */
import { API_QUERIES_PER_RESOLUTION, PLANS, grandfatheringEnd, isGrandfathered, resolveLimits, type PlanId, type Quotas } from '../plans.js';
import type { PlanChangeEntry, TenantBillingRecord } from './ports/billing.js';
import { periodBounds } from './resolutions.js';
import type { MeterKey } from './catalog.js';
import { computeOverage, type Overage, type OverageRates } from './overage.js';

export interface PeriodPart {
  /** ISO instant the part starts at (inclusive). */
  from: string;
  /** ISO instant the part ends at (exclusive). */
  to: string;
  plan: PlanId;
  grandfathered: boolean;
}

export interface PartUsage {
  resolutions: number;
  apiQueries: number;
}

export interface PartBill extends PeriodPart, PartUsage {
  includedResolutions: number | null;
  rates: OverageRates;
  locked: boolean;
  resolutionOverage: number;
  apiQueryOverage: number;
  resolutionOverageSatang: number;
  apiQueryOverageSatang: number;
}

export interface PeriodBill {
  period: string;
  parts: PartBill[];
  resolutions: number;
  apiQueries: number;
  resolutionEquivalents: number;
  includedResolutions: number | null;
  resolutionOverage: number;
  apiQueryOverage: number;
  resolutionOverageSatang: number;
  apiQueryOverageSatang: number;
  guidedFlows: number;
  addonSeats: number;
  seatsSatang: number;
  baseSatang: number | null;
  projectedSatang: number;
  /** What each part sends per meter (seats and guided flows go with the last part). */
  meters: Record<MeterKey, number>[];
}

/** The plan in force at `at` (ms): the last change before it, else the plan before the first change. */
export function planAt(history: readonly PlanChangeEntry[], current: PlanId, at: number): PlanId {
  let plan: PlanId | null = null;
  for (const change of history) {
    if (Date.parse(change.at) <= at) plan = change.to;
    else return plan ?? change.from;
  }
  return plan ?? current;
}

/** The parts of `period`: cut at each plan change and at the end of the grandfathering window. */
export function periodParts(input: { period: string; plan: PlanId; quotas: Quotas; history?: readonly PlanChangeEntry[] | null }): PeriodPart[] {
  const history = [...(input.history ?? [])].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  const { start, end } = periodBounds(input.period);
  const [s, e] = [Date.parse(start), Date.parse(end)];
  const cuts = new Set<number>([s, e]);
  for (const change of history) {
    const at = Date.parse(change.at);
    if (at > s && at < e) cuts.add(at);
  }
  const windowEnd = grandfatheringEnd(input.quotas);
  if (windowEnd !== null && windowEnd + 1 > s && windowEnd + 1 < e) cuts.add(windowEnd + 1);
  const sorted = [...cuts].sort((a, b) => a - b);
  const parts: PeriodPart[] = [];
  for (let i = 0; i + 1 < sorted.length; i++) {
    const from = sorted[i]!;
    const part = { from: new Date(from).toISOString(), to: new Date(sorted[i + 1]!).toISOString(), plan: planAt(history, input.plan, from), grandfathered: isGrandfathered(input.quotas, new Date(from)) };
    const last = parts.at(-1);
    // A change back and forth within the same plan does not cut.
    if (last && last.plan === part.plan && last.grandfathered === part.grandfathered) last.to = part.to;
    else parts.push(part);
  }
  return parts;
}

/** The annual lock that binds a part: only within the term it was signed for. */
function lockFor(part: PeriodPart, billing: Pick<TenantBillingRecord, 'lockedRates' | 'lockedUntil'> | null): OverageRates | null {
  if (!billing?.lockedRates || !billing.lockedUntil) return null;
  return Date.parse(billing.lockedUntil) >= Date.parse(part.to) - 1 ? billing.lockedRates : null;
}

export function billPeriod(input: {
  tenant: { plan: PlanId; quotas: Quotas };
  period: string;
  parts: readonly (PeriodPart & PartUsage)[];
  guidedFlows: number;
  addonSeats: number;
  billing: Pick<TenantBillingRecord, 'lockedRates' | 'lockedUntil'> | null;
}): PeriodBill {
  const { start, end } = periodBounds(input.period);
  const periodMs = Date.parse(end) - Date.parse(start);
  const parts: PartBill[] = input.parts.map((part) => {
    const limits = resolveLimits({ plan: part.plan, quotas: input.tenant.quotas }, new Date(part.from));
    const share = (Date.parse(part.to) - Date.parse(part.from)) / periodMs;
    const included = limits.includedResolutions === null ? null : share >= 1 ? limits.includedResolutions : Math.ceil(limits.includedResolutions * share);
    const lockedRates = lockFor(part, input.billing);
    const overage: Overage = computeOverage({
      plan: part.plan,
      limits: { includedResolutions: included, overageApplies: !part.grandfathered },
      usage: { resolutions: part.resolutions, apiQueries: part.apiQueries, guidedFlows: 0, addonSeats: 0 },
      lockedRates,
    });
    return {
      ...part,
      includedResolutions: part.grandfathered ? null : included,
      rates: overage.rates,
      locked: lockedRates !== null,
      resolutionOverage: overage.resolutionOverage,
      apiQueryOverage: overage.apiQueryOverage,
      resolutionOverageSatang: overage.resolutionOverageSatang,
      apiQueryOverageSatang: overage.apiQueryOverageSatang,
    };
  });
  const sum = (f: (p: PartBill) => number) => parts.reduce((n, p) => n + f(p), 0);
  const lastPlan = parts.at(-1)?.plan ?? input.tenant.plan;
  // Seats are Team's add-on: billed when the period ends on Team, grandfathered or not.
  const addonSeats = lastPlan === 'team' ? input.addonSeats : 0;
  const seatsSatang = addonSeats * (PLANS[lastPlan].seatAddon?.pricePerSeatSatang ?? 0);
  const baseSatang = PLANS[lastPlan].pricing.basePriceSatang;
  const pools = parts.filter((p) => !p.grandfathered).map((p) => p.includedResolutions);
  const resolutions = sum((p) => p.resolutions);
  const apiQueries = sum((p) => p.apiQueries);
  const resolutionOverageSatang = sum((p) => p.resolutionOverageSatang);
  const apiQueryOverageSatang = sum((p) => p.apiQueryOverageSatang);
  return {
    period: input.period,
    parts,
    resolutions,
    apiQueries,
    resolutionEquivalents: (resolutions * API_QUERIES_PER_RESOLUTION + apiQueries) / API_QUERIES_PER_RESOLUTION,
    includedResolutions: pools.length === 0 ? null : pools.some((p) => p === null) ? null : pools.reduce<number>((n, p) => n + (p ?? 0), 0),
    resolutionOverage: sum((p) => p.resolutionOverage),
    apiQueryOverage: sum((p) => p.apiQueryOverage),
    resolutionOverageSatang,
    apiQueryOverageSatang,
    guidedFlows: input.guidedFlows,
    addonSeats,
    seatsSatang,
    baseSatang,
    projectedSatang: (baseSatang ?? 0) + seatsSatang + resolutionOverageSatang + apiQueryOverageSatang,
    meters: parts.map((p, i) => ({
      svc_resolutions: p.resolutionOverage,
      svc_api_queries: p.apiQueryOverage,
      svc_seat_addon_team: i === parts.length - 1 ? addonSeats : 0,
      svc_guided_flow: i === parts.length - 1 ? input.guidedFlows : 0,
    })),
  };
}
