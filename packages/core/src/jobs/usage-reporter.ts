/**
 * The monthly usage reporter (`0 1 1 * *`): for the previous calendar month, decides per tenant
 * (pure rules in `reporter.ts`), writes what is due to the outbox, then sends every unsent
 * outbox row. A row is marked sent only after the processor has it, and its identifier makes a
 * resend after a crash bill once: each event leaves exactly once.
 *
 * Resolutions are the detector's records (the detector runs first, so every conversation idle
 * by now is counted). Writing a tenant's events marks its resolutions reported, in the same
 * transaction; a resolution refunded after its period was reported is credited here, in the
 * next report, and never by editing an event already sent.
 */
import { ok, type Result } from 'neverthrow';
import { hasMarker, type PanyaError } from '../errors.js';
import type { JobContext } from '../jobs/types.js';
import type { MeterOutboxRecord } from '../billing/ports/billing.js';
import type { Store, TenantRecord } from '../ports/store.js';
import { detectResolutions, periodBounds } from '../billing/resolutions.js';
import { createIds } from '../system.js';
import { METERS, type MeterKey } from '../billing/catalog.js';
import { gatherPeriodBill } from '../billing/period-usage.js';
import { confirmActive, meterTotals, planUsageReport, previousPeriod, type ReportDecision, type SkipReason } from '../billing/reporter.js';
/** Outbox rows sent per batch. */
const SEND_BATCH = 100;

export type UsageReporterOutcome = { tenantId: string; status: 'reported' } | { tenantId: string; status: 'skipped'; reason: SkipReason };

export type UsageReporterSummary = {
  scanned: number;
  reported: number;
  skipped: number;
  outcomes: UsageReporterOutcome[];
};

type Credits = Partial<Record<MeterKey, number>>;

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

  await detectResolutions(ctx.store, ctx.ids ?? createIds(), now, ctx.tenantId ? { tenantId: ctx.tenantId } : {});
  const tenants = ctx.tenantId ? [await ctx.store.tenants.get(ctx.tenantId)].filter((t) => t !== null) : await ctx.store.tenants.list();
  for (const tenant of tenants) {
    summary.scanned++;
    const outcome = await reportTenant(ctx, tenant, period, now);
    if (outcome.status === 'reported') summary.reported++;
    else summary.skipped++;
    summary.outcomes.push(outcome);
  }

  const { sent, unsent } = await flushOutbox(ctx, now);
  return ok({ ...summary, period, sent, unsent });
}

const NOTHING_TO_REPORT = Symbol.for('panya.error.nothing-to-report');

/** Rolls the reporting transaction back when the period turns out not to bill. */
class NothingToReport extends Error {
  readonly [NOTHING_TO_REPORT] = true;
  constructor(readonly decision: ReportDecision) {
    super('nothing to report');
  }
}

function isNothingToReport(error: unknown): error is NothingToReport {
  return hasMarker(error, NOTHING_TO_REPORT);
}

/** Decides one tenant's period and, when it bills, writes its outbox rows. */
async function reportTenant(ctx: JobContext, tenant: TenantRecord, period: string, now: Date): Promise<UsageReporterOutcome> {
  // A re-run (or a second node) finds the period already written: the outbox keeps its first values.
  if ((await ctx.store.billing.listMeterEvents(tenant.id, period)).length > 0) return { tenantId: tenant.id, status: 'reported' };
  const first = await decide(ctx, ctx.store, tenant, period, false);
  let decision = first.decision;
  if (decision.status === 'pending_subscription') decision = confirmActive(decision, await ctx.payments!.getSubscriptionStatus(tenant.paymentCustomerId!));
  if (decision.status !== 'reported') return { tenantId: tenant.id, status: 'skipped', reason: decision.status === 'skipped' ? decision.reason : 'subscription_not_active' };
  try {
    await ctx.store.transaction(async (tx) => {
      // Decided again inside the transaction: it marks the counted resolutions reported, and a
      // thumbs-down that landed meanwhile is either in this count or refunded later, never both.
      const { decision: final, corrections } = await decide(ctx, tx, tenant, period, true);
      if (final.status !== 'pending_subscription' && final.status !== 'reported') throw new NothingToReport(final);
      for (const c of corrections) {
        await tx.resolutions.markCorrected(tenant.id, c.period, period);
        await tx.resolutions.addCredits(tenant.id, c.delta);
      }
      const createdAt = now.toISOString();
      await tx.billing.enqueueMeterEvents(final.events.map(({ credited: _credited, ...e }): MeterOutboxRecord => ({ ...e, tenantId: tenant.id, period, createdAt, sentAt: null })));
      await tx.resolutions.addCredits(tenant.id, Object.fromEntries(final.events.map((e) => [e.meter, -e.credited])));
    });
  } catch (error) {
    if (!isNothingToReport(error)) throw error;
    const reason = error.decision.status === 'skipped' ? error.decision.reason : 'within_included';
    return { tenantId: tenant.id, status: 'skipped', reason };
  }
  return { tenantId: tenant.id, status: 'reported' };
}

/** The period's bill and the credits due from refunds of earlier reported periods → the decision. */
async function decide(ctx: JobContext, store: Store, tenant: TenantRecord, period: string, markReported: boolean) {
  // Each refund after a report takes back what it added to that report: the difference between
  // the period's values with and without the refunded resolutions.
  const credits: Credits = { ...(await store.resolutions.credits(tenant.id)) };
  const corrections: { period: string; delta: Credits }[] = [];
  for (const refund of await store.resolutions.uncorrectedRefunds(tenant.id)) {
    const before = meterTotals(await gatherPeriodBill(store, tenant, refund.period, { extraResolutions: refund.count }));
    const after = meterTotals(await gatherPeriodBill(store, tenant, refund.period));
    const delta: Credits = { svc_resolutions: before.svc_resolutions - after.svc_resolutions, svc_api_queries: before.svc_api_queries - after.svc_api_queries };
    corrections.push({ period: refund.period, delta });
    for (const [meter, n] of Object.entries(delta) as [MeterKey, number][]) credits[meter] = (credits[meter] ?? 0) + n;
  }

  if (markReported) await store.resolutions.markReported(tenant.id, period);
  const bill = await gatherPeriodBill(store, tenant, period);
  const decision = planUsageReport({ tenant, period, bill, meterEventNames: ctx.meterEventNames, credits });
  return { decision, corrections };
}

/** Sends unsent outbox rows (of this run and of any run that stopped midway). */
async function flushOutbox(ctx: JobContext, now: Date): Promise<{ sent: number; unsent: number }> {
  let sent = 0;
  const failed = new Set<string>();
  for (;;) {
    const batch = (await ctx.store.billing.pendingMeterEvents({ ...(ctx.tenantId ? { tenantId: ctx.tenantId } : {}), limit: SEND_BATCH + failed.size })).filter((r) => !failed.has(r.identifier));
    if (batch.length === 0) break;
    for (const row of batch) {
      // The event belongs to the last second of its period (or of its part), when the total was reached.
      const timestamp = new Date(Math.min(row.occurredAt ? Date.parse(row.occurredAt) : Date.parse(periodBounds(row.period).end) - 1000, now.getTime()));
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
