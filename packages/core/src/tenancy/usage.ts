import { API_QUERIES_PER_RESOLUTION } from '../plans.js';
import type { QueryEventKind } from './ports/usage.js';
import type { RequestContext, ServiceDeps } from '../context.js';

/** The calendar-month billing period of an instant, in UTC: `YYYY-MM`. */
export function billingPeriod(at: Date): string {
  return at.toISOString().slice(0, 7);
}

export interface UsageLedger {
  tenantId: string;
  billingPeriod: string;
  apiQueries: Record<QueryEventKind, number> & { total: number };
  /** Billable conversations; written by the resolution detector. */
  resolutions: number;
  /** resolutions + 0.2 × API queries (spec: 1 API or tool query = 0.2 resolution-equivalents). */
  resolutionEquivalents: number;
  /** Other metered usage (e.g. contextualization calls), by meter. */
  meters: Record<string, number>;
}

/**
 * Usage events in one place: every counted API query writes exactly one `api_query_event`,
 * and the ledger sums a tenant's billing period for billing to build on.
 */
export function createUsageService(deps: ServiceDeps & { countResolutions?: (tenantId: string, period: string) => Promise<number> }) {
  const { store, clock, ids } = deps;

  return {
    async recordQuery(ctx: RequestContext, kind: QueryEventKind, tool: string | null = null): Promise<void> {
      const now = clock.now();
      await store.usage.recordQuery({
        id: ids.next('evt'),
        tenantId: ctx.scope.tenantId,
        workspaceId: ctx.scope.workspaceId,
        keyId: ctx.principal.kind === 'api_key' ? ctx.principal.id : null,
        kind,
        tool,
        billingPeriod: billingPeriod(now),
        createdAt: now.toISOString(),
      });
    },

    async recordUsage(tenantId: string, workspaceId: string | null, meter: string, quantity: number, data: Record<string, unknown> = {}): Promise<void> {
      const now = clock.now();
      await store.usage.recordUsage({ id: ids.next('evt'), tenantId, workspaceId, meter, quantity, billingPeriod: billingPeriod(now), createdAt: now.toISOString(), data });
    },

    async ledger(tenantId: string, period: string = billingPeriod(clock.now())): Promise<UsageLedger> {
      const queries = await store.usage.countQueries(tenantId, period);
      const total = queries.search + queries.answer + queries.mcp_tool;
      const resolutions = deps.countResolutions ? await deps.countResolutions(tenantId, period) : 0;
      return {
        tenantId,
        billingPeriod: period,
        apiQueries: { ...queries, total },
        resolutions,
        resolutionEquivalents: resolutions + total / API_QUERIES_PER_RESOLUTION,
        meters: await store.usage.sumUsage(tenantId, period),
      };
    },
  };
}

export type UsageService = ReturnType<typeof createUsageService>;
