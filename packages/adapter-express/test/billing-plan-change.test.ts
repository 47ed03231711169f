/**
 * Plan changes on one subscription, over HTTP against the local fake Stripe (official SDK): a
 * second `POST /api/billing` moves the live subscription (prices swapped, base prorated) instead
 * of opening a second one; the month is billed part by part under the plan in force; webhook
 * events apply in the order Stripe created them; annual rates hold for their term only.
 */
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { createPanyaApp } from '@panya/adapter-express';
import { createStripeClient, createStripePaymentProcessor, stripeConfigFromEnv, type StripeConfig } from '@panya/payment-stripe';
import { startFakeStripe, type FakeStripe, type FakeSubscription } from '@panya/payment-stripe/testing';
import { engineInternals } from '@panya/core/testing';

const SECRET = 'sk_test_plan_change';
const WEBHOOK_SECRET = 'whsec_plan_change';
const CRON = 'cron-secret-plan-change';

let fake: FakeStripe;
let config: StripeConfig;
let engine: Engine | undefined;
beforeAll(async () => {
  fake = await startFakeStripe({ secretKey: SECRET });
  for (const [id, interval, usageType] of [
    ['price_team', 'month', 'licensed'],
    ['price_team_res', 'month', 'metered'],
    ['price_biz', 'month', 'licensed'],
    ['price_biz_y', 'year', 'licensed'],
    ['price_biz_res', 'month', 'metered'],
    ['price_growth', 'month', 'licensed'],
    ['price_growth_res', 'month', 'metered'],
  ] as const) fake.prices.set(id, { interval, usageType });
  config = stripeConfigFromEnv({
    PANYA_STRIPE_SECRET_KEY: SECRET,
    PANYA_STRIPE_API_URL: fake.url,
    PANYA_STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    PANYA_PRICE_TEAM_BASE: 'price_team',
    PANYA_PRICE_TEAM_RESOLUTIONS: 'price_team_res',
    PANYA_PRICE_BUSINESS_BASE: 'price_biz',
    PANYA_PRICE_BUSINESS_BASE_ANNUAL: 'price_biz_y',
    PANYA_PRICE_BUSINESS_RESOLUTIONS: 'price_biz_res',
    PANYA_PRICE_GROWTH_BASE: 'price_growth',
    PANYA_PRICE_GROWTH_RESOLUTIONS: 'price_growth_res',
    PANYA_METER_RESOLUTIONS: 'svc_resolutions',
    PANYA_METER_API_QUERIES: 'svc_api_queries',
  })!;
});
afterAll(() => fake.close());
afterEach(async () => {
  await engine?.close();
  engine = undefined;
});

const sign = (payload: string) => createStripeClient(config).webhooks.generateTestHeaderStringAsync({ payload, secret: WEBHOOK_SECRET });

async function setup(start: string, slug: string) {
  let now = new Date(start);
  const processor = createStripePaymentProcessor(config, createStripeClient(config, { maxNetworkRetries: 0 }));
  const e = createEngine({ store: openSqliteStore({ path: ':memory:' }), clock: { now: () => now }, meterEventNames: config.meterEventNames, payments: { processor, catalog: config.catalog } });
  engine = e;
  const app = createPanyaApp(e, { cronSecret: CRON });
  const { tenant, defaultWorkspace } = (await e.tenancy.createTenant({ slug, plan: 'free' }))._unsafeUnwrap();
  const auth = { Authorization: `Bearer ${(await e.apiKeys.create(tenant.id, { scopes: ['read', 'write', 'admin'] }))._unsafeUnwrap().key}` };
  const store = engineInternals(e).store;
  const deliver = async (type: 'customer.subscription.created' | 'customer.subscription.updated' | 'customer.subscription.deleted', sub: FakeSubscription, created = Math.floor(now.getTime() / 1000)) => {
    const event = fake.subscriptionEvent(type, sub, { created });
    return (await request(app).post('/api/billing/webhook').set('Content-Type', 'application/json').set('Stripe-Signature', await sign(event)).send(event).expect(200)).body;
  };
  let seq = 0;
  /** `n` resolved conversations at `at`, counted by the detector an hour later (its cron route). */
  const resolve = async (n: number, at: string) => {
    for (let i = 0; i < n; i++) await store.conversations.insert({ id: `conv_${slug}_${++seq}`, tenantId: tenant.id, workspaceId: defaultWorkspace.id, locale: 'en', hasGroundedAnswer: true, hasThumbsDown: false, handedOff: false, createdAt: at, lastMessageAt: at });
    now = new Date(Date.parse(at) + 3_600_000);
    await request(app).get('/api/cron/resolutions').set('Authorization', `Bearer ${CRON}`).expect(200);
  };
  return { e, app, auth, tenant, store, deliver, resolve, at: (iso: string) => (now = new Date(iso)) };
}

const liveSubscriptions = (customer: string) => fake.subscriptions.filter((s) => s.customer === customer && s.status !== 'canceled');

describe('one subscription per tenant', () => {
  it('Team → Business → Team in one month: one live subscription, prorated base, each part billed under its own plan', async () => {
    const { app, auth, tenant, store, deliver, resolve, at } = await setup('2026-10-01T00:00:00Z', 'acme');
    const first = await request(app).post('/api/billing').set(auth).send({ plan: 'team' }).expect(200);
    const sub = fake.completeCheckout(first.body.sessionId);
    await deliver('customer.subscription.created', sub);

    // Oct 1–10 on Team: 400 resolutions against ceil(1,000 × 10/31) = 323 included → 77 over.
    await resolve(400, '2026-10-05T10:00:00Z');

    at('2026-10-11T00:00:00Z');
    const upgrade = await request(app).post('/api/billing').set(auth).send({ plan: 'business' }).expect(200);
    expect(upgrade.body).toMatchObject({ changed: true, subscriptionId: sub.id, plan: 'business' });
    expect(fake.checkoutSessions).toHaveLength(1);
    expect(sub.items.map((i) => i.price).sort()).toEqual(['price_biz', 'price_biz_res']);
    expect(fake.prorations.filter((p) => p.subscription === sub.id).map((p) => [p.price, p.direction])).toEqual([
      ['price_team', -1],
      ['price_biz', 1],
    ]);
    await deliver('customer.subscription.updated', sub);
    expect(await store.tenants.get(tenant.id)).toMatchObject({ plan: 'business' });

    // Oct 11–20 on Business: 1,700 against ceil(5,000 × 10/31) = 1,613 → 87 over.
    await resolve(1_700, '2026-10-15T10:00:00Z');

    at('2026-10-21T00:00:00Z');
    await request(app).post('/api/billing').set(auth).send({ plan: 'team' }).expect(200);
    await deliver('customer.subscription.updated', sub);
    // Oct 21–31 on Team: 300 against ceil(1,000 × 11/31) = 355 → nothing over.
    await resolve(300, '2026-10-25T10:00:00Z');

    expect(liveSubscriptions(sub.customer)).toHaveLength(1);
    expect(sub.items.map((i) => i.price).sort()).toEqual(['price_team', 'price_team_res']);
    // Asking for the plan it already has is a conflict, never a second subscription.
    await request(app).post('/api/billing').set(auth).send({ plan: 'team' }).expect(409);

    const usage = (await request(app).get('/api/billing/usage?period=2026-10').set(auth).expect(200)).body;
    expect(usage.parts.map((p: { plan: string; resolutions: number; included: { resolutions: number }; overage: { resolutions: number } }) => [p.plan, p.resolutions, p.included.resolutions, p.overage.resolutions])).toEqual([
      ['team', 400, 323, 77],
      ['business', 1_700, 1_613, 87],
      ['team', 300, 355, 0],
    ]);
    expect(usage.charges.resolutionOverageSatang).toBe(77 * 400 + 87 * 300);

    at('2026-11-01T01:00:00Z');
    await request(app).get('/api/cron/usage-reporter').set('Authorization', `Bearer ${CRON}`).expect(200);
    // Each part's event is stamped inside its part, so Stripe prices it on the item in force then.
    expect(fake.meterEvents.filter((ev) => ev.payload.stripe_customer_id === sub.customer).map((ev) => [ev.identifier.split(':').slice(1).join(':'), ev.payload.value, new Date(ev.timestamp * 1000).toISOString()])).toEqual([
      ['2026-10:svc_resolutions:1', '77', '2026-10-10T23:59:59.000Z'],
      ['2026-10:svc_resolutions:2', '87', '2026-10-20T23:59:59.000Z'],
    ]);
  });

  it('a cancellation moves the tenant to Free; a later checkout opens a new subscription', async () => {
    const { app, auth, tenant, store, deliver } = await setup('2026-10-01T00:00:00Z', 'gone');
    const sub = fake.completeCheckout((await request(app).post('/api/billing').set(auth).send({ plan: 'growth' }).expect(200)).body.sessionId);
    await deliver('customer.subscription.created', sub);
    sub.status = 'canceled';
    await deliver('customer.subscription.deleted', sub);
    expect(await store.tenants.get(tenant.id)).toMatchObject({ plan: 'free' });
    const again = await request(app).post('/api/billing').set(auth).send({ plan: 'team' }).expect(200);
    expect(again.body.url).toMatch(/^https:\/\/checkout\.stripe\.com\//);
  });
});

describe('webhook order', () => {
  it('a late `updated` (active) retried after `deleted` does not bring the cancelled plan back', async () => {
    const { app, auth, tenant, store, deliver } = await setup('2026-10-01T00:00:00Z', 'late');
    const sub = fake.completeCheckout((await request(app).post('/api/billing').set(auth).send({ plan: 'growth' }).expect(200)).body.sessionId);
    const t0 = Math.floor(Date.parse('2026-10-01T00:00:00Z') / 1000);
    await deliver('customer.subscription.created', sub, t0);
    const activeUpdate = fake.subscriptionEvent('customer.subscription.updated', sub, { created: t0 + 60 });
    sub.status = 'canceled';
    await deliver('customer.subscription.deleted', sub, t0 + 120);
    expect(await store.tenants.get(tenant.id)).toMatchObject({ plan: 'free' });
    // Stripe retries the earlier `updated` (status active) now.
    const late = await request(app).post('/api/billing/webhook').set('Content-Type', 'application/json').set('Stripe-Signature', await sign(activeUpdate)).send(activeUpdate).expect(200);
    expect(late.body).toMatchObject({ action: 'ignored', reason: 'stale_event' });
    expect(await store.tenants.get(tenant.id)).toMatchObject({ plan: 'free' });
    expect((await store.billing.getTenantBilling(tenant.id))?.subscriptionStatus).toBe('canceled');
    // Even one stamped later: canceled is final for that subscription.
    sub.status = 'active';
    expect(await deliver('customer.subscription.updated', sub, t0 + 600)).toMatchObject({ action: 'ignored', reason: 'stale_event' });
    expect(await store.tenants.get(tenant.id)).toMatchObject({ plan: 'free' });
  });
});

describe('annual rate lock', () => {
  it('lasts the term it was signed for; the renewal takes the rates in force then', async () => {
    const { tenant, store, deliver } = await setup('2026-10-01T00:00:00Z', 'annual');
    const termEnd = Math.floor(Date.parse('2027-10-01T00:00:00Z') / 1000);
    const sub = fake.addSubscription({ customer: 'cus_annual', status: 'active', metadata: { tenantId: tenant.id }, items: [{ price: 'price_biz_y', currentPeriodEnd: termEnd }, { price: 'price_biz_res', currentPeriodEnd: termEnd }] });
    await deliver('customer.subscription.created', sub);
    // Signed at the rates of that day (written as they were then).
    const signed = (await store.billing.getTenantBilling(tenant.id))!;
    await store.billing.putTenantBilling({ ...signed, lockedRates: { resolutionSatang: 350, apiQuerySatang: 70 } });
    await deliver('customer.subscription.updated', sub); // within the term: kept
    expect(await store.billing.getTenantBilling(tenant.id)).toMatchObject({ lockedRates: { resolutionSatang: 350, apiQuerySatang: 70 }, lockedUntil: '2027-10-01T00:00:00.000Z' });

    const renewed = Math.floor(Date.parse('2028-10-01T00:00:00Z') / 1000);
    for (const item of sub.items) item.currentPeriodEnd = renewed;
    await deliver('customer.subscription.updated', sub, Math.floor(Date.parse('2027-10-01T00:00:05Z') / 1000));
    expect(await store.billing.getTenantBilling(tenant.id)).toMatchObject({ lockedRates: { resolutionSatang: 300, apiQuerySatang: 60 }, lockedUntil: '2028-10-01T00:00:00.000Z' });
  });
});

describe('an auditable resolution bill', () => {
  it('lists each resolution with its conversation, workspace, time, rule and state; a dispute within 14 days goes through the refund hook', async () => {
    const { app, auth, tenant, store, resolve, at } = await setup('2026-10-01T00:00:00Z', 'audit');
    await resolve(3, '2026-10-05T10:00:00Z');
    const first = (await request(app).get('/api/billing/resolutions?period=2026-10&limit=2').set(auth).expect(200)).body;
    expect(first.data).toHaveLength(2);
    expect(first.data[0]).toMatchObject({ conversationId: expect.any(String), workspaceId: expect.any(String), period: '2026-10', qualifiedAt: '2026-10-05T11:00:00.000Z', rule: expect.stringContaining('grounded'), state: 'counted', disputableUntil: '2026-10-19T11:00:00.000Z' });
    const second = (await request(app).get(`/api/billing/resolutions?period=2026-10&limit=2&cursor=${first.nextCursor}`).set(auth).expect(200)).body;
    expect(second.nextCursor).toBeNull();
    const [a, b, c] = [...first.data, ...second.data] as { id: string; conversationId: string }[];

    // Not reported yet: the dispute removes it from the bill; it stays listed as disputed.
    at('2026-10-10T00:00:00Z');
    await request(app).post(`/api/billing/resolutions/${a!.id}/dispute`).set(auth).send({}).expect(400);
    const removed = (await request(app).post(`/api/billing/resolutions/${a!.id}/dispute`).set(auth).send({ reason: 'The visitor called us afterwards.' }).expect(200)).body;
    expect(removed).toMatchObject({ id: a!.id, state: 'disputed', dispute: { outcome: 'removed' } });
    expect(await store.resolutions.count(tenant.id, '2026-10')).toBe(2);
    await request(app).post(`/api/billing/resolutions/${a!.id}/dispute`).set(auth).send({ reason: 'again' }).expect(404);

    // Reported already: refunded, credited in the next report.
    await store.resolutions.markReported(tenant.id, '2026-10');
    at('2026-10-15T00:00:00Z');
    expect((await request(app).post(`/api/billing/resolutions/${b!.id}/dispute`).set(auth).send({ reason: 'Wrong answer.' }).expect(200)).body).toMatchObject({ dispute: { outcome: 'refunded' } });
    expect(await store.resolutions.uncorrectedRefunds(tenant.id)).toEqual([{ period: '2026-10', count: 1 }]);
    await request(app).post(`/api/billing/resolutions/${b!.id}/dispute`).set(auth).send({ reason: 'Twice.' }).expect(409);
    // After 14 days the window is closed.
    at('2026-10-20T00:00:00Z');
    await request(app).post(`/api/billing/resolutions/${c!.id}/dispute`).set(auth).send({ reason: 'Too late.' }).expect(422);

    const listed = (await request(app).get('/api/billing/resolutions?period=2026-10').set(auth).expect(200)).body.data as { id: string; state: string }[];
    expect(Object.fromEntries(listed.map((l) => [l.id, l.state]))).toEqual({ [a!.id]: 'disputed', [b!.id]: 'disputed', [c!.id]: 'counted' });
  });
});

describe('W16: workspaces carry a quota only', () => {
  it('usage in two workspaces sums into one tenant overage', async () => {
    const { app, auth, tenant, store, resolve, at } = await setup('2026-10-01T00:00:00Z', 'two');
    // Team with a pool of 3 and (by override) two workspaces.
    (await engine!.tenancy.update('two', { plan: 'team', quotas: { includedResolutions: 3, maxWorkspaces: 2 } }))._unsafeUnwrap();
    const second = (await request(app).post('/api/workspaces').set(auth).send({ slug: 'brand-b', name: 'Brand B' }).expect(201)).body;
    await resolve(2, '2026-10-05T10:00:00Z');
    for (let i = 0; i < 3; i++) await store.conversations.insert({ id: `conv_b_${i}`, tenantId: tenant.id, workspaceId: second.id, locale: 'en', hasGroundedAnswer: true, hasThumbsDown: false, handedOff: false, createdAt: '2026-10-06T10:00:00Z', lastMessageAt: '2026-10-06T10:00:00Z' });
    at('2026-10-06T12:00:00Z');
    await request(app).get('/api/cron/resolutions').set('Authorization', `Bearer ${CRON}`).expect(200);
    const usage = (await request(app).get('/api/billing/usage?period=2026-10').set(auth).expect(200)).body;
    // 2 + 3 = 5 against one pool of 3: 2 over, wherever they happened.
    expect(usage).toMatchObject({ resolutions: 5, included: { resolutions: 3 }, overage: { resolutions: 2 } });
    const inB = (await request(app).get('/c/two/_w/brand-b/api/billing/usage?period=2026-10').set(auth).expect(200)).body;
    expect(inB).toMatchObject({ resolutions: 5, overage: { resolutions: 2 } });
  });
});
