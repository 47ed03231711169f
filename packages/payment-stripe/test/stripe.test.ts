import { checkoutLines, type PlanId } from '@panya/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { createStripeClient, createStripePaymentProcessor, stripeConfigFromEnv, type StripeConfig } from '../src/index.js';
import { startFakeStripe, type FakeStripe } from '../src/testing/index.js';

const SECRET = 'sk_test_panya';
const WEBHOOK_SECRET = 'whsec_test_secret';

const env = (url: string) => ({
  PANYA_STRIPE_SECRET_KEY: SECRET,
  PANYA_STRIPE_API_URL: url,
  PANYA_STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  PANYA_PRICE_TEAM_BASE: 'price_team',
  PANYA_PRICE_TEAM_BASE_ANNUAL: 'price_team_y',
  PANYA_PRICE_TEAM_RESOLUTIONS: 'price_team_res',
  PANYA_PRICE_TEAM_API_QUERIES: 'price_team_api',
  PANYA_PRICE_TEAM_SEATS: 'price_team_seats',
  PANYA_PRICE_BUSINESS_BASE: 'price_biz',
  PANYA_PRICE_BUSINESS_BASE_ANNUAL: 'price_biz_y',
  PANYA_PRICE_BUSINESS_RESOLUTIONS: 'price_biz_res',
  PANYA_PRICE_GROWTH_BASE: 'price_growth',
  PANYA_PRICE_GROWTH_RESOLUTIONS: 'price_growth_res',
  PANYA_PRICE_GROWTH_API_QUERIES: 'price_growth_api',
  PANYA_PRICE_ENTERPRISE_BASE_ANNUAL: 'price_ent_y',
  PANYA_METER_RESOLUTIONS: 'svc_resolutions',
  PANYA_METER_API_QUERIES: 'svc_api_queries',
});

let fake: FakeStripe;
let config: StripeConfig;

beforeAll(async () => {
  fake = await startFakeStripe({ secretKey: SECRET });
  for (const [id, interval, usageType] of [
    ['price_team', 'month', 'licensed'],
    ['price_team_y', 'year', 'licensed'],
    ['price_team_res', 'month', 'metered'],
    ['price_team_api', 'month', 'metered'],
    ['price_team_seats', 'month', 'metered'],
    ['price_biz', 'month', 'licensed'],
    ['price_biz_y', 'year', 'licensed'],
    ['price_biz_res', 'month', 'metered'],
    ['price_growth', 'month', 'licensed'],
    ['price_growth_res', 'month', 'metered'],
    ['price_growth_api', 'month', 'metered'],
    ['price_ent_y', 'year', 'licensed'],
  ] as const) fake.prices.set(id, { interval, usageType });
  config = stripeConfigFromEnv(env(fake.url))!;
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.checkoutSessions.length = 0;
  fake.meterEvents.length = 0;
  fake.requests.length = 0;
});

describe('configuration', () => {
  it('reads price ids per tier and meter names', () => {
    expect(config.catalog).toEqual({
      tiers: {
        team: { base: 'price_team', baseAnnual: 'price_team_y', resolutions: 'price_team_res', apiQueries: 'price_team_api' },
        business: { base: 'price_biz', baseAnnual: 'price_biz_y', resolutions: 'price_biz_res' },
        growth: { base: 'price_growth', resolutions: 'price_growth_res', apiQueries: 'price_growth_api' },
        enterprise: { baseAnnual: 'price_ent_y' },
      },
      teamSeats: 'price_team_seats',
    });
    expect(config.meterEventNames).toEqual({ svc_resolutions: 'svc_resolutions', svc_api_queries: 'svc_api_queries' });
    expect(config.apiUrl?.port).toBe(new URL(fake.url).port);
  });

  it('is off when no billing variable is set', () => {
    expect(stripeConfigFromEnv({ PANYA_BASE_URL: 'http://x' })).toBeNull();
  });

  it.each([
    [{ PANYA_PRICE_TEAM_BASE: 'price_x' }, 'PANYA_STRIPE_SECRET_KEY: required when PANYA_PRICE_TEAM_BASE is set'],
    [{ PANYA_STRIPE_SECRET_KEY: 'pk_test_1' }, 'PANYA_STRIPE_SECRET_KEY: expected a Stripe secret'],
    [{ PANYA_STRIPE_SECRET_KEY: SECRET }, 'PANYA_STRIPE_WEBHOOK_SECRET: required'],
    [{ PANYA_STRIPE_SECRET_KEY: SECRET, PANYA_STRIPE_WEBHOOK_SECRET: 'secret' }, 'PANYA_STRIPE_WEBHOOK_SECRET: expected a webhook signing secret'],
    [{ PANYA_STRIPE_SECRET_KEY: SECRET, PANYA_STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, PANYA_STRIPE_API_URL: 'localhost:12111' }, 'PANYA_STRIPE_API_URL: must be http:// or https://'],
    [{ PANYA_STRIPE_SECRET_KEY: SECRET, PANYA_STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, PANYA_STRIPE_API_URL: 'http://x/v1' }, 'PANYA_STRIPE_API_URL: give the host only'],
    [{ PANYA_STRIPE_SECRET_KEY: SECRET, PANYA_STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, PANYA_PRICE_GROWTH_BASE: 'prod_123' }, 'PANYA_PRICE_GROWTH_BASE: expected a Stripe price id'],
    [{ PANYA_STRIPE_SECRET_KEY: SECRET, PANYA_STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, PANYA_PRICE_BUSINES_BASE: 'price_1' }, 'PANYA_PRICE_BUSINES_BASE: not a known setting'],
    [{ PANYA_STRIPE_SECRET_KEY: SECRET, PANYA_STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, PANYA_METER_SEATS: 'seat add-on' }, 'PANYA_METER_SEATS: not a meter event name'],
  ])('refuses %j naming the variable', (vars, message) => {
    expect(() => stripeConfigFromEnv(vars)).toThrow(message);
  });
});

describe('checkout sessions through the Stripe SDK', () => {
  const cases: [PlanId, 'month' | 'year', unknown[]][] = [
    ['team', 'month', [{ price: 'price_team', quantity: '1' }, { price: 'price_team_res' }, { price: 'price_team_api' }, { price: 'price_team_seats' }]],
    ['team', 'year', [{ price: 'price_team_y', quantity: '1' }, { price: 'price_team_res' }, { price: 'price_team_api' }, { price: 'price_team_seats' }]],
    ['business', 'month', [{ price: 'price_biz', quantity: '1' }, { price: 'price_biz_res' }]],
    ['business', 'year', [{ price: 'price_biz_y', quantity: '1' }, { price: 'price_biz_res' }]],
    ['growth', 'month', [{ price: 'price_growth', quantity: '1' }, { price: 'price_growth_res' }, { price: 'price_growth_api' }]],
    ['enterprise', 'year', [{ price: 'price_ent_y', quantity: '1' }]],
  ];
  it.each(cases)('%s/%s: Stripe receives exactly the rule lines and accepts them', async (plan, interval, expected) => {
    const processor = createStripePaymentProcessor(config);
    const lines = checkoutLines(plan, interval, config.catalog)._unsafeUnwrap();
    const session = await processor.createCheckoutSession({ tenantId: 'ten_1', plan, interval, customerId: 'cus_1', lines, successUrl: 'https://app.example/ok', cancelUrl: 'https://app.example/no' });
    expect(session.url).toBe(`https://checkout.stripe.com/c/pay/${session.id}`);
    const sent = fake.checkoutSessions.at(-1)!;
    expect(sent.line_items).toEqual(expected);
    expect(sent).toMatchObject({ mode: 'subscription', customer: 'cus_1', client_reference_id: 'ten_1', metadata: { tenantId: 'ten_1', plan, interval }, subscription_data: { metadata: { tenantId: 'ten_1' } } });
  });

  it('Stripe refuses a quantity on a metered line, in its error envelope', async () => {
    const processor = createStripePaymentProcessor(config);
    const attempt = processor.createCheckoutSession({ tenantId: 'ten_1', plan: 'team', interval: 'month', customerId: null, lines: [{ price: 'price_team', quantity: 1 }, { price: 'price_team_res', quantity: 0 }], successUrl: 'https://a/ok', cancelUrl: 'https://a/no' });
    await expect(attempt).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    await expect(attempt).rejects.toMatchObject({ param: 'line_items[1][quantity]', message: expect.stringContaining('usage_type is `metered`') });
    expect(fake.checkoutSessions).toHaveLength(0);
  });

  it('a wrong secret key is an authentication error', async () => {
    const processor = createStripePaymentProcessor({ ...config, secretKey: 'sk_test_wrong' });
    await expect(processor.getSubscriptionStatus('cus_1')).rejects.toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
  });
});

describe('billing meter events', () => {
  const event = (identifier: string, value = 12) => ({ eventName: 'svc_resolutions', customerId: 'cus_1', value, timestamp: new Date('2026-10-31T23:59:59Z'), identifier });

  it('sends the period total as payload.value with the customer id and identifier', async () => {
    await createStripePaymentProcessor(config).sendMeterEvent(event('ten_1:2026-10:svc_resolutions', 250));
    expect(fake.meterEvents).toEqual([{ identifier: 'ten_1:2026-10:svc_resolutions', event_name: 'svc_resolutions', payload: { stripe_customer_id: 'cus_1', value: '250' }, timestamp: Date.parse('2026-10-31T23:59:59Z') / 1000 }]);
  });

  it('sending an identifier again bills once (Stripe refuses the duplicate; it counts as delivered)', async () => {
    const processor = createStripePaymentProcessor(config);
    await processor.sendMeterEvent(event('ten_1:2026-10:svc_api_queries'));
    // A fresh client: no idempotency-key cache on our side, only Stripe's identifier check.
    await createStripePaymentProcessor(config, createStripeClient(config)).sendMeterEvent(event('ten_1:2026-10:svc_api_queries'));
    expect(fake.meterEvents).toHaveLength(1);
    const duplicate = createStripeClient(config).billing.meterEvents.create({ event_name: 'svc_api_queries', identifier: 'ten_1:2026-10:svc_api_queries', payload: { stripe_customer_id: 'cus_1', value: '1' } });
    await expect(duplicate).rejects.toMatchObject({ type: 'StripeInvalidRequestError', message: 'An event already exists with identifier ten_1:2026-10:svc_api_queries.' });
  });

  it('a lost response is retried with the same Idempotency-Key and replayed, not sent twice', async () => {
    fake.dropResponses('/v1/billing/meter_events', 1);
    await createStripePaymentProcessor(config).sendMeterEvent(event('ten_2:2026-10:svc_resolutions'));
    const posts = fake.requests.filter((r) => r.path === '/v1/billing/meter_events');
    expect(posts).toHaveLength(2);
    expect(posts[0]!.idempotencyKey).toBe('meter:ten_2:2026-10:svc_resolutions');
    expect(posts[1]!.idempotencyKey).toBe(posts[0]!.idempotencyKey);
    expect(fake.meterEvents).toHaveLength(1);
  });

  it('reuse of an Idempotency-Key with other parameters is an idempotency error', async () => {
    const stripe = createStripeClient(config);
    await stripe.billing.meterEvents.create({ event_name: 'svc_resolutions', identifier: 'a', payload: { stripe_customer_id: 'cus_1', value: '1' } }, { idempotencyKey: 'k1' });
    await expect(stripe.billing.meterEvents.create({ event_name: 'svc_resolutions', identifier: 'b', payload: { stripe_customer_id: 'cus_1', value: '1' } }, { idempotencyKey: 'k1' })).rejects.toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });
});

describe('subscriptions and webhooks', () => {
  it('reads the newest subscription status; none → null', async () => {
    const processor = createStripePaymentProcessor(config);
    expect(await processor.getSubscriptionStatus('cus_none')).toBeNull();
    fake.addSubscription({ customer: 'cus_s', status: 'active', metadata: {}, items: [{ price: 'price_team', currentPeriodEnd: 1 }], created: 100 });
    fake.addSubscription({ customer: 'cus_s', status: 'canceled', metadata: {}, items: [{ price: 'price_team', currentPeriodEnd: 1 }], created: 200 });
    expect(await processor.getSubscriptionStatus('cus_s')).toBe('canceled');
  });

  const subscriptionEvent = (type: string) => ({
    id: 'evt_1',
    object: 'event',
    type,
    created: 1_790_000_000,
    data: {
      object: {
        id: 'sub_1',
        object: 'subscription',
        customer: 'cus_9',
        status: 'active',
        metadata: { tenantId: 'ten_9', plan: 'business', interval: 'year' },
        items: { object: 'list', data: [{ id: 'si_1', current_period_end: 1_820_000_000, price: { id: 'price_biz_y', recurring: { interval: 'year', usage_type: 'licensed' } } }, { id: 'si_2', current_period_end: 1_820_000_000, price: { id: 'price_biz_res', recurring: { interval: 'month', usage_type: 'metered' } } }] },
      },
    },
  });

  it('verifies the signature with the SDK and translates a subscription event', async () => {
    const processor = createStripePaymentProcessor(config);
    const payload = JSON.stringify(subscriptionEvent('customer.subscription.updated'));
    const header = await createStripeClient(config).webhooks.generateTestHeaderStringAsync({ payload, secret: WEBHOOK_SECRET });
    expect(await processor.parseWebhook(payload, header)).toEqual({
      id: 'evt_1',
      kind: 'subscription',
      tenantId: 'ten_9',
      customerId: 'cus_9',
      subscriptionId: 'sub_1',
      status: 'active',
      priceIds: ['price_biz_y', 'price_biz_res'],
      interval: 'year',
      currentPeriodEnd: 1_820_000_000,
      createdAt: 1_790_000_000,
    });
  });

  it('refuses a wrong signature and a tampered body', async () => {
    const processor = createStripePaymentProcessor(config);
    const payload = JSON.stringify(subscriptionEvent('customer.subscription.deleted'));
    const wrong = await createStripeClient(config).webhooks.generateTestHeaderStringAsync({ payload, secret: 'whsec_other' });
    await expect(processor.parseWebhook(payload, wrong)).rejects.toBeInstanceOf(Stripe.errors.StripeSignatureVerificationError);
    const right = await createStripeClient(config).webhooks.generateTestHeaderStringAsync({ payload, secret: WEBHOOK_SECRET });
    await expect(processor.parseWebhook(payload.replace('cus_9', 'cus_8'), right)).rejects.toBeInstanceOf(Stripe.errors.StripeSignatureVerificationError);
  });

  it('other event types are acknowledged and ignored', async () => {
    const processor = createStripePaymentProcessor(config);
    const payload = JSON.stringify({ id: 'evt_2', object: 'event', type: 'invoice.paid', data: { object: {} } });
    const header = await createStripeClient(config).webhooks.generateTestHeaderStringAsync({ payload, secret: WEBHOOK_SECRET });
    expect(await processor.parseWebhook(Buffer.from(payload), header)).toEqual({ id: 'evt_2', kind: 'ignored', type: 'invoice.paid' });
  });
});
