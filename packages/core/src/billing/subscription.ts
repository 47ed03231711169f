/**
 * What a processor subscription means for a tenant (pure): which plan it grants, and the billing
 * state kept from it. Annual subscriptions lock the sign-up overage rates for the term.
 */
import type { PlanId } from '../plans.js';
import type { TenantBillingRecord } from './ports/billing.js';
import type { BillingWebhookEvent, SubscriptionStatus } from './ports/payment.js';
import { tierOfBasePrice, type PriceCatalog } from './catalog.js';
import { overageRates } from './overage.js';

type SubscriptionEvent = Extract<BillingWebhookEvent, { kind: 'subscription' }>;

/** Statuses under which the subscription's tier is the tenant's plan (Stripe keeps retrying a past_due payment). */
const GRANTS_PLAN: readonly SubscriptionStatus[] = ['active', 'trialing', 'past_due'];
/** Statuses after which the tenant is back on Free. `incomplete` (first payment pending) changes nothing yet. */
const ENDS_PLAN: readonly SubscriptionStatus[] = ['canceled', 'unpaid', 'incomplete_expired', 'paused'];

/** Statuses a subscription never leaves: a later event saying otherwise is stale. */
const FINAL: readonly SubscriptionStatus[] = ['canceled', 'incomplete_expired'];

/**
 * Whether an event is stale: events apply in the order the processor created them, per
 * subscription, and `canceled` is final for its subscription (a retried `updated` that arrives
 * after `deleted` changes nothing). An event about another subscription than the tenant's,
 * older than the last event applied, is stale too.
 */
export function isStaleSubscriptionEvent(event: SubscriptionEvent, current: TenantBillingRecord | null): boolean {
  if (!current?.subscriptionId) return false;
  const appliedAt = current.subscriptionEventAt ? Date.parse(current.subscriptionEventAt) : null;
  const older = appliedAt !== null && event.createdAt * 1000 < appliedAt;
  if (current.subscriptionId === event.subscriptionId) return older || (current.subscriptionStatus !== null && FINAL.includes(current.subscriptionStatus) && event.status !== current.subscriptionStatus);
  return older;
}

/**
 * The plan an event leaves the tenant on, or null for no change: the tier of the base price
 * while the subscription is live, Free once it has ended. An event about an older subscription
 * than the tenant's current one never moves the plan (a late `deleted` of a replaced one).
 */
export function planFromSubscription(event: SubscriptionEvent, catalog: PriceCatalog, current: TenantBillingRecord | null): PlanId | null {
  const replaced = current?.subscriptionId && current.subscriptionId !== event.subscriptionId && current.subscriptionStatus !== null && GRANTS_PLAN.includes(current.subscriptionStatus);
  if (GRANTS_PLAN.includes(event.status)) {
    for (const price of event.priceIds) {
      const tier = tierOfBasePrice(catalog, price);
      if (tier) return tier.plan;
    }
    return null;
  }
  if (ENDS_PLAN.includes(event.status) && !replaced) return 'free';
  return null;
}

/** The billing state after an event; null when the event is about a subscription the tenant already replaced. */
export function billingFromSubscription(event: SubscriptionEvent, change: { from: PlanId; to: PlanId }, current: TenantBillingRecord | null, now: Date): TenantBillingRecord | null {
  const replaced = current?.subscriptionId && current.subscriptionId !== event.subscriptionId && current.subscriptionStatus !== null && GRANTS_PLAN.includes(current.subscriptionStatus) && !GRANTS_PLAN.includes(event.status);
  if (replaced) return null;
  const base: TenantBillingRecord = current ?? { tenantId: '', subscriptionId: null, subscriptionStatus: null, interval: null, lockedRates: null, lockedUntil: null, addonSeats: 0, updatedAt: '' };
  const termEnd = event.currentPeriodEnd ? new Date(event.currentPeriodEnd * 1000).toISOString() : null;
  const annual = event.interval === 'year' && GRANTS_PLAN.includes(event.status);
  // The sign-up rates hold for the term they were signed for: the same subscription, tier and
  // term. A renewal (a later term end) or a new subscription or tier takes the rates in force then.
  const sameTerm = base.lockedUntil !== null && termEnd !== null && Date.parse(termEnd) <= Date.parse(base.lockedUntil);
  const sameSignUp = current !== null && base.subscriptionId === event.subscriptionId && base.lockedRates !== null && change.from === change.to && base.interval === 'year' && sameTerm;
  const lockedRates = annual ? (sameSignUp ? base.lockedRates : overageRates(change.to)) : null;
  return {
    ...base,
    subscriptionId: event.subscriptionId,
    subscriptionStatus: event.status,
    interval: event.interval,
    lockedRates,
    lockedUntil: annual ? (sameSignUp ? base.lockedUntil : termEnd) : null,
    subscriptionEventAt: new Date(event.createdAt * 1000).toISOString(),
    updatedAt: now.toISOString(),
  };
}
