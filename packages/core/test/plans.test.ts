import { describe, expect, it } from 'vitest';
import { HARD_CAP_MULTIPLIER, PLANS, parsePlanId, resolveLimits, type PlanId } from '@panya/core';

const now = new Date('2026-11-21T10:00:00Z');

describe('plan table (spec: Limits and Pricing)', () => {
  // Spec "Rate limits by plan"; Growth per DESIGN; Enterprise "custom" = no limit until quotas_json sets one.
  it.each([
    ['free', 100, 60, 60],
    ['team', 1_000, 60, 60],
    ['business', 10_000, 60, 60],
    ['growth', 25_000, 60, 60],
    ['enterprise', null, null, null],
  ] as const)('%s: %s queries/day, %s per key per hour, %s MCP tools per hour', (plan, perDay, perKey, mcp) => {
    const limits = resolveLimits({ plan, quotas: {} }, now);
    expect([limits.queriesPerDay, limits.perKeyPerHour, limits.mcpToolsPerHour]).toEqual([perDay, perKey, mcp]);
  });

  // Spec "Chat hard cap"; Growth per DESIGN (20,000); hardCapMultiplier 2.
  it.each([
    ['free', 100, 50],
    ['team', 2_000, 1_000],
    ['business', 10_000, 5_000],
    ['growth', 20_000, 10_000],
    ['enterprise', 125_000, 62_500],
  ] as const)('%s: chat hard cap %s = %s included resolutions × 2', (plan, cap, included) => {
    const limits = resolveLimits({ plan, quotas: {} }, now);
    expect(limits.chatHardCap).toBe(cap);
    expect(limits.includedResolutions).toBe(included);
    expect(limits.includedResolutions! * HARD_CAP_MULTIPLIER).toBe(cap);
  });

  // Issue #33 row 1: the pool is the plan's quantity; a cap override never moves the bill.
  it('a chat-cap override moves only the cap; the included pool stays the plan\'s', () => {
    expect(resolveLimits({ plan: 'enterprise', quotas: { chatHardCap: null } }, now)).toMatchObject({ chatHardCap: null, includedResolutions: 62_500, hardCapApplies: false, overageApplies: true });
    expect(resolveLimits({ plan: 'team', quotas: { chatHardCap: 20_000 } }, now)).toMatchObject({ chatHardCap: 20_000, includedResolutions: 1_000 });
  });
  it('an includedResolutions override sets the pool and, unless the cap is set too, the cap at × 2', () => {
    expect(resolveLimits({ plan: 'enterprise', quotas: { includedResolutions: 100_000 } }, now)).toMatchObject({ includedResolutions: 100_000, chatHardCap: 200_000 });
    expect(resolveLimits({ plan: 'enterprise', quotas: { includedResolutions: 100_000, chatHardCap: null } }, now)).toMatchObject({ includedResolutions: 100_000, chatHardCap: null });
    expect(resolveLimits({ plan: 'team', quotas: { includedResolutions: null } }, now)).toMatchObject({ includedResolutions: null, chatHardCap: null });
  });

  // Spec "Custom hostnames (active records only)" and "Workspaces".
  it.each([
    ['free', 0, false, 1],
    ['team', 0, false, 1],
    ['business', 1, true, 5],
    ['growth', 3, true, 20],
    ['enterprise', 5_000, true, null],
  ] as const)('%s: %s active hostnames (feature %s), %s workspaces', (plan, hosts, feature, workspaces) => {
    expect(PLANS[plan].limits.maxActiveHostnames).toBe(hosts);
    expect(PLANS[plan].customHostnames).toBe(feature);
    expect(PLANS[plan].limits.maxWorkspaces).toBe(workspaces);
  });

  // Spec "Pricing constants (currency THB, monthly)", in satang.
  it.each([
    ['free', null, null, null],
    ['team', 390_000, 400, 80],
    ['business', 1_990_000, 300, 60],
    ['growth', 3_490_000, 250, 50],
    ['enterprise', null, 200, 40],
  ] as const)('%s: base %s, resolution overage %s, API query overage %s satang', (plan, base, resolution, api) => {
    expect(PLANS[plan].pricing).toEqual({ basePriceSatang: base, resolutionOverageSatang: resolution, apiQueryOverageSatang: api });
  });

  it('prices are integers: no floating-point money', () => {
    for (const plan of Object.values(PLANS)) {
      for (const v of Object.values(plan.pricing)) if (v !== null) expect(Number.isInteger(v)).toBe(true);
    }
  });

  it('Team seat add-on: 800 THB per seat, seats 6 to 10, at most 5 add-on seats; no other plan has one', () => {
    expect(PLANS.team.seatAddon).toEqual({ pricePerSeatSatang: 80_000, includedSeats: 5, maxAddonSeats: 5 });
    for (const plan of ['free', 'business', 'growth', 'enterprise'] as PlanId[]) expect(PLANS[plan].seatAddon).toBeNull();
  });

  it('apex hostnames are Enterprise-only', () => {
    expect(Object.values(PLANS).filter((p) => p.apexHostnames).map((p) => p.id)).toEqual(['enterprise']);
  });
});

describe('resolveLimits: quotas_json and grandfathering', () => {
  it('applies quotas_json overrides over the plan row', () => {
    const limits = resolveLimits({ plan: 'enterprise', quotas: { queriesPerDay: 500_000, perKeyPerHour: 1_000, mcpToolsPerHour: 300 } }, now);
    expect([limits.queriesPerDay, limits.perKeyPerHour, limits.mcpToolsPerHour]).toEqual([500_000, 1_000, 300]);
    expect(resolveLimits({ plan: 'free', quotas: { queriesPerDay: 5 } }, now).queriesPerDay).toBe(5);
  });

  it('exempts a grandfathered tenant from hard cap and overage while the date has not passed', () => {
    const quotas = { legacyPlan: 'business', grandfatheredUntil: '2026-11-21' };
    const during = resolveLimits({ plan: 'team', quotas }, now);
    // Nothing else changes: rate limits stay the current plan's, not the legacy plan's.
    expect(during).toMatchObject({ grandfathered: true, hardCapApplies: false, overageApplies: false, queriesPerDay: 1_000 });
    const after = resolveLimits({ plan: 'team', quotas }, new Date('2026-11-22T00:00:00Z'));
    expect(after).toMatchObject({ grandfathered: false, hardCapApplies: true, overageApplies: true, queriesPerDay: 1_000 });
  });

  it('holds a Business tenant grandfathered from Free to Business rate limits', () => {
    const limits = resolveLimits({ plan: 'business', quotas: { legacyPlan: 'free', grandfatheredUntil: '2099-01-01' } }, now);
    expect(limits).toMatchObject({ grandfathered: true, queriesPerDay: 10_000, chatHardCap: 10_000, hardCapApplies: false });
  });

  it('needs both legacyPlan and grandfatheredUntil', () => {
    expect(resolveLimits({ plan: 'team', quotas: { grandfatheredUntil: '2099-01-01' } }, now).grandfathered).toBe(false);
    expect(resolveLimits({ plan: 'team', quotas: { legacyPlan: 'business' } }, now).grandfathered).toBe(false);
  });

  it('grandfathers a legacy plan that is no longer a known plan', () => {
    const limits = resolveLimits({ plan: 'team', quotas: { legacyPlan: 'starter-2023', grandfatheredUntil: '2099-01-01' } }, now);
    expect(limits).toMatchObject({ grandfathered: true, hardCapApplies: false, queriesPerDay: 1_000 });
  });

  it('parses plan names case-insensitively', () => {
    expect(parsePlanId('Business')).toBe('business');
    expect(parsePlanId('platinum')).toBeUndefined();
  });
});
