import { err, ok, type Result } from 'neverthrow';
import { panyaError, type PanyaError } from '../errors.js';
import { chatHardCapReached, rateLimitReached, type RateLimitQuota } from '../messages.js';
import { resolveLimits } from '../plans.js';
import { resolvePublicBudgets } from '../tenancy/public-budgets.js';
import type { RateBucket } from '../tenancy/ports/rate-limits.js';
import type { RequestContext, ServiceDeps } from '../context.js';
import { countResolutions } from './resolutions.js';
import { billingPeriod } from '../tenancy/usage.js';

/** What a counted request may tell its caller (the `RateLimit-*` headers). */
export interface RateLimitStatus {
  limit: number;
  remaining: number;
  resetAt: Date;
  /** Seconds from now until the window resets (`RateLimit-Reset`). */
  resetSeconds: number;
  /** Which limit this is (its quota key) and its window (`RateLimit-Policy`). */
  quota?: RateLimitQuota;
  windowSeconds?: number;
}

/**
 * Which traffic counts: REST search/answer/chat calls (`query`) and MCP tool calls (`mcp_tool`).
 * Document management, auth and health checks are not queries.
 */
export type CountedCall = 'query' | 'mcp_tool';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

function dayWindow(now: Date) {
  const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return { window: new Date(start).toISOString().slice(0, 10), resetAt: new Date(start + DAY_MS) };
}

function hourWindow(now: Date) {
  const start = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  return { window: new Date(start).toISOString().slice(0, 13), resetAt: new Date(start + HOUR_MS) };
}

/**
 * Rate limits from the plan table (and `quotas_json`): queries per day per tenant, queries per
 * key per hour, MCP tool calls per key per hour; for publishable keys the public budgets instead
 * (`resolvePublicBudgets`: per site and per visitor). Counters live in the store, so every node
 * sharing it enforces the same limit; a refused call consumes nothing.
 */
export function createLimitsService(deps: ServiceDeps) {
  const { store, clock } = deps;

  return {
    /**
     * Chat pre-flight: refuses with a localized `hard_cap_reached` once the tenant's resolutions
     * this month reach hardCapMultiplier × included resolutions. Grandfathered tenants are exempt.
     */
    async checkChatCap(ctx: RequestContext): Promise<Result<void, PanyaError>> {
      const now = clock.now();
      const limits = resolveLimits(ctx.tenant, now);
      if (!limits.hardCapApplies || limits.chatHardCap === null) return ok(undefined);
      const used = await countResolutions(store, ctx.tenant.id, billingPeriod(now), { includeActive: true });
      if (used < limits.chatHardCap) return ok(undefined);
      const localized = chatHardCapReached(limits.chatHardCap.toLocaleString('en-US'));
      return err(
        panyaError('hard_cap_reached', {
          message: localized.en,
          localized,
          cap: limits.chatHardCap,
        }),
      );
    },

    /** Takes one unit for this call from every bucket that applies, or refuses with `rate_limited`. */
    async take(ctx: RequestContext, call: CountedCall): Promise<Result<RateLimitStatus | null, PanyaError>> {
      const now = clock.now();
      const limits = resolveLimits(ctx.tenant, now);
      const buckets: (RateBucket & { resetDate: Date; quota: RateLimitQuota; windowSeconds: number })[] = [];
      if (ctx.principal.publishable) {
        // A public surface: its own budgets (the site's, and its visitor's inside them), never the tenant's server keys'.
        const publicBudgets = resolvePublicBudgets(ctx.tenant);
        const day = dayWindow(now);
        const hour = hourWindow(now);
        const site = ctx.principal.id;
        const inDay = { window: day.window, resetAt: day.resetAt.toISOString(), resetDate: day.resetAt, windowSeconds: DAY_MS / 1000 };
        const inHour = { window: hour.window, resetAt: hour.resetAt.toISOString(), resetDate: hour.resetAt, windowSeconds: HOUR_MS / 1000 };
        if (publicBudgets.sitePerDay !== null) buckets.push({ key: `pub:day:${site}`, limit: publicBudgets.sitePerDay, quota: 'publicSitePerDay', ...inDay });
        if (publicBudgets.sitePerHour !== null) buckets.push({ key: `pub:hour:${site}`, limit: publicBudgets.sitePerHour, quota: 'publicSitePerHour', ...inHour });
        if (publicBudgets.visitorPerHour !== null) buckets.push({ key: `pub:visitor:${site}:${ctx.visitor ?? 'unknown'}`, limit: publicBudgets.visitorPerHour, quota: 'publicVisitorPerHour', ...inHour });
      } else if (limits.queriesPerDay !== null) {
        const day = dayWindow(now);
        buckets.push({ key: `q:day:${ctx.tenant.id}`, window: day.window, limit: limits.queriesPerDay, resetAt: day.resetAt.toISOString(), resetDate: day.resetAt, quota: 'queriesPerDay', windowSeconds: DAY_MS / 1000 });
      }
      const hourly = call === 'mcp_tool' ? limits.mcpToolsPerHour : limits.perKeyPerHour;
      if (hourly !== null && ctx.principal.kind !== 'system' && !ctx.principal.publishable) {
        const hour = hourWindow(now);
        const kind = call === 'mcp_tool' ? 'mcp' : 'k';
        buckets.push({ key: `${kind}:hour:${ctx.principal.id}`, window: hour.window, limit: hourly, resetAt: hour.resetAt.toISOString(), resetDate: hour.resetAt, quota: call === 'mcp_tool' ? 'mcpToolsPerHour' : 'perKeyPerHour', windowSeconds: HOUR_MS / 1000 });
      }
      if (buckets.length === 0) return ok(null);

      const decision = await store.rateLimits.consume(buckets, 1);
      const secondsUntil = (at: Date) => Math.max(0, Math.ceil((at.getTime() - now.getTime()) / 1000));
      const status: RateLimitStatus[] = buckets.map((b, i) => ({ limit: b.limit, remaining: Math.max(0, b.limit - decision.counts[i]!), resetAt: b.resetDate, resetSeconds: secondsUntil(b.resetDate), quota: b.quota, windowSeconds: b.windowSeconds }));
      if (decision.allowed) {
        // Report the bucket closest to running out.
        return ok(status.reduce((a, b) => (b.remaining < a.remaining || (b.remaining === a.remaining && b.resetAt > a.resetAt) ? b : a)));
      }
      const exhausted = status.filter((s) => s.remaining < 1).reduce((a, b) => (b.resetAt > a.resetAt ? b : a));
      const retryAfterSeconds = Math.max(1, exhausted.resetSeconds);
      const localized = rateLimitReached({ limit: exhausted.limit, quota: exhausted.quota!, resetAt: exhausted.resetAt, retryAfterSeconds, tenantSlug: ctx.tenant.slug });
      return err(
        panyaError('rate_limited', {
          message: localized.en,
          localized,
          limit: exhausted.limit,
          remaining: 0,
          resetAt: exhausted.resetAt,
          retryAfterSeconds,
          quota: exhausted.quota!,
          windowSeconds: exhausted.windowSeconds!,
        }),
      );
    },
  };
}

export type LimitsService = ReturnType<typeof createLimitsService>;
