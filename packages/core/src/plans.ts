/**
 * The plan table: every number of the spec's Limits and Pricing sections, plus DESIGN's
 * decisions for the cells the spec leaves "not shown". Prices are integer satang (1 THB = 100).
 * `null` means "no limit" (Enterprise "custom" until a contract sets it in quotas_json).
 */
import { z } from 'zod';

export const PLAN_IDS = ['free', 'team', 'business', 'growth', 'enterprise'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export const PLAN_NAMES = {
  free: 'Free',
  team: 'Team',
  business: 'Business',
  growth: 'Growth',
  enterprise: 'Enterprise',
} as const satisfies Record<PlanId, string>;

/** Chat hard cap = hardCapMultiplier × included resolutions (DESIGN: multiplier 2). */
export const HARD_CAP_MULTIPLIER = 2;
/** DESIGN: one included resolution covers 5 API queries (1 query = 0.2 resolution-equivalents). */
export const API_QUERIES_PER_RESOLUTION = 5;
/** Edge-provider account cap on custom hostnames (spec: Enterprise unlimited within 5,000). */
export const EDGE_HOSTNAME_ACCOUNT_CAP = 5000;

export interface PlanLimits {
  /**
   * Resolutions included in the base price (spec: the chat cap is hardCapMultiplier × this).
   * The pool that overage is measured against; null = no pool (Free bills no overage either way).
   */
  includedResolutions: number | null;
  queriesPerDay: number | null;
  perKeyPerHour: number | null;
  mcpToolsPerHour: number | null;
  chatHardCap: number | null;
  maxWorkspaces: number | null;
  maxActiveHostnames: number;
}

export interface PlanPricing {
  /** Monthly base price; null = no product (Free) or per contract (Enterprise). */
  basePriceSatang: number | null;
  resolutionOverageSatang: number | null;
  apiQueryOverageSatang: number | null;
}

export interface SeatAddon {
  pricePerSeatSatang: number;
  /** Seats included in the base price; add-on seats are numbered from includedSeats + 1. */
  includedSeats: number;
  maxAddonSeats: number;
}

export interface Plan {
  id: PlanId;
  name: string;
  limits: PlanLimits;
  pricing: PlanPricing;
  seatAddon: SeatAddon | null;
  customHostnames: boolean;
  apexHostnames: boolean;
}

const rate = (queriesPerDay: number | null, perHour: number | null) => ({
  queriesPerDay,
  perKeyPerHour: perHour,
  mcpToolsPerHour: perHour,
});

export const PLANS: Record<PlanId, Plan> = {
  free: {
    id: 'free',
    name: 'Free',
    limits: { ...rate(100, 60), includedResolutions: 50, chatHardCap: 100, maxWorkspaces: 1, maxActiveHostnames: 0 },
    pricing: { basePriceSatang: null, resolutionOverageSatang: null, apiQueryOverageSatang: null },
    seatAddon: null,
    customHostnames: false,
    apexHostnames: false,
  },
  team: {
    id: 'team',
    name: 'Team',
    limits: { ...rate(1_000, 60), includedResolutions: 1_000, chatHardCap: 2_000, maxWorkspaces: 1, maxActiveHostnames: 0 },
    pricing: { basePriceSatang: 390_000, resolutionOverageSatang: 400, apiQueryOverageSatang: 80 },
    seatAddon: { pricePerSeatSatang: 80_000, includedSeats: 5, maxAddonSeats: 5 },
    customHostnames: false,
    apexHostnames: false,
  },
  business: {
    id: 'business',
    name: 'Business',
    limits: { ...rate(10_000, 60), includedResolutions: 5_000, chatHardCap: 10_000, maxWorkspaces: 5, maxActiveHostnames: 1 },
    pricing: { basePriceSatang: 1_990_000, resolutionOverageSatang: 300, apiQueryOverageSatang: 60 },
    seatAddon: null,
    customHostnames: true,
    apexHostnames: false,
  },
  growth: {
    id: 'growth',
    name: 'Growth',
    limits: { ...rate(25_000, 60), includedResolutions: 10_000, chatHardCap: 20_000, maxWorkspaces: 20, maxActiveHostnames: 3 },
    pricing: { basePriceSatang: 3_490_000, resolutionOverageSatang: 250, apiQueryOverageSatang: 50 },
    seatAddon: null,
    customHostnames: true,
    apexHostnames: false,
  },
  enterprise: {
    id: 'enterprise',
    name: 'Enterprise',
    limits: { ...rate(null, null), includedResolutions: 62_500, chatHardCap: 125_000, maxWorkspaces: null, maxActiveHostnames: EDGE_HOSTNAME_ACCOUNT_CAP },
    pricing: { basePriceSatang: null, resolutionOverageSatang: 200, apiQueryOverageSatang: 40 },
    seatAddon: null,
    customHostnames: true,
    apexHostnames: true,
  },
};

/** Plans ordered by tier, for "at least Business" style rules. */
export function planRank(plan: PlanId): number {
  return PLAN_IDS.indexOf(plan);
}

const limitOverride = z.number().int().nonnegative().nullable().optional();

/** Per-tenant overrides (`quotas_json`). Unknown keys are kept but ignored. */
export const quotasSchema = z
  .object({
    queriesPerDay: limitOverride,
    perKeyPerHour: limitOverride,
    mcpToolsPerHour: limitOverride,
    chatHardCap: limitOverride,
    /** The included pool (contract quantity); the hard cap follows it unless chatHardCap is set too. */
    includedResolutions: limitOverride,
    maxWorkspaces: limitOverride,
    maxActiveHostnames: z.number().int().nonnegative().optional(),
    legacyPlan: z.string().min(1).optional(),
    grandfatheredUntil: z.iso.date().or(z.iso.datetime()).optional(),
    /** Enterprise-only flag (spec): stored, but visitor linking across workspaces is not implemented. */
    crossWorkspaceVisitorLinking: z.boolean().optional(),
  })
  .loose();
export type Quotas = z.infer<typeof quotasSchema>;

export interface EffectiveLimits extends PlanLimits {
  plan: PlanId;
  grandfathered: boolean;
  /** False while grandfathered: neither the chat hard cap nor overage applies. */
  hardCapApplies: boolean;
  overageApplies: boolean;
}

function isPlanId(value: unknown): value is PlanId {
  return typeof value === 'string' && (PLAN_IDS as readonly string[]).includes(value.toLowerCase());
}

/** The last instant (ms) of the grandfathering window, or null without one. */
export function grandfatheringEnd(quotas: Quotas): number | null {
  if (!quotas.legacyPlan || !quotas.grandfatheredUntil) return null;
  const until = quotas.grandfatheredUntil;
  const end = until.length === 10 ? Date.parse(`${until}T23:59:59.999Z`) : Date.parse(until);
  return Number.isFinite(end) ? end : null;
}

/** True while `grandfatheredUntil` (a date: valid through its whole UTC day) has not passed. */
export function isGrandfathered(quotas: Quotas, now: Date): boolean {
  const end = grandfatheringEnd(quotas);
  return end !== null && now.getTime() <= end;
}

/**
 * The single place that decides which limits bind a tenant: the current plan's row, then explicit
 * `quotas_json` overrides. Grandfathering lifts only the hard cap and overage (spec: nothing else
 * changes), so the legacy plan never supplies rate limits.
 */
export function resolveLimits(tenant: { plan: PlanId; quotas: Quotas }, now: Date): EffectiveLimits {
  const grandfathered = isGrandfathered(tenant.quotas, now);
  const base = PLANS[tenant.plan].limits;
  const q = tenant.quotas;
  const pick = <K extends keyof PlanLimits>(key: K, fallback: PlanLimits[K]): PlanLimits[K] =>
    q[key] !== undefined ? (q[key] as PlanLimits[K]) : fallback;
  // The pool is the plan's quantity (or the contract's override); the cap follows from it. A cap
  // override moves only the cap: changing it never changes the bill.
  const includedResolutions = pick('includedResolutions', base.includedResolutions);
  const derivedCap = q.includedResolutions !== undefined ? (includedResolutions === null ? null : HARD_CAP_MULTIPLIER * includedResolutions) : base.chatHardCap;
  const chatHardCap = pick('chatHardCap', derivedCap);
  return {
    plan: tenant.plan,
    includedResolutions,
    queriesPerDay: pick('queriesPerDay', base.queriesPerDay),
    perKeyPerHour: pick('perKeyPerHour', base.perKeyPerHour),
    mcpToolsPerHour: pick('mcpToolsPerHour', base.mcpToolsPerHour),
    chatHardCap,
    maxWorkspaces: pick('maxWorkspaces', base.maxWorkspaces),
    maxActiveHostnames: pick('maxActiveHostnames', base.maxActiveHostnames),
    grandfathered,
    hardCapApplies: !grandfathered && chatHardCap !== null,
    overageApplies: !grandfathered,
  };
}

/** Parses a user-supplied plan name (`Business`, `business`). */
export function parsePlanId(value: string): PlanId | undefined {
  const lower = value.trim().toLowerCase();
  return isPlanId(lower) ? (lower as PlanId) : undefined;
}

/** The plan-table limits a tenant's `quotas_json` may override. */
export const QUOTA_KEYS = ['queriesPerDay', 'perKeyPerHour', 'mcpToolsPerHour', 'chatHardCap', 'includedResolutions', 'maxWorkspaces', 'maxActiveHostnames'] as const satisfies readonly (keyof PlanLimits)[];
export type QuotaKey = (typeof QUOTA_KEYS)[number];

/** Longer names operators may use for a quota key. */
export const QUOTA_ALIASES = {
  queriesPerKeyPerHour: 'perKeyPerHour',
  mcpToolCallsPerHour: 'mcpToolsPerHour',
} as const satisfies Record<string, QuotaKey>;
export type QuotaAlias = keyof typeof QUOTA_ALIASES;

/** A quota key or one of its aliases, as the plan table names it; undefined when unknown. */
export function quotaKey(name: string): QuotaKey | undefined {
  if ((QUOTA_KEYS as readonly string[]).includes(name)) return name as QuotaKey;
  return Object.hasOwn(QUOTA_ALIASES, name) ? QUOTA_ALIASES[name as QuotaAlias] : undefined;
}
