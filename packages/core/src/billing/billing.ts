/**
 * Tenant-facing billing: checkout sessions (lines per the billing rules), the Team seat add-on
 * and the usage view with overage and the projected charge in satang.
 */
import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import type { PriceCatalog } from '../billing/catalog.js';
import { checkoutLines } from '../billing/checkout.js';
import { gatherPeriodBill } from '../billing/period-usage.js';
import { seatAddon, type SeatAddonChange } from '../billing/seats.js';
import { billingFromSubscription, isStaleSubscriptionEvent, planFromSubscription } from '../billing/subscription.js';
import { errors, panyaError, type PanyaError } from '../errors.js';
import { BILLING_NOT_CONFIGURED } from '../messages.js';
import { PLAN_IDS, PLAN_NAMES, resolveLimits } from '../plans.js';
import type { PaymentProcessor } from './ports/payment.js';
import { runInTransaction, type RequestContext, type ServiceDeps } from '../context.js';
import { changePlan } from '../tenancy/tenancy.js';
import { createResolutionAuditService } from './resolution-audit.js';
import { periodBounds } from './resolutions.js';
import { billingPeriod } from '../tenancy/usage.js';
import { appendAudit, auditActor } from '../audit/audit.js';

export const checkoutSchema = z.strictObject({
  plan: z.string().transform((p) => p.trim().toLowerCase()).pipe(z.enum(PLAN_IDS)),
  interval: z.enum(['month', 'year']).default('month'),
});
export const seatAddonSchema = z.strictObject({ seats: z.number() });
export const usageQuerySchema = z.looseObject({ period: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'expected YYYY-MM').optional() });

/** A checkout session to send the customer to, or the live subscription moved to the new plan. */
export type CheckoutOutcome =
  | { url: string; sessionId: string }
  | { changed: true; subscriptionId: string; plan: string; interval: 'month' | 'year'; status: string };

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
    /** The auditable resolution bill and its disputes. */
    resolutions: createResolutionAuditService(deps),

    /**
     * A plan for the tenant: a checkout session when it has no live subscription; otherwise its
     * one subscription moves to the new plan's prices (a tenant never pays two base prices).
     * The plan itself changes when the processor's `customer.subscription.updated` arrives.
     */
    async checkout(ctx: RequestContext, input: z.output<typeof checkoutSchema>): Promise<Result<CheckoutOutcome, PanyaError>> {
      const payments = deps.payments;
      if (!payments) return err(billingOff());
      const lines = checkoutLines(input.plan, input.interval, payments.catalog);
      if (lines.isErr()) return err(lines.error);
      const live = ctx.tenant.paymentCustomerId ? await payments.processor.getLiveSubscription(ctx.tenant.paymentCustomerId) : null;
      if (live) {
        const wanted = lines.value.map((l) => l.price).sort();
        if (wanted.join() === [...live.priceIds].sort().join()) return err(errors.conflict(`The subscription is already on ${PLAN_NAMES[input.plan]} (${input.interval === 'year' ? 'yearly' : 'monthly'}).`));
        const changed = await payments.processor.changeSubscription({ subscriptionId: live.id, tenantId: ctx.tenant.id, plan: input.plan, interval: input.interval, lines: lines.value });
        return ok({ changed: true, subscriptionId: changed.id, plan: input.plan, interval: input.interval, status: changed.status });
      }
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
      const now = clock.now().toISOString();
      await store.transaction(async (tx) => {
        const current = await tx.billing.getTenantBilling(ctx.tenant.id);
        await tx.billing.putTenantBilling({
          ...(current ?? { tenantId: ctx.tenant.id, subscriptionId: null, subscriptionStatus: null, interval: null, lockedRates: null, lockedUntil: null }),
          addonSeats: change.value.addonSeats,
          updatedAt: now,
        });
        await appendAudit(tx, deps, ctx.tenant.id, auditActor(ctx.principal), { type: 'billing.seats_changed', workspaceId: null, subjectId: ctx.tenant.id, before: { addonSeats: current?.addonSeats ?? 0 }, after: { addonSeats: change.value.addonSeats } });
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
        // Recorded (a retry is a replay) but not applied: an older state must not undo a newer one.
        if (isStaleSubscriptionEvent(subscription, current)) return ok({ received: true, eventId: subscription.id, action: 'ignored', reason: 'stale_event' });
        const plan = planFromSubscription(subscription, payments.catalog, current) ?? tenant.plan;
        const billing = billingFromSubscription(subscription, { from: tenant.plan, to: plan }, current, now);
        if (!billing) return ok({ received: true, eventId: subscription.id, action: 'ignored', reason: 'replaced_subscription' });
        await tx.billing.putTenantBilling({ ...billing, tenantId: tenant.id });
        const changed = await changePlan(tx, tenant, { plan, paymentCustomerId: subscription.customerId }, now, { actor: { kind: 'webhook', id: subscription.id }, system: deps });
        return ok({ received: true, eventId: subscription.id, action: 'applied', tenantId: tenant.id, plan: changed.tenant.plan, subscriptionStatus: subscription.status });
      });
      if (applied.isOk() && (applied.value.action === 'applied' || applied.value.action === 'replayed')) await deps.limitsChanged?.(found.id);
      return applied;
    },

    async usage(ctx: RequestContext, period: string = billingPeriod(clock.now())) {
      const now = clock.now();
      const tenant = ctx.tenant;
      // The reporter's own numbers: the current period counts conversations still in progress too.
      const bill = await gatherPeriodBill(store, tenant, period, { includeActive: period === billingPeriod(now) });
      const periodEnd = Date.parse(periodBounds(period).end);
      const limits = resolveLimits(tenant, new Date(Math.min(now.getTime(), periodEnd - 1)));
      // Without a payment processor nothing is charged: usage only, no projected charge.
      const configured = deps.payments !== undefined;
      const lastPart = bill.parts.at(-1);
      return ok({
        period,
        plan: tenant.plan,
        billingConfigured: configured,
        ...(configured ? {} : { notice: BILLING_NOT_CONFIGURED.en }),
        currency: 'THB' as const,
        grandfathered: limits.grandfathered,
        resolutions: bill.resolutions,
        apiQueries: bill.apiQueries,
        resolutionEquivalents: bill.resolutionEquivalents,
        guidedFlows: bill.guidedFlows,
        addonSeats: bill.addonSeats,
        included: { resolutions: bill.includedResolutions },
        // The cap refuses chats; it never changes the bill (that is the included pool's job).
        hardCap: { limit: limits.chatHardCap, applies: limits.hardCapApplies, reached: limits.hardCapApplies && limits.chatHardCap !== null && bill.resolutions >= limits.chatHardCap },
        overage: { resolutions: bill.resolutionOverage, apiQueries: bill.apiQueryOverage },
        rates: { resolutionSatang: lastPart?.rates.resolutionSatang ?? null, apiQuerySatang: lastPart?.rates.apiQuerySatang ?? null, locked: lastPart?.locked ?? false },
        charges: configured ? { baseSatang: bill.baseSatang, seatsSatang: bill.seatsSatang, resolutionOverageSatang: bill.resolutionOverageSatang, apiQueryOverageSatang: bill.apiQueryOverageSatang } : null,
        projectedSatang: configured ? bill.projectedSatang : null,
        // Each part of the period bills under the plan in force then (docs/decisions.md).
        parts: bill.parts.map((p) => ({
          from: p.from,
          to: p.to,
          plan: p.plan,
          grandfathered: p.grandfathered,
          resolutions: p.resolutions,
          apiQueries: p.apiQueries,
          included: { resolutions: p.includedResolutions },
          overage: { resolutions: p.resolutionOverage, apiQueries: p.apiQueryOverage },
          rates: { resolutionSatang: p.rates.resolutionSatang, apiQuerySatang: p.rates.apiQuerySatang, locked: p.locked },
          charges: configured ? { resolutionOverageSatang: p.resolutionOverageSatang, apiQueryOverageSatang: p.apiQueryOverageSatang } : null,
        })),
      });
    },
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
