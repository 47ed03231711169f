/**
 * The monthly usage reporter (`0 1 1 * *`): for the previous calendar month, decides per tenant
 * (pure rules in `reporter.ts`), writes what is due to the outbox, then sends every unsent
 * outbox row. A row is marked sent only after the processor has it, and its identifier makes a
 * resend after a crash bill once: each event leaves exactly once.
 */
import { ok, type Result } from 'neverthrow';
import type { PanyaError } from '../errors.js';
import type { JobContext } from '../jobs/types.js';
import type { MeterOutboxRecord } from '../ports/billing.js';
import { countResolutions, periodBounds } from '../services/resolutions.js';
import { METERS } from './catalog.js';
import { confirmActive, planUsageReport, previousPeriod } from './reporter.js';

/** Usage meter (in `usage_records`) counting completed guided flows. */
export const GUIDED_FLOW_METER = 'guided_flow';
/** Outbox rows sent per batch. */
const SEND_BATCH = 100;

export type UsageReporterSummary = {
  scanned: number;
  reported: number;
  skipped: number;
  outcomes: { tenantId: string; status: 'reported' | 'skipped'; reason?: string }[];
};

export async function runUsageReporter(ctx: JobContext, now: Date): Promise<Result<UsageReporterSummary & { period: string; sent: number; unsent: number }, PanyaError>> {
  const period = previousPeriod(now);
  const summary: UsageReporterSummary = { scanned: 0, reported: 0, skipped: 0, outcomes: [] };
  const names = ctx.meterEventNames;
  for (const meter of METERS) {
    if (!names[meter]) ctx.logger.info('cron.usage_reporter.no_meter_event_name', { meter, tenantId: ctx.tenantId ?? null });
  }
  // Spec: the reporter does nothing while no meter event names are configured.
  if (METERS.every((meter) => !names[meter])) return ok({ ...summary, period, sent: 0, unsent: 0 });
  if (!ctx.payments) {
    ctx.logger.warn('cron.usage_reporter.no_payment_processor', { tenantId: ctx.tenantId ?? null });
    return ok({ ...summary, period, sent: 0, unsent: 0 });
  }

  const tenants = ctx.tenantId ? [await ctx.store.tenants.get(ctx.tenantId)].filter((t) => t !== null) : await ctx.store.tenants.list();
  const periodEnd = new Date(periodBounds(period).end);
  for (const tenant of tenants) {
    summary.scanned++;
    const billing = await ctx.store.billing.getTenantBilling(tenant.id);
    const queries = await ctx.store.usage.countQueries(tenant.id, period);
    const meters = await ctx.store.usage.sumUsage(tenant.id, period);
    const usage = {
      resolutions: await countResolutions(ctx.store.conversations, tenant.id, period, now),
      apiQueries: queries.search + queries.answer + queries.mcp_tool,
      guidedFlows: meters[GUIDED_FLOW_METER] ?? 0,
      addonSeats: billing?.addonSeats ?? 0,
    };
    const lockedRates = billing?.lockedRates && billing.lockedUntil && Date.parse(billing.lockedUntil) >= periodEnd.getTime() - 1 ? billing.lockedRates : null;
    let decision = planUsageReport({ tenant, period, usage, lockedRates, meterEventNames: names });
    if (decision.status === 'pending_subscription') decision = confirmActive(decision, await ctx.payments.getSubscriptionStatus(tenant.paymentCustomerId!));
    if (decision.status === 'reported') {
      const createdAt = now.toISOString();
      await ctx.store.billing.enqueueMeterEvents(decision.events.map((e): MeterOutboxRecord => ({ ...e, tenantId: tenant.id, period, createdAt, sentAt: null })));
      summary.reported++;
      summary.outcomes.push({ tenantId: tenant.id, status: 'reported' });
    } else if (decision.status === 'skipped') {
      summary.skipped++;
      summary.outcomes.push({ tenantId: tenant.id, status: 'skipped', reason: decision.reason });
    }
  }

  const { sent, unsent } = await flushOutbox(ctx, now);
  return ok({ ...summary, period, sent, unsent });
}

/** Sends unsent outbox rows (of this run and of any run that stopped midway). */
async function flushOutbox(ctx: JobContext, now: Date): Promise<{ sent: number; unsent: number }> {
  let sent = 0;
  const failed = new Set<string>();
  for (;;) {
    const batch = (await ctx.store.billing.pendingMeterEvents({ ...(ctx.tenantId ? { tenantId: ctx.tenantId } : {}), limit: SEND_BATCH + failed.size })).filter((r) => !failed.has(r.identifier));
    if (batch.length === 0) break;
    for (const row of batch) {
      // The event belongs to the last second of its period, when the total was reached.
      const timestamp = new Date(Math.min(Date.parse(periodBounds(row.period).end) - 1000, now.getTime()));
      try {
        await ctx.payments!.sendMeterEvent({ eventName: row.eventName, customerId: row.customerId, value: row.value, timestamp, identifier: row.identifier });
        await ctx.store.billing.markMeterEventSent(row.identifier, new Date().toISOString());
        sent++;
      } catch (error) {
        // Left unsent: the next run sends it again under the same identifier.
        failed.add(row.identifier);
        ctx.logger.error('cron.usage_reporter.send_failed', { identifier: row.identifier, error: error instanceof Error ? error.message : String(error) });
      }
    }
  }
  return { sent, unsent: failed.size };
}
