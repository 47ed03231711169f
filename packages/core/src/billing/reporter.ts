/**
 * The usage reporter's decision for one tenant and one closed billing period (spec "Usage
 * reporter outcome per tenant"), as a pure function: the job gathers the inputs, this decides
 * what, if anything, is sent.
 */
import { isGrandfathered, resolveLimits, type PlanId, type Quotas } from '../plans.js';
import type { SubscriptionStatus } from '../ports/payment.js';
import { METERS, type MeterEventNames, type MeterKey } from './catalog.js';
import { computeOverage, type OverageRates, type UsageTotals } from './overage.js';

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
}

export type ReportDecision =
  | { status: 'skipped'; reason: SkipReason }
  /** Sendable once the subscription is confirmed active (`confirmActive`). */
  | { status: 'pending_subscription'; events: PlannedMeterEvent[] }
  | { status: 'reported'; events: PlannedMeterEvent[] };

export interface ReportInput {
  tenant: { id: string; plan: PlanId; quotas: Quotas; paymentCustomerId: string | null };
  period: string;
  usage: UsageTotals;
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

/** The period total of each meter: overage for resolutions and API queries, counts for the rest. */
export function meterValues(input: Pick<ReportInput, 'tenant' | 'usage' | 'lockedRates'>, limitsAt: Date): Record<MeterKey, number> {
  const limits = resolveLimits(input.tenant, limitsAt);
  const overage = computeOverage({ plan: input.tenant.plan, limits, usage: input.usage, lockedRates: input.lockedRates });
  return {
    svc_resolutions: overage.resolutionOverage,
    svc_api_queries: overage.apiQueryOverage,
    svc_seat_addon_team: input.tenant.plan === 'team' ? input.usage.addonSeats : 0,
    svc_guided_flow: input.usage.guidedFlows,
  };
}

/**
 * First phase, from stored data alone: skip, or the events to send once the subscription is
 * confirmed active. Cheap reasons come first so the processor is asked only about tenants
 * that would be billed.
 */
export function planUsageReport(input: ReportInput): ReportDecision {
  const { tenant, period } = input;
  if (!tenant.paymentCustomerId) return { status: 'skipped', reason: 'no_payment_customer_id' };
  const periodStart = new Date(`${period}-01T00:00:00.000Z`);
  // Grandfathered at any point of the period (windows only end): none of it is billed.
  if (isGrandfathered(tenant.quotas, periodStart)) return { status: 'skipped', reason: 'grandfathered' };
  const gross = meterValues(input, periodStart);
  const credited = (meter: MeterKey) => Math.min(gross[meter], Math.max(0, input.credits?.[meter] ?? 0));
  const due = METERS.filter((meter) => gross[meter] - credited(meter) > 0);
  if (due.length === 0) return { status: 'skipped', reason: 'within_included' };
  const events = due.flatMap((meter) => {
    const eventName = input.meterEventNames[meter];
    const value = gross[meter] - credited(meter);
    return eventName ? [{ meter, eventName, customerId: tenant.paymentCustomerId!, value, identifier: meterEventIdentifier(tenant.id, period, meter), credited: credited(meter) }] : [];
  });
  if (events.length === 0) return { status: 'skipped', reason: 'no_meter_event_name' };
  return { status: 'pending_subscription', events };
}

/** Second phase: only an `active` subscription is billed (spec). */
export function confirmActive(decision: ReportDecision, status: SubscriptionStatus | null): ReportDecision {
  if (decision.status !== 'pending_subscription') return decision;
  return status === 'active' ? { status: 'reported', events: decision.events } : { status: 'skipped', reason: 'subscription_not_active' };
}
