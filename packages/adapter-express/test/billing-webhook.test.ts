/**
 * Stripe webhooks end to end: checkout on the Stripe adapter (official SDK) against a local fake
 * Stripe, the customer pays there, and the signed subscription events reach
 * `POST /api/billing/webhook`, where they change the tenant's plan through `changePlan` and
 * everything hooked on it (custom hostnames inactive below Business, active again on re-upgrade).
 */
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { createPanyaApp } from '@panya/adapter-express';
import { createStripeClient, createStripePaymentProcessor, stripeConfigFromEnv, type StripeConfig } from '@panya/payment-stripe';
import { startFakeStripe, type FakeStripe, type FakeSubscription } from '@panya/payment-stripe/testing';
import { makeTenant } from './helpers.js';
import { engineInternals } from '@panya/core/testing';

const SECRET = 'sk_test_webhook';
const WEBHOOK_SECRET = 'whsec_webhook_test';
const NOW = new Date('2026-10-20T12:00:00Z');
const TERM_END = Math.floor(Date.parse('2027-10-20T12:00:00Z') / 1000);

let fake: FakeStripe;
let config: StripeConfig;
let engine: Engine | undefined;
beforeAll(async () => {
  fake = await startFakeStripe({ secretKey: SECRET });
  for (const [id, interval, usageType] of [
    ['price_team', 'month', 'licensed'],
    ['price_team_y', 'year', 'licensed'],
    ['price_team_res', 'month', 'metered'],
    ['price_team_seats', 'month', 'metered'],
    ['price_biz', 'month', 'licensed'],
    ['price_biz_res', 'month', 'metered'],
  ] as const) fake.prices.set(id, { interval, usageType });
  config = stripeConfigFromEnv({
    PANYA_STRIPE_SECRET_KEY: SECRET,
    PANYA_STRIPE_API_URL: fake.url,
    PANYA_STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    PANYA_PRICE_TEAM_BASE: 'price_team',
    PANYA_PRICE_TEAM_BASE_ANNUAL: 'price_team_y',
    PANYA_PRICE_TEAM_RESOLUTIONS: 'price_team_res',
    PANYA_PRICE_TEAM_SEATS: 'price_team_seats',
    PANYA_PRICE_BUSINESS_BASE: 'price_biz',
    PANYA_PRICE_BUSINESS_RESOLUTIONS: 'price_biz_res',
  })!;
});
afterAll(() => fake.close());
afterEach(async () => {
  await engine?.close();
  engine = undefined;
});

function setup() {
  const processor = createStripePaymentProcessor(config, createStripeClient(config, { maxNetworkRetries: 0 }));
  engine = createEngine({ store: openSqliteStore({ path: ':memory:' }), clock: { now: () => NOW }, payments: { processor, catalog: config.catalog, returnUrl: 'https://panya.example' } });
  return { engine, app: createPanyaApp(engine) };
}

/** Signs `payload` the way Stripe does, with the SDK's own test helper. */
const sign = (payload: string, secret = WEBHOOK_SECRET) => createStripeClient(config).webhooks.generateTestHeaderStringAsync({ payload, secret });

async function deliver(app: ReturnType<typeof createPanyaApp>, payload: string, status = 200) {
  return request(app).post('/api/billing/webhook').set('Content-Type', 'application/json').set('Stripe-Signature', await sign(payload)).send(payload).expect(status);
}

async function withHostname(e: Engine, tenantId: string, status: 'active' | 'inactive') {
  const at = NOW.toISOString();
  await engineInternals(e).store.hostnames.insert({ id: 'hn_1', tenantId, hostname: 'help.acme.co.th', status, edgeHostnameId: 'edge_1', txtName: '_edge-custom-hostname.help.acme.co.th', txtValue: 'v', verificationError: null, verificationDetail: null, statusChangedAt: at, lastCheckedAt: at, createdAt: at, updatedAt: at });
}

async function checkout(app: ReturnType<typeof createPanyaApp>, auth: Record<string, string>, plan: string, interval: 'month' | 'year'): Promise<FakeSubscription> {
  const session = await request(app).post('/api/billing').set(auth).send({ plan, interval }).expect(200);
  return fake.completeCheckout(session.body.sessionId, { currentPeriodEnd: TERM_END });
}

describe('POST /api/billing/webhook', () => {
  it('checkout → subscription created: the plan, customer and status follow; hostnames reactivate; downgrade and cancel go back', async () => {
    const { engine: e, app } = setup();
    const acme = await makeTenant(e, 'acme', ['admin'], 'free');
    await withHostname(e, acme.tenant.id, 'inactive');

    const sub = await checkout(app, acme.auth, 'business', 'month');
    const created = await deliver(app, fake.subscriptionEvent('customer.subscription.created', sub));
    expect(created.body).toMatchObject({ received: true, action: 'applied', tenantId: acme.tenant.id, plan: 'business', subscriptionStatus: 'active' });
    expect(await engineInternals(e).store.tenants.get(acme.tenant.id)).toMatchObject({ plan: 'business', paymentCustomerId: sub.customer });
    expect(await engineInternals(e).store.billing.getTenantBilling(acme.tenant.id)).toMatchObject({ subscriptionId: sub.id, subscriptionStatus: 'active', interval: 'month', lockedRates: null });
    expect((await engineInternals(e).store.hostnames.get(acme.tenant.id, 'hn_1'))?.status).toBe('active');

    // The customer switches to Team in Stripe's portal: below Business the hostname goes inactive.
    sub.items = [{ price: 'price_team', currentPeriodEnd: TERM_END }, { price: 'price_team_res', currentPeriodEnd: TERM_END }];
    await deliver(app, fake.subscriptionEvent('customer.subscription.updated', sub));
    expect((await engineInternals(e).store.tenants.get(acme.tenant.id))?.plan).toBe('team');
    expect((await engineInternals(e).store.hostnames.get(acme.tenant.id, 'hn_1'))?.status).toBe('inactive');

    sub.status = 'canceled';
    const deleted = await deliver(app, fake.subscriptionEvent('customer.subscription.deleted', sub));
    expect(deleted.body).toMatchObject({ action: 'applied', plan: 'free', subscriptionStatus: 'canceled' });
    expect(await engineInternals(e).store.tenants.get(acme.tenant.id)).toMatchObject({ plan: 'free', paymentCustomerId: sub.customer });
    expect((await engineInternals(e).store.billing.getTenantBilling(acme.tenant.id))?.subscriptionStatus).toBe('canceled');
  });

  it('an annual subscription locks the sign-up overage rates for the term; a renewal takes the rates in force then', async () => {
    const { engine: e, app } = setup();
    const acme = await makeTenant(e, 'acme', ['admin'], 'free');
    const sub = await checkout(app, acme.auth, 'team', 'year');
    await deliver(app, fake.subscriptionEvent('customer.subscription.created', sub));
    const locked = await engineInternals(e).store.billing.getTenantBilling(acme.tenant.id);
    expect(locked).toMatchObject({ interval: 'year', lockedRates: { resolutionSatang: 400, apiQuerySatang: 80 }, lockedUntil: new Date(TERM_END * 1000).toISOString() });
    const usage = await request(app).get('/api/billing/usage').set(acme.auth).expect(200);
    expect(usage.body.rates).toEqual({ resolutionSatang: 400, apiQuerySatang: 80, locked: true });
    // Were the plan's prices to change, the locked ones hold for the term; the renewal signs at the rates of its day.
    await engineInternals(e).store.billing.putTenantBilling({ ...locked!, lockedRates: { resolutionSatang: 350, apiQuerySatang: 70 } });
    await deliver(app, fake.subscriptionEvent('customer.subscription.updated', sub));
    expect(await engineInternals(e).store.billing.getTenantBilling(acme.tenant.id)).toMatchObject({ lockedRates: { resolutionSatang: 350, apiQuerySatang: 70 } });
    for (const item of sub.items) item.currentPeriodEnd = TERM_END + 365 * 86_400;
    await deliver(app, fake.subscriptionEvent('customer.subscription.updated', sub));
    expect(await engineInternals(e).store.billing.getTenantBilling(acme.tenant.id)).toMatchObject({ lockedRates: { resolutionSatang: 400, apiQuerySatang: 80 }, lockedUntil: new Date((TERM_END + 365 * 86_400) * 1000).toISOString() });
  });

  it('a replayed event changes nothing; a late event of a replaced subscription does not downgrade', async () => {
    const { engine: e, app } = setup();
    const acme = await makeTenant(e, 'acme', ['admin'], 'free');
    const first = await checkout(app, acme.auth, 'team', 'month');
    const firstCreated = fake.subscriptionEvent('customer.subscription.created', first);
    await deliver(app, firstCreated);
    // A second subscription made outside Panya (e.g. in Stripe's dashboard) takes over.
    const second = fake.addSubscription({ customer: first.customer, status: 'active', metadata: { tenantId: acme.tenant.id }, items: [{ price: 'price_biz', currentPeriodEnd: TERM_END }, { price: 'price_biz_res', currentPeriodEnd: TERM_END }] });
    await deliver(app, fake.subscriptionEvent('customer.subscription.created', second));
    expect((await engineInternals(e).store.tenants.get(acme.tenant.id))?.plan).toBe('business');

    const replay = await deliver(app, firstCreated);
    expect(replay.body).toMatchObject({ action: 'replayed' });
    expect((await engineInternals(e).store.tenants.get(acme.tenant.id))?.plan).toBe('business');

    first.status = 'canceled';
    const late = await deliver(app, fake.subscriptionEvent('customer.subscription.deleted', first));
    expect(late.body).toMatchObject({ action: 'ignored', reason: 'replaced_subscription' });
    expect((await engineInternals(e).store.tenants.get(acme.tenant.id))?.plan).toBe('business');
    expect((await engineInternals(e).store.billing.getTenantBilling(acme.tenant.id))?.subscriptionId).toBe(second.id);
  });

  it('refuses a missing or wrong signature and a tampered body with 400, changing nothing; other events are acknowledged', async () => {
    const { engine: e, app } = setup();
    const acme = await makeTenant(e, 'acme', ['admin'], 'free');
    const sub = await checkout(app, acme.auth, 'business', 'month');
    const payload = fake.subscriptionEvent('customer.subscription.created', sub);
    const missing = await request(app).post('/api/billing/webhook').set('Content-Type', 'application/json').send(payload).expect(400);
    expect(missing.headers['content-type']).toMatch(/problem\+json/);
    await request(app).post('/api/billing/webhook').set('Content-Type', 'application/json').set('Stripe-Signature', await sign(payload, 'whsec_other')).send(payload).expect(400);
    const tampered = payload.replace(sub.customer, 'cus_attacker');
    await request(app).post('/api/billing/webhook').set('Content-Type', 'application/json').set('Stripe-Signature', await sign(payload)).send(tampered).expect(400);
    expect(await engineInternals(e).store.tenants.get(acme.tenant.id)).toMatchObject({ plan: 'free', paymentCustomerId: null });
    expect(await engineInternals(e).store.billing.getTenantBilling(acme.tenant.id)).toBeNull();

    // The tolerance holds both ways: signed 400 s ahead (or behind) is refused; 60 s ahead (clock skew) passes.
    const at = (seconds: number) => createStripeClient(config).webhooks.generateTestHeaderStringAsync({ payload, secret: WEBHOOK_SECRET, timestamp: Math.floor(Date.now() / 1000) + seconds });
    const future = await request(app).post('/api/billing/webhook').set('Content-Type', 'application/json').set('Stripe-Signature', await at(400)).send(payload).expect(400);
    expect(future.body.detail).toMatch(/tolerance/);
    await request(app).post('/api/billing/webhook').set('Content-Type', 'application/json').set('Stripe-Signature', await at(-400)).send(payload).expect(400);
    expect(await engineInternals(e).store.tenants.get(acme.tenant.id)).toMatchObject({ plan: 'free', paymentCustomerId: null });
    await request(app).post('/api/billing/webhook').set('Content-Type', 'application/json').set('Stripe-Signature', await at(60)).send(payload).expect(200);

    const invoice = JSON.stringify({ id: 'evt_invoice', object: 'event', type: 'invoice.paid', created: 1, data: { object: { id: 'in_1', object: 'invoice' } } });
    expect((await deliver(app, invoice)).body).toEqual({ received: true, eventId: 'evt_invoice', action: 'ignored', reason: 'invoice.paid' });
  });
});
