import { err, ok, type Result } from 'neverthrow';
import { errors, type PanyaError } from '../errors.js';
import { PLAN_NAMES, type PlanId } from '../plans.js';
import type { BillingInterval, CheckoutLine } from './ports/payment.js';
import { isPaidTier, type PriceCatalog } from './catalog.js';

/**
 * The line items of a checkout session (spec "Billing rules" 1–6). Metered lines carry no
 * quantity: usage reaches them as meter events.
 */
export function checkoutLines(plan: PlanId, interval: BillingInterval, catalog: PriceCatalog): Result<CheckoutLine[], PanyaError> {
  // Rule 6: Free has no product, hence no lines at all.
  if (!isPaidTier(plan)) return err(errors.unprocessable(`${PLAN_NAMES[plan]} has no product to check out.`, [{ path: 'plan', message: 'choose a paid plan' }]));
  const prices = catalog.tiers[plan] ?? {};
  // Rule 1: the base recurring price of the tier is always attached (so without one there is no checkout).
  const base = interval === 'year' ? prices.baseAnnual : prices.base;
  if (!base) return err(errors.unprocessable(`${PLAN_NAMES[plan]} is not offered with ${interval === 'year' ? 'yearly' : 'monthly'} billing.`, [{ path: 'interval', message: 'no price configured' }]));
  const lines: CheckoutLine[] = [{ price: base, quantity: 1 }];
  // Rules 2, 3 and 6 (Growth uses its own metered prices: they are looked up per tier). Rule 5: none → base only.
  if (prices.resolutions) lines.push({ price: prices.resolutions });
  if (prices.apiQueries) lines.push({ price: prices.apiQueries });
  // Rule 4: Team only, attached even while no add-on seat is used (a metered line starts at zero).
  if (plan === 'team' && catalog.teamSeats) lines.push({ price: catalog.teamSeats });
  return ok(lines);
}
