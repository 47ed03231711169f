/**
 * The usage reporter's decision for one tenant and one closed billing period (spec "Usage
 * reporter outcome per tenant"), as a pure function: the job gathers the inputs, this decides
 * what, if anything, is sent.
 */
import type { PlanId, Quotas } from '../plans.js';
import type { SubscriptionStatus } from './ports/payment.js';
import { periodBounds } from './resolutions.js';
import { METERS, type MeterEventNames, type MeterKey } from './catalog.js';
import type { OverageRates, UsageTotals } from './overage.js';
import { billPeriod, periodParts, type PeriodBill } from './period.js';

export const SKIP_REASONS = ['no_payment_customer_id', 'grandfathered', 'within_included', 'no_meter_event_name', 'subscription_not_active'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export interface PlannedMeterEvent {
  meter: MeterKey;
  eventName: string;
  customerId: string;
  /** The period total, a whole number. */
  value: number;
  /** One per (tenant, period, meter): the processor bills an identifier once. */
  identifier: string;
  /** Credit used up by this event (its value is that much lower). */
  credited: number;
  /** The instant an earlier part's value belongs to; null = the period's end. */
  occurredAt: string | null;
}

export type ReportDecision =
  | { status: 'skipped'; reason: SkipReason }
  /** Sendable once the subscription is confirmed active (`confirmActive`). */
  | { status: 'pending_subscription'; events: PlannedMeterEvent[] }
  | { status: 'reported'; events: PlannedMeterEvent[] };

export interface ReportInput {
  tenant: { id: string; plan: PlanId; quotas: Quotas; paymentCustomerId: string | null };
  period: string;
  /** The period's bill (`billPeriod`); or, for a period in one part, its usage totals. */
  bill?: PeriodBill;
  usage?: UsageTotals;
  lockedRates?: OverageRates | null;
  meterEventNames: MeterEventNames;
  /** Credits from refunds of earlier reported periods, subtracted from this period's values. */
  credits?: Partial<Record<MeterKey, number>>;
}

/** The billing period before the one `now` falls in: what the monthly run reports. */
export function previousPeriod(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
}

export function meterEventIdentifier(tenantId: string, period: string, meter: MeterKey): string {
  return `${tenantId}:${period}:${meter}`;
}

/** A period's bill from its usage totals, for a period in one part (all usage in its last part). */
function billOf(input: ReportInput): PeriodBill {
  if (input.bill) return input.bill;
  const usage = input.usage ?? { resolutions: 0, apiQueries: 0, guidedFlows: 0, addonSeats: 0 };
  const parts = periodParts({ period: input.period, plan: input.tenant.plan, quotas: input.tenant.quotas });
  return billPeriod({
    tenant: input.tenant,
    period: input.period,
    parts: parts.map((p, i) => (i === parts.length - 1 ? { ...p, resolutions: usage.resolutions, apiQueries: usage.apiQueries } : { ...p, resolutions: 0, apiQueries: 0 })),
    guidedFlows: usage.guidedFlows,
    addonSeats: usage.addonSeats,
    billing: input.lockedRates ? { lockedRates: input.lockedRates, lockedUntil: periodBounds(input.period).end } : null,
  });
}

/** The period total of each meter over all parts: overage for resolutions and API queries, counts for the rest. */
export function meterTotals(bill: Pick<PeriodBill, 'meters'>): Record<MeterKey, number> {
  const totals = { svc_resolutions: 0, svc_api_queries: 0, svc_seat_addon_team: 0, svc_guided_flow: 0 };
  for (const part of bill.meters) for (const meter of METERS) totals[meter] += part[meter];
  return totals;
}

/** The identifier of a part's event: the period's last part keeps the plain `<tenant>:<period>:<meter>`, earlier ones add their number. */
export function partIdentifier(tenantId: string, period: string, meter: MeterKey, part: number, parts: number): string {
  return part === parts - 1 ? meterEventIdentifier(tenantId, period, meter) : `${meterEventIdentifier(tenantId, period, meter)}:${part + 1}`;
}

/**
 * First phase, from stored data alone: skip, or the events to send once the subscription is
 * confirmed active. Cheap reasons come first so the processor is asked only about tenants
 * that would be billed. Grandfathering is already in the bill (its parts bill no overage).
 */
export function planUsageReport(input: ReportInput): ReportDecision {
  const { tenant, period } = input;
  if (!tenant.paymentCustomerId) return { status: 'skipped', reason: 'no_payment_customer_id' };
  const bill = billOf(input);
  // Credits come off the latest parts first.
  const left: Partial<Record<MeterKey, number>> = Object.fromEntries(METERS.map((m) => [m, Math.max(0, input.credits?.[m] ?? 0)]));
  const due: { meter: MeterKey; part: number; value: number; credited: number }[] = [];
  for (let part = bill.meters.length - 1; part >= 0; part--) {
    for (const meter of METERS) {
      const gross = bill.meters[part]![meter];
      const credited = Math.min(gross, left[meter] ?? 0);
      left[meter] = (left[meter] ?? 0) - credited;
      if (gross - credited > 0) due.push({ meter, part, value: gross - credited, credited });
    }
  }
  if (due.length === 0) return { status: 'skipped', reason: bill.parts.length > 0 && bill.parts.every((p) => p.grandfathered) ? 'grandfathered' : 'within_included' };
  due.sort((a, b) => a.part - b.part || METERS.indexOf(a.meter) - METERS.indexOf(b.meter));
  const last = bill.meters.length - 1;
  const events = due.flatMap(({ meter, part, value, credited }) => {
    const eventName = input.meterEventNames[meter];
    if (!eventName) return [];
    // An earlier part's events belong to its last second, when the plan it was billed under still held.
    const occurredAt = part < last ? new Date(Date.parse(bill.parts[part]!.to) - 1000).toISOString() : null;
    return [{ meter, eventName, customerId: tenant.paymentCustomerId!, value, identifier: partIdentifier(tenant.id, period, meter, part, bill.meters.length), credited, occurredAt }];
  });
  if (events.length === 0) return { status: 'skipped', reason: 'no_meter_event_name' };
  return { status: 'pending_subscription', events };
}

/** Second phase: only an `active` subscription is billed (spec). */
export function confirmActive(decision: ReportDecision, status: SubscriptionStatus | null): ReportDecision {
  if (decision.status !== 'pending_subscription') return decision;
  return status === 'active' ? { status: 'reported', events: decision.events } : { status: 'skipped', reason: 'subscription_not_active' };
}
