/**
 * Gathers a period's usage part by part from the store and bills it (`billPeriod`): the one
 * place the usage view and the usage reporter get their numbers from, so they always agree.
 */
import type { TenantRecord } from '../ports/store.js';
import type { Store } from '../ports/store.js';
import { periodBounds } from './resolutions.js';
import { billPeriod, periodParts, type PeriodBill } from './period.js';

/** Usage meter (in `usage_records`) counting completed guided flows. */
export const GUIDED_FLOW_METER = 'guided_flow';

export async function gatherPeriodBill(
  store: Pick<Store, 'billing' | 'resolutions' | 'usage' | 'conversations'>,
  tenant: Pick<TenantRecord, 'id' | 'plan' | 'quotas'>,
  period: string,
  options: {
    /** Adds qualifying conversations not counted yet (the current month: they are about to bill). */
    includeActive?: boolean;
    /** Resolutions added to the last part (a refund's "before" value). */
    extraResolutions?: number;
  } = {},
): Promise<PeriodBill> {
  const billing = await store.billing.getTenantBilling(tenant.id);
  const parts = periodParts({ period, plan: tenant.plan, quotas: tenant.quotas, history: billing?.planHistory ?? [] });
  const last = parts.length - 1;
  const counted = [];
  for (const [i, part] of parts.entries()) {
    // The first and last parts are open-ended: a resolution recorded after the month closed
    // (the detector runs every 15 minutes) still belongs to the period's last part.
    const range = { ...(i > 0 ? { from: part.from } : {}), ...(i < last ? { before: part.to } : {}) };
    const queries = await store.usage.countQueries(tenant.id, period, range);
    let resolutions = await store.resolutions.count(tenant.id, period, range);
    if (i === last) {
      resolutions += options.extraResolutions ?? 0;
      if (options.includeActive) resolutions += await store.conversations.countBillable(tenant.id, periodBounds(period));
    }
    counted.push({ ...part, resolutions, apiQueries: queries.search + queries.answer + queries.mcp_tool });
  }
  const meters = await store.usage.sumUsage(tenant.id, period);
  return billPeriod({ tenant, period, parts: counted, guidedFlows: meters[GUIDED_FLOW_METER] ?? 0, addonSeats: billing?.addonSeats ?? 0, billing });
}
