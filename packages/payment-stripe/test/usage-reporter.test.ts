/**
 * The usage reporter end to end: a month of usage in a real store, the Stripe adapter on the
 * official SDK, and the local fake Stripe counting what arrives.
 */
import { createEngine, type Engine, type Logger, type TenantRecord } from '@panya/core';
import { makeTenant, makeWorkspace, engineInternals } from '@panya/core/testing';
import { openSqliteStore } from '@panya/store-sqlite';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createStripeClient, createStripePaymentProcessor, stripeConfigFromEnv } from '../src/index.js';
import { startFakeStripe, type FakeStripe } from '../src/testing/index.js';

const SECRET = 'sk_test_reporter';
const NOW = new Date('2026-11-01T01:00:00Z');
const ALL_METERS = { PANYA_METER_RESOLUTIONS: 'svc_resolutions', PANYA_METER_API_QUERIES: 'svc_api_queries', PANYA_METER_SEATS: 'svc_seat_addon_team', PANYA_METER_GUIDED_FLOWS: 'svc_guided_flow' };

let fake: FakeStripe;
let engine: Engine | undefined;
beforeAll(async () => {
  fake = await startFakeStripe({ secretKey: SECRET });
});
afterAll(() => fake.close());
afterEach(async () => {
  await engine?.close();
  engine = undefined;
  fake.meterEvents.length = 0;
  fake.requests.length = 0;
  fake.subscriptions.length = 0;
});

function captureLogger() {
  const lines: { level: string; msg: string; data?: Record<string, unknown> }[] = [];
  const at = (level: string) => (msg: string, data?: Record<string, unknown>) => void lines.push({ level, msg, ...(data ? { data } : {}) });
  const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  return { logger, lines };
}

async function setup(meters: Record<string, string> = ALL_METERS, options: { retries?: number } = {}) {
  const config = stripeConfigFromEnv({ PANYA_STRIPE_SECRET_KEY: SECRET, PANYA_STRIPE_API_URL: fake.url, PANYA_STRIPE_WEBHOOK_SECRET: 'whsec_x', ...meters })!;
  const processor = createStripePaymentProcessor(config, createStripeClient(config, { maxNetworkRetries: options.retries ?? 0 }));
  const { logger, lines } = captureLogger();
  engine = createEngine({ store: openSqliteStore({ path: ':memory:' }), clock: { now: () => NOW }, logger, meterEventNames: config.meterEventNames, payments: { processor, catalog: config.catalog } });
  return { engine, lines };
}

let seq = 0;
/** A tenant with `resolutions` billable October conversations and some that do not count. */
async function tenantWithUsage(e: Engine, slug: string, overrides: Partial<TenantRecord>, usage: { resolutions?: number; apiQueries?: number; guidedFlows?: number; addonSeats?: number }) {
  const tenant = makeTenant(slug, { plan: 'team', quotas: { includedResolutions: 10 }, ...overrides }); // 10 included resolutions
  await engineInternals(e).store.tenants.insert(tenant);
  const ws = makeWorkspace(tenant.id, 'default', { isDefault: true });
  await engineInternals(e).store.workspaces.insert(ws);
  const conversation = (flags: { grounded?: boolean; thumbsDown?: boolean; handedOff?: boolean }, at = '2026-10-15T10:00:00.000Z') =>
    engineInternals(e).store.conversations.insert({ id: `conv_${++seq}`, tenantId: tenant.id, workspaceId: ws.id, locale: 'en', hasGroundedAnswer: flags.grounded ?? true, hasThumbsDown: flags.thumbsDown ?? false, handedOff: flags.handedOff ?? false, createdAt: at, lastMessageAt: at });
  for (let i = 0; i < (usage.resolutions ?? 0); i++) await conversation({}, i === 0 ? '2026-10-31T23:50:00.000Z' : '2026-10-15T10:00:00.000Z');
  // Not resolutions: a thumbs-down, a hand-off, an ungrounded chat, and one from September.
  await conversation({ thumbsDown: true });
  await conversation({ handedOff: true });
  await conversation({ grounded: false });
  await conversation({}, '2026-09-30T12:00:00.000Z');
  for (let i = 0; i < (usage.apiQueries ?? 0); i++) {
    await engineInternals(e).store.usage.recordQuery({ id: `evt_q${++seq}`, tenantId: tenant.id, workspaceId: ws.id, keyId: null, kind: i % 2 ? 'search' : 'mcp_tool', tool: null, billingPeriod: '2026-10', createdAt: '2026-10-20T00:00:00.000Z' });
  }
  if (usage.guidedFlows) await engineInternals(e).store.usage.recordUsage({ id: `evt_g${++seq}`, tenantId: tenant.id, workspaceId: ws.id, meter: 'guided_flow', quantity: usage.guidedFlows, billingPeriod: '2026-10', createdAt: '2026-10-20T00:00:00.000Z', data: {} });
  if (usage.addonSeats) await engineInternals(e).store.billing.putTenantBilling({ tenantId: tenant.id, subscriptionId: null, subscriptionStatus: 'active', interval: 'month', lockedRates: null, lockedUntil: null, addonSeats: usage.addonSeats, updatedAt: '2026-10-01T00:00:00.000Z' });
  if (overrides.paymentCustomerId) fake.addSubscription({ customer: overrides.paymentCustomerId, status: slug === 'cancelled' ? 'canceled' : 'active', metadata: { tenantId: tenant.id }, items: [] });
  return tenant;
}

async function seedMonth(e: Engine) {
  return {
    busy: await tenantWithUsage(e, 'busy', { paymentCustomerId: 'cus_busy' }, { resolutions: 13, apiQueries: 12, guidedFlows: 3, addonSeats: 2 }),
    nocus: await tenantWithUsage(e, 'nocus', {}, { resolutions: 30 }),
    small: await tenantWithUsage(e, 'small', { paymentCustomerId: 'cus_small' }, { resolutions: 8, apiQueries: 10 }),
    cancelled: await tenantWithUsage(e, 'cancelled', { paymentCustomerId: 'cus_cx' }, { resolutions: 30 }),
    legacy: await tenantWithUsage(e, 'legacy', { paymentCustomerId: 'cus_legacy', quotas: { includedResolutions: 10, legacyPlan: 'team-2024', grandfatheredUntil: '2026-12-31' } }, { resolutions: 30 }),
  };
}

const meterPosts = () => fake.requests.filter((r) => r.path === '/v1/billing/meter_events');
const sentEvents = () => fake.meterEvents.map((e) => [e.event_name, e.payload.stripe_customer_id, e.payload.value, e.identifier]).sort();

describe('usage reporter on Stripe', () => {
  it('a month of usage: each meter of a billable tenant sent once with its period total; every other tenant skipped with its reason', async () => {
    const { engine: e } = await setup();
    const t = await seedMonth(e);
    const run = (await e.jobs.run('usage-reporter', { holder: 'node-1' }))._unsafeUnwrap();
    expect(run).toMatchObject({ ran: true, summary: { job: 'usage-reporter', period: '2026-10', scanned: 5, reported: 1, skipped: 4, sent: 4, unsent: 0 } });
    const outcomes = (run as unknown as { summary: { outcomes: unknown[] } }).summary.outcomes;
    expect(outcomes).toEqual(
      expect.arrayContaining([
        { tenantId: t.busy.id, status: 'reported' },
        { tenantId: t.nocus.id, status: 'skipped', reason: 'no_payment_customer_id' },
        { tenantId: t.small.id, status: 'skipped', reason: 'within_included' },
        { tenantId: t.cancelled.id, status: 'skipped', reason: 'subscription_not_active' },
        { tenantId: t.legacy.id, status: 'skipped', reason: 'grandfathered' },
      ]),
    );
    // 13 resolutions (thumbs-down, hand-off, ungrounded and September chats excluded) − 10 included = 3;
    // the pool is used up, so all 12 API queries are overage; 3 guided flows; 2 add-on seats.
    expect(sentEvents()).toEqual([
      ['svc_api_queries', 'cus_busy', '12', `${t.busy.id}:2026-10:svc_api_queries`],
      ['svc_guided_flow', 'cus_busy', '3', `${t.busy.id}:2026-10:svc_guided_flow`],
      ['svc_resolutions', 'cus_busy', '3', `${t.busy.id}:2026-10:svc_resolutions`],
      ['svc_seat_addon_team', 'cus_busy', '2', `${t.busy.id}:2026-10:svc_seat_addon_team`],
    ]);
    expect(fake.meterEvents.every((ev) => ev.timestamp === Date.parse('2026-10-31T23:59:59Z') / 1000)).toBe(true);

    // Run again: the outbox says everything left already; nothing reaches Stripe.
    const before = meterPosts().length;
    const again = (await e.jobs.run('usage-reporter', { holder: 'node-2' }))._unsafeUnwrap();
    expect(again).toMatchObject({ summary: { reported: 1, sent: 0, unsent: 0 } });
    expect(meterPosts()).toHaveLength(before);
    expect(fake.meterEvents).toHaveLength(4);
  });

  // Issue #33 row 2: grandfathering exempts the cap and overage only, and only while the window is open.
  it('a grandfathered tenant with 3 add-on seats is billed 3 seats and no overage', async () => {
    const { engine: e } = await setup();
    const legacy = await tenantWithUsage(e, 'legacy-seats', { paymentCustomerId: 'cus_legacy_seats', quotas: { includedResolutions: 10, legacyPlan: 'team-2024', grandfatheredUntil: '2026-12-31' } }, { resolutions: 30, addonSeats: 3, guidedFlows: 2 });
    const run = (await e.jobs.run('usage-reporter', { holder: 'node-1' }))._unsafeUnwrap();
    expect(run).toMatchObject({ summary: { reported: 1, sent: 2 } });
    expect(sentEvents()).toEqual([
      ['svc_guided_flow', 'cus_legacy_seats', '2', `${legacy.id}:2026-10:svc_guided_flow`],
      ['svc_seat_addon_team', 'cus_legacy_seats', '3', `${legacy.id}:2026-10:svc_seat_addon_team`],
    ]);
  });

  it('a window that ends on the 10th: usage after it bills against the prorated pool', async () => {
    const { engine: e } = await setup();
    // 30 resolutions on Oct 15 (after the window) against ceil(10 × 21/31) = 7 included → 23 overage.
    const legacy = await tenantWithUsage(e, 'legacy-ended', { paymentCustomerId: 'cus_legacy_ended', quotas: { includedResolutions: 10, legacyPlan: 'team-2024', grandfatheredUntil: '2026-10-10' } }, { resolutions: 30 });
    (await e.jobs.run('usage-reporter', { holder: 'node-1' }))._unsafeUnwrap();
    expect(sentEvents()).toEqual([['svc_resolutions', 'cus_legacy_ended', '23', `${legacy.id}:2026-10:svc_resolutions`]]);
  });

  it('killed mid-run (Stripe took the event, the answer was lost): the next run finishes without billing anything twice', async () => {
    const { engine: e, lines } = await setup();
    const t = await seedMonth(e);
    // Every answer about the API-query event is lost during the first run (the SDK's own retry included).
    fake.dropResponses('/v1/billing/meter_events', Number.POSITIVE_INFINITY, (params) => String(params.identifier).endsWith(':svc_api_queries'));
    const first = (await e.jobs.run('usage-reporter', { holder: 'node-1' }))._unsafeUnwrap();
    fake.dropResponses('/v1/billing/meter_events', 0);
    expect(first).toMatchObject({ summary: { sent: 3, unsent: 1 } });
    expect(fake.meterEvents).toHaveLength(4); // the lost answer's event did arrive
    expect(lines.some((l) => l.msg === 'cron.usage_reporter.send_failed')).toBe(true);
    expect((await engineInternals(e).store.billing.listMeterEvents(t.busy.id, '2026-10')).filter((r) => r.sentAt === null)).toHaveLength(1);

    const second = (await e.jobs.run('usage-reporter', { holder: 'node-2' }))._unsafeUnwrap();
    expect(second).toMatchObject({ summary: { sent: 1, unsent: 0 } });
    expect(fake.meterEvents).toHaveLength(4);
    expect(new Set(fake.meterEvents.map((ev) => ev.identifier)).size).toBe(4);
    expect((await engineInternals(e).store.billing.listMeterEvents(t.busy.id, '2026-10')).every((r) => r.sentAt !== null)).toBe(true);
  });

  it('with no meter names configured: nothing sent, no tenant scanned, the missing-name event logged for each meter', async () => {
    const { engine: e, lines } = await setup({});
    await seedMonth(e);
    const run = (await e.jobs.run('usage-reporter', { holder: 'node-1' }))._unsafeUnwrap();
    expect(run).toMatchObject({ summary: { scanned: 0, reported: 0, skipped: 0, outcomes: [] } });
    expect(fake.requests).toHaveLength(0);
    expect(lines.filter((l) => l.msg === 'cron.usage_reporter.no_meter_event_name').map((l) => l.data?.meter)).toEqual(['svc_resolutions', 'svc_api_queries', 'svc_seat_addon_team', 'svc_guided_flow']);
  });

  it('a meter without a name is logged and skipped; the configured ones are sent', async () => {
    const { engine: e, lines } = await setup({ PANYA_METER_RESOLUTIONS: 'svc_resolutions' });
    const t = await seedMonth(e);
    await e.jobs.run('usage-reporter', { holder: 'node-1' });
    expect(sentEvents()).toEqual([['svc_resolutions', 'cus_busy', '3', `${t.busy.id}:2026-10:svc_resolutions`]]);
    expect(lines.filter((l) => l.msg === 'cron.usage_reporter.no_meter_event_name').map((l) => l.data?.meter)).toEqual(['svc_api_queries', 'svc_seat_addon_team', 'svc_guided_flow']);
  });

  it('admin mode reports only its own tenant', async () => {
    const { engine: e } = await setup();
    const t = await seedMonth(e);
    const run = (await e.jobs.run('usage-reporter', { holder: 'node-1', tenantId: t.cancelled.id }))._unsafeUnwrap();
    expect(run).toMatchObject({ summary: { scanned: 1, outcomes: [{ tenantId: t.cancelled.id, status: 'skipped', reason: 'subscription_not_active' }] } });
    expect(fake.meterEvents).toHaveLength(0);
  });
});
