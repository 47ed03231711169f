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
import { GUIDED_FLOW_METER } from '../billing/usage-reporter.js';
import { panyaError, type PanyaError } from '../errors.js';
import { PLAN_IDS, resolveLimits } from '../plans.js';
import type { PaymentProcessor } from '../ports/payment.js';
import type { RequestContext, ServiceDeps } from './context.js';
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

const billingOff = () => panyaError('unavailable', { message: 'Billing is not configured on this server.' });

export function createBillingService(deps: ServiceDeps & { payments?: BillingOptions }) {
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
      return ok({
        period,
        plan: tenant.plan,
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
        charges: { baseSatang: overage.baseSatang, seatsSatang: overage.seatsSatang, resolutionOverageSatang: overage.resolutionOverageSatang, apiQueryOverageSatang: overage.apiQueryOverageSatang },
        projectedSatang: overage.projectedSatang,
      });
    },
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
