import { describe, expect, it } from 'vitest';
import {
  checkoutLines,
  computeOverage,
  confirmActive,
  meterEventIdentifier,
  planUsageReport,
  periodParts,
  billPeriod,
  previousPeriod,
  resolveLimits,
  seatAddon,
  tierOfBasePrice,
  type MeterEventNames,
  type PlanId,
  type PriceCatalog,
  type ReportInput,
  type UsageTotals,
} from '@panya/core';

const full: PriceCatalog = {
  tiers: {
    team: { base: 'price_team', baseAnnual: 'price_team_y', resolutions: 'price_team_res', apiQueries: 'price_team_api' },
    business: { base: 'price_biz', baseAnnual: 'price_biz_y', resolutions: 'price_biz_res', apiQueries: 'price_biz_api' },
    growth: { base: 'price_growth', baseAnnual: 'price_growth_y', resolutions: 'price_growth_res', apiQueries: 'price_growth_api' },
    enterprise: { base: 'price_ent', resolutions: 'price_ent_res', apiQueries: 'price_ent_api' },
  },
  teamSeats: 'price_team_seats',
};
const baseOnly: PriceCatalog = { tiers: { team: { base: 'price_team' }, business: { base: 'price_biz' }, growth: { base: 'price_growth' } } };

const lines = (plan: PlanId, interval: 'month' | 'year', catalog: PriceCatalog) => checkoutLines(plan, interval, catalog)._unsafeUnwrap();
const prices = (plan: PlanId, interval: 'month' | 'year', catalog: PriceCatalog) => lines(plan, interval, catalog).map((l) => l.price);

describe('checkout line items (spec "Billing rules")', () => {
  it.each([
    ['team', 'month', 'price_team'],
    ['team', 'year', 'price_team_y'],
    ['business', 'month', 'price_biz'],
    ['business', 'year', 'price_biz_y'],
    ['growth', 'month', 'price_growth'],
    ['enterprise', 'month', 'price_ent'],
  ] as const)('rule 1: %s/%s always has its base recurring price %s, quantity 1', (plan, interval, base) => {
    expect(lines(plan, interval, full)[0]).toEqual({ price: base, quantity: 1 });
    if (interval === 'month' && baseOnly.tiers[plan]) expect(lines(plan, interval, baseOnly)[0]?.price).toBe(base);
  });

  it('rule 1: no base price for the interval → no checkout (422), never a subscription without its base', () => {
    const e = checkoutLines('enterprise', 'year', full)._unsafeUnwrapErr();
    expect(e).toMatchObject({ code: 'unprocessable', issues: [{ path: 'interval' }] });
  });

  it.each([
    ['team', 'price_team_res'],
    ['business', 'price_biz_res'],
    ['growth', 'price_growth_res'],
    ['enterprise', 'price_ent_res'],
  ] as const)('rule 2: %s attaches its resolution-overage metered price %s, without a quantity', (plan, price) => {
    expect(lines(plan, 'month', full)).toContainEqual({ price });
    const { resolutions: _omit, ...rest } = full.tiers[plan]!;
    expect(prices(plan, 'month', { ...full, tiers: { ...full.tiers, [plan]: rest } })).not.toContain(price);
  });

  it.each([
    ['team', 'price_team_api'],
    ['business', 'price_biz_api'],
    ['growth', 'price_growth_api'],
    ['enterprise', 'price_ent_api'],
  ] as const)('rule 3: %s attaches its API-overage metered price %s, without a quantity', (plan, price) => {
    expect(lines(plan, 'month', full)).toContainEqual({ price });
    const { apiQueries: _omit, ...rest } = full.tiers[plan]!;
    expect(prices(plan, 'month', { ...full, tiers: { ...full.tiers, [plan]: rest } })).not.toContain(price);
  });

  it.each([
    ['month', full, true],
    ['year', full, true],
    ['month', { ...full, teamSeats: undefined }, false],
  ] as const)('rule 4: Team %s attaches the seat add-on when configured (%#), with no quantity even while no seat is bought', (interval, catalog, attached) => {
    const seatLine = lines('team', interval, catalog).find((l) => l.price === 'price_team_seats');
    expect(seatLine !== undefined).toBe(attached);
    if (seatLine) expect(seatLine).not.toHaveProperty('quantity');
  });

  it.each(['team', 'business', 'growth'] as const)('rule 5: %s with no metered price configured → base only', (plan) => {
    expect(lines(plan, 'month', baseOnly)).toHaveLength(1);
  });

  it('rule 6: Free has no product (422) and hence no overage lines', () => {
    const e = checkoutLines('free', 'month', full)._unsafeUnwrapErr();
    expect(e).toMatchObject({ code: 'unprocessable', issues: [{ path: 'plan' }] });
  });

  it.each(['business', 'growth', 'enterprise'] as const)('rule 6: %s has no seat add-on even when one is configured', (plan) => {
    expect(prices(plan, 'month', full)).not.toContain('price_team_seats');
  });

  it('rule 6: Growth uses its own metered prices, never another tier’s', () => {
    expect(prices('growth', 'month', full)).toEqual(['price_growth', 'price_growth_res', 'price_growth_api']);
  });

  it('reads the tier and interval back from a base price (webhooks)', () => {
    expect(tierOfBasePrice(full, 'price_growth_y')).toEqual({ plan: 'growth', interval: 'year' });
    expect(tierOfBasePrice(full, 'price_team_res')).toBeNull();
  });
});

describe('Team seat add-on (spec: 800 THB per seat, seats 6–10, at most 5 add-on seats)', () => {
  it.each([
    [6, 1, 80_000],
    [8, 3, 240_000],
    [10, 5, 400_000],
    [5, 0, 0],
  ])('%s seats → %s add-on seats, %s satang a month', (seats, addonSeats, monthlySatang) => {
    expect(seatAddon('team', seats)._unsafeUnwrap()).toEqual({ seats, addonSeats, monthlySatang });
  });

  it.each([4, 11, 6.5, -1])('refuses %s seats (400 with the bounds)', (seats) => {
    expect(seatAddon('team', seats)._unsafeUnwrapErr()).toMatchObject({ code: 'invalid_request', issues: [{ path: 'seats', message: 'from 5 to 10' }] });
  });

  it.each(['free', 'business', 'growth', 'enterprise'] as const)('%s: plan_required (Team only)', (plan) => {
    expect(seatAddon(plan, 6)._unsafeUnwrapErr()).toMatchObject({ code: 'plan_required', plan: 'team' });
  });
});

const now = new Date('2026-11-15T00:00:00Z');
const usage = (over: Partial<UsageTotals> = {}): UsageTotals => ({ resolutions: 0, apiQueries: 0, guidedFlows: 0, addonSeats: 0, ...over });
const overage = (plan: PlanId, u: Partial<UsageTotals>, quotas = {}, lockedRates?: { resolutionSatang: number; apiQuerySatang: number }) =>
  computeOverage({ plan, limits: resolveLimits({ plan, quotas }, now), usage: usage(u), lockedRates });

describe('overage math (DESIGN; Team includes 1,000 resolutions = 5,000 API queries)', () => {
  it.each([
    // resolutions, API queries → resolution overage, API overage, overage satang (Team: 400 / 80)
    [0, 0, 0, 0, 0],
    [1_000, 0, 0, 0, 0],
    [1_001, 0, 1, 0, 400],
    [1_250, 7, 250, 7, 250 * 400 + 7 * 80],
    [999, 5, 0, 0, 0],
    [999, 6, 0, 1, 80],
    [0, 5_000, 0, 0, 0],
    [0, 5_003, 0, 3, 240],
    [400, 3_000, 0, 0, 0],
    [400, 3_001, 0, 1, 80],
  ])('team: %s resolutions + %s API queries → %s + %s over, %s satang', (resolutions, apiQueries, resOver, apiOver, satang) => {
    const o = overage('team', { resolutions, apiQueries });
    expect([o.resolutionOverage, o.apiQueryOverage]).toEqual([resOver, apiOver]);
    expect(o.resolutionOverageSatang + o.apiQueryOverageSatang).toBe(satang);
    expect(Number.isInteger(o.resolutionOverageSatang) && Number.isInteger(o.apiQueryOverageSatang)).toBe(true);
  });

  it('counts 1 API query as 0.2 resolution-equivalents, exactly', () => {
    expect(overage('team', { resolutions: 3, apiQueries: 7 }).resolutionEquivalents).toBe(4.4);
  });

  it.each([
    ['business', 5_001, 5, 300 + 5 * 60],
    ['growth', 10_001, 5, 250 + 5 * 50],
    ['enterprise', 62_501, 5, 200 + 5 * 40],
  ] as const)('%s: overage at its own rates (%s resolutions, %s queries → %s satang)', (plan, resolutions, apiQueries, satang) => {
    const o = overage(plan, { resolutions, apiQueries });
    expect(o.resolutionOverageSatang + o.apiQueryOverageSatang).toBe(satang);
  });

  it('Free has no overage: the hard cap stops it', () => {
    expect(overage('free', { resolutions: 500, apiQueries: 900 })).toMatchObject({ resolutionOverage: 0, apiQueryOverage: 0, projectedSatang: 0 });
  });

  it('grandfathered: no overage while the date has not passed', () => {
    const o = overage('team', { resolutions: 5_000 }, { legacyPlan: 'team-2024', grandfatheredUntil: '2026-12-31' });
    expect(o).toMatchObject({ resolutionOverage: 0, resolutionOverageSatang: 0 });
  });

  it('annual customers keep their locked sign-up rates', () => {
    const o = overage('team', { resolutions: 1_010, apiQueries: 10 }, {}, { resolutionSatang: 350, apiQuerySatang: 70 });
    expect(o.rates).toEqual({ resolutionSatang: 350, apiQuerySatang: 70 });
    expect(o.resolutionOverageSatang + o.apiQueryOverageSatang).toBe(10 * 350 + 10 * 70);
  });

  it('projects base + seats + overage in satang', () => {
    const o = overage('team', { resolutions: 1_001, addonSeats: 2 });
    expect(o).toMatchObject({ baseSatang: 390_000, seatsSatang: 160_000, projectedSatang: 390_000 + 160_000 + 400 });
  });
});

const names: MeterEventNames = { svc_resolutions: 'svc_resolutions', svc_api_queries: 'svc_api_queries', svc_seat_addon_team: 'svc_seat_addon_team', svc_guided_flow: 'svc_guided_flow' };
const input = (over: Partial<ReportInput['tenant']> = {}, u: Partial<UsageTotals> = {}, meterEventNames = names): ReportInput => ({
  tenant: { id: 'ten_1', plan: 'team', quotas: {}, paymentCustomerId: 'cus_1', ...over },
  period: '2026-10',
  usage: usage(u),
  meterEventNames,
});

describe('usage reporter decision per tenant (spec "Usage reporter outcome per tenant")', () => {
  it.each([
    ['no customer id', 'no_payment_customer_id', input({ paymentCustomerId: null }, { resolutions: 2_000 }), 'active'],
    ['grandfathered through the period', 'grandfathered', input({ quotas: { legacyPlan: 'team-2024', grandfatheredUntil: '2026-10-31' } }, { resolutions: 2_000 }), 'active'],
    ['usage within included', 'within_included', input({}, { resolutions: 1_000, apiQueries: 0 }), 'active'],
    ['cancelled subscription', 'subscription_not_active', input({}, { resolutions: 1_001 }), 'canceled'],
    ['past due subscription', 'subscription_not_active', input({}, { resolutions: 1_001 }), 'past_due'],
    ['no subscription at all', 'subscription_not_active', input({}, { resolutions: 1_001 }), null],
    ['overage only on an unnamed meter', 'no_meter_event_name', input({}, { resolutions: 1_001 }, { svc_api_queries: 'svc_api_queries' }), 'active'],
  ] as const)('%s → skipped %s', (_label, reason, report, status) => {
    expect(confirmActive(planUsageReport(report), status)).toEqual({ status: 'skipped', reason });
  });

  // Issue #33 row 1: the cap never moves the bill.
  it('chatHardCap=unlimited on Enterprise still bills overage past the 62,500 included', () => {
    const decision = planUsageReport(input({ plan: 'enterprise', quotas: { chatHardCap: null } }, { resolutions: 62_600 }));
    expect(decision.status === 'pending_subscription' && decision.events.map((e) => [e.meter, e.value])).toEqual([['svc_resolutions', 100]]);
  });

  it('a Team cap raised to 20,000 leaves the pool at 1,000', () => {
    const decision = planUsageReport(input({ quotas: { chatHardCap: 20_000 } }, { resolutions: 1_500 }));
    expect(decision.status === 'pending_subscription' && decision.events.map((e) => [e.meter, e.value])).toEqual([['svc_resolutions', 500]]);
  });

  // Issue #33 row 2: grandfathering lifts only the cap and overage, and only while the window is open.
  it('a grandfathered tenant is still billed its add-on seats and guided flows', () => {
    const decision = planUsageReport(input({ quotas: { legacyPlan: 'team-2024', grandfatheredUntil: '2026-12-31' } }, { resolutions: 5_000, addonSeats: 3, guidedFlows: 2 }));
    expect(decision.status === 'pending_subscription' && decision.events.map((e) => [e.meter, e.value])).toEqual([
      ['svc_seat_addon_team', 3],
      ['svc_guided_flow', 2],
    ]);
  });

  it('a window ending on the 10th exempts only the usage up to then; the rest has the prorated pool', () => {
    const quotas = { legacyPlan: 'team-2024', grandfatheredUntil: '2026-10-10' };
    const parts = periodParts({ period: '2026-10', plan: 'team', quotas });
    expect(parts.map((p) => [p.from, p.grandfathered])).toEqual([
      ['2026-10-01T00:00:00.000Z', true],
      ['2026-10-11T00:00:00.000Z', false],
    ]);
    // 900 before the end of the window (free), 800 after against ceil(1,000 × 21/31) = 678 included.
    const bill = billPeriod({ tenant: { plan: 'team', quotas }, period: '2026-10', parts: [{ ...parts[0]!, resolutions: 900, apiQueries: 0 }, { ...parts[1]!, resolutions: 800, apiQueries: 0 }], guidedFlows: 0, addonSeats: 0, billing: null });
    expect(bill.parts.map((p) => [p.includedResolutions, p.resolutionOverage])).toEqual([
      [null, 0],
      [678, 122],
    ]);
    const decision = planUsageReport({ tenant: { id: 'ten_1', plan: 'team', quotas, paymentCustomerId: 'cus_1' }, period: '2026-10', bill, meterEventNames: names });
    expect(decision.status === 'pending_subscription' && decision.events.map((e) => [e.identifier, e.value, e.occurredAt])).toEqual([['ten_1:2026-10:svc_resolutions', 122, null]]);
  });

  it('a grandfathering window that ended before the period does not skip', () => {
    expect(planUsageReport(input({ quotas: { legacyPlan: 'x', grandfatheredUntil: '2026-09-30' } }, { resolutions: 1_001 })).status).toBe('pending_subscription');
  });

  it('reported: each meter with a period total, the customer id and an identifier per (tenant, period, meter)', () => {
    const decision = confirmActive(planUsageReport(input({}, { resolutions: 1_100, apiQueries: 12, guidedFlows: 3, addonSeats: 2 })), 'active');
    expect(decision).toEqual({
      status: 'reported',
      events: [
        { meter: 'svc_resolutions', eventName: 'svc_resolutions', customerId: 'cus_1', value: 100, identifier: 'ten_1:2026-10:svc_resolutions', credited: 0, occurredAt: null },
        { meter: 'svc_api_queries', eventName: 'svc_api_queries', customerId: 'cus_1', value: 12, identifier: 'ten_1:2026-10:svc_api_queries', credited: 0, occurredAt: null },
        { meter: 'svc_seat_addon_team', eventName: 'svc_seat_addon_team', customerId: 'cus_1', value: 2, identifier: 'ten_1:2026-10:svc_seat_addon_team', credited: 0, occurredAt: null },
        { meter: 'svc_guided_flow', eventName: 'svc_guided_flow', customerId: 'cus_1', value: 3, identifier: 'ten_1:2026-10:svc_guided_flow', credited: 0, occurredAt: null },
      ],
    });
  });

  it('a meter without a configured name is left out; the others are sent', () => {
    const { svc_resolutions: _skip, ...rest } = names;
    const decision = planUsageReport(input({}, { resolutions: 1_100, guidedFlows: 1 }, rest));
    expect(decision.status === 'pending_subscription' && decision.events.map((e) => e.meter)).toEqual(['svc_guided_flow']);
  });

  it('rule 7: with no meter event names configured, nothing is planned', () => {
    const decision = planUsageReport(input({}, { resolutions: 5_000, apiQueries: 900, guidedFlows: 4, addonSeats: 5 }, {}));
    expect(decision).toEqual({ status: 'skipped', reason: 'no_meter_event_name' });
  });

  it('guided flows bill even within the included pool; seats only on Team', () => {
    expect(planUsageReport(input({}, { guidedFlows: 1 })).status).toBe('pending_subscription');
    expect(planUsageReport(input({ plan: 'business' }, { addonSeats: 3 }))).toEqual({ status: 'skipped', reason: 'within_included' });
  });

  it('reports the previous calendar month, in UTC', () => {
    expect(previousPeriod(new Date('2026-11-01T01:00:00Z'))).toBe('2026-10');
    expect(previousPeriod(new Date('2027-01-01T01:00:00Z'))).toBe('2026-12');
    expect(meterEventIdentifier('ten_9', '2026-12', 'svc_api_queries')).toBe('ten_9:2026-12:svc_api_queries');
  });
});
