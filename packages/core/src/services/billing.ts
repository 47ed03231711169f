/**
 * Tenant-facing billing: checkout sessions (lines per the billing rules), the Team seat add-on
 * and the usage view with overage and the projected charge in satang.
 */
import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import type { PriceCatalog } from '../billing/catalog.js';
import { checkoutLines } from '../billing/checkout.js';
import { computeOverage } from '../billing/overage.js';
import { seatAddon, type SeatAddonChange } from '../billing/seats.js';
import { billingFromSubscription, planFromSubscription } from '../billing/subscription.js';
import { GUIDED_FLOW_METER } from '../billing/usage-reporter.js';
import { errors, panyaError, type PanyaError } from '../errors.js';
import { BILLING_NOT_CONFIGURED } from '../messages.js';
import { PLAN_IDS, resolveLimits } from '../plans.js';
import type { PaymentProcessor } from '../ports/payment.js';
import { runInTransaction, type RequestContext, type ServiceDeps } from './context.js';
import { changePlan } from './tenancy.js';
import { countResolutions, periodBounds } from './resolutions.js';
import { billingPeriod } from './usage.js';

export const checkoutSchema = z.strictObject({
  plan: z.string().transform((p) => p.trim().toLowerCase()).pipe(z.enum(PLAN_IDS)),
  interval: z.enum(['month', 'year']).default('month'),
});
export const seatAddonSchema = z.strictObject({ seats: z.number() });
export const usageQuerySchema = z.looseObject({ period: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'expected YYYY-MM').optional() });

export interface BillingOptions {
  processor: PaymentProcessor;
  catalog: PriceCatalog;
  /** Where checkout returns to (`PANYA_BASE_URL`). */
  returnUrl?: string;
}

const billingOff = () => panyaError('unavailable', { message: BILLING_NOT_CONFIGURED.en, localized: BILLING_NOT_CONFIGURED });

/** What a processor webhook did. */
export type WebhookOutcome =
  | { received: true; eventId: string; action: 'ignored'; reason: string }
  | { received: true; eventId: string; action: 'replayed'; tenantId: string | null }
  | { received: true; eventId: string; action: 'applied'; tenantId: string; plan: string; subscriptionStatus: string };

export function createBillingService(deps: ServiceDeps & { payments?: BillingOptions; limitsChanged?: (tenantId: string) => Promise<unknown> }) {
  const { store, clock } = deps;

  return {
    async checkout(ctx: RequestContext, input: z.output<typeof checkoutSchema>): Promise<Result<{ url: string; sessionId: string }, PanyaError>> {
      const payments = deps.payments;
      if (!payments) return err(billingOff());
      const lines = checkoutLines(input.plan, input.interval, payments.catalog);
      if (lines.isErr()) return err(lines.error);
      const base = (payments.returnUrl ?? 'http://localhost').replace(/\/$/, '');
      const session = await payments.processor.createCheckoutSession({
        tenantId: ctx.tenant.id,
        plan: input.plan,
        interval: input.interval,
        customerId: ctx.tenant.paymentCustomerId,
        lines: lines.value,
        successUrl: `${base}/c/${ctx.tenant.slug}/billing?checkout=success`,
        cancelUrl: `${base}/c/${ctx.tenant.slug}/billing?checkout=cancelled`,
      });
      return ok({ url: session.url, sessionId: session.id });
    },

    /** Sets the team's seats; the paid add-on seats are reported on `svc_seat_addon_team`. */
    async setSeats(ctx: RequestContext, seats: number): Promise<Result<SeatAddonChange, PanyaError>> {
      const change = seatAddon(ctx.tenant.plan, seats);
      if (change.isErr()) return err(change.error);
      const current = await store.billing.getTenantBilling(ctx.tenant.id);
      const now = clock.now().toISOString();
      await store.billing.putTenantBilling({
        ...(current ?? { tenantId: ctx.tenant.id, subscriptionId: null, subscriptionStatus: null, interval: null, lockedRates: null, lockedUntil: null }),
        addonSeats: change.value.addonSeats,
        updatedAt: now,
      });
      return ok(change.value);
    },

    /**
     * A payment-processor webhook: verified over the raw body, applied once per event id (a
     * replay changes nothing). A subscription event keeps the tenant's plan (through
     * `changePlan`), processor customer, subscription status and, for annual terms, the sign-up
     * overage rates. The event id is recorded in the same transaction as its effects, so an
     * event is never recorded without them; the plan-change hooks run after the commit, and
     * again on a replay (they only reconcile), so a crash between the two heals on Stripe's retry.
     */
    async webhook(rawBody: string | Uint8Array, signature: string | undefined): Promise<Result<WebhookOutcome, PanyaError>> {
      const payments = deps.payments;
      if (!payments) return err(billingOff());
      if (!signature) return err(errors.invalid('The webhook signature header is missing.', [{ path: 'stripe-signature', message: 'required' }]));
      let event;
      try {
        event = await payments.processor.parseWebhook(rawBody, signature);
      } catch (error) {
        return err(errors.invalid(`The webhook could not be verified: ${error instanceof Error ? error.message : String(error)}`, [{ path: 'stripe-signature', message: 'signature mismatch' }]));
      }
      if (event.kind === 'ignored') return ok({ received: true, eventId: event.id, action: 'ignored', reason: event.type });
      const now = clock.now();
      const found = event.tenantId ? await store.tenants.get(event.tenantId) : null;
      if (!found) {
        deps.logger.warn('billing.webhook.unknown_tenant', { eventId: event.id, tenantId: event.tenantId, customerId: event.customerId });
        return ok({ received: true, eventId: event.id, action: 'ignored', reason: 'unknown_tenant' });
      }
      const subscription = event;
      const applied = await runInTransaction(store, async (tx): Promise<Result<WebhookOutcome, PanyaError>> => {
        if (!(await tx.billing.recordWebhookEvent(subscription.id, now.toISOString()))) return ok({ received: true, eventId: subscription.id, action: 'replayed', tenantId: found.id });
        const tenant = (await tx.tenants.get(found.id)) ?? found;
        const current = await tx.billing.getTenantBilling(tenant.id);
        const plan = planFromSubscription(subscription, payments.catalog, current) ?? tenant.plan;
        const billing = billingFromSubscription(subscription, { from: tenant.plan, to: plan }, current, now);
        if (!billing) return ok({ received: true, eventId: subscription.id, action: 'ignored', reason: 'replaced_subscription' });
        await tx.billing.putTenantBilling({ ...billing, tenantId: tenant.id });
        const changed = await changePlan(tx, tenant, { plan, paymentCustomerId: subscription.customerId }, now);
        return ok({ received: true, eventId: subscription.id, action: 'applied', tenantId: tenant.id, plan: changed.tenant.plan, subscriptionStatus: subscription.status });
      });
      if (applied.isOk() && (applied.value.action === 'applied' || applied.value.action === 'replayed')) await deps.limitsChanged?.(found.id);
      return applied;
    },

    async usage(ctx: RequestContext, period: string = billingPeriod(clock.now())) {
      const now = clock.now();
      const tenant = ctx.tenant;
      const billing = await store.billing.getTenantBilling(tenant.id);
      const queries = await store.usage.countQueries(tenant.id, period);
      const meters = await store.usage.sumUsage(tenant.id, period);
      const usage = {
        // The current period counts conversations still in progress too: they are about to bill.
        resolutions: await countResolutions(store, tenant.id, period, { includeActive: period === billingPeriod(now) }),
        apiQueries: queries.search + queries.answer + queries.mcp_tool,
        guidedFlows: meters[GUIDED_FLOW_METER] ?? 0,
        addonSeats: billing?.addonSeats ?? 0,
      };
      const periodEnd = Date.parse(periodBounds(period).end);
      const lockedRates = billing?.lockedRates && billing.lockedUntil && Date.parse(billing.lockedUntil) >= periodEnd - 1 ? billing.lockedRates : null;
      const limits = resolveLimits(tenant, new Date(Math.min(now.getTime(), periodEnd - 1)));
      const overage = computeOverage({ plan: tenant.plan, limits, usage, lockedRates });
      // Without a payment processor nothing is charged: usage only, no projected charge.
      const configured = deps.payments !== undefined;
      return ok({
        period,
        plan: tenant.plan,
        billingConfigured: configured,
        ...(configured ? {} : { notice: BILLING_NOT_CONFIGURED.en }),
        currency: 'THB' as const,
        grandfathered: limits.grandfathered,
        resolutions: usage.resolutions,
        apiQueries: usage.apiQueries,
        resolutionEquivalents: overage.resolutionEquivalents,
        guidedFlows: usage.guidedFlows,
        addonSeats: usage.addonSeats,
        included: { resolutions: overage.includedResolutions },
        overage: { resolutions: overage.resolutionOverage, apiQueries: overage.apiQueryOverage },
        rates: { resolutionSatang: overage.rates.resolutionSatang, apiQuerySatang: overage.rates.apiQuerySatang, locked: lockedRates !== null },
        charges: configured ? { baseSatang: overage.baseSatang, seatsSatang: overage.seatsSatang, resolutionOverageSatang: overage.resolutionOverageSatang, apiQueryOverageSatang: overage.apiQueryOverageSatang } : null,
        projectedSatang: configured ? overage.projectedSatang : null,
      });
    },
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
