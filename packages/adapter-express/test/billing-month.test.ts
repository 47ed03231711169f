/**
 * A billed month end to end over HTTP: checkout and the subscription webhook on a local fake
 * Stripe (official SDK), chats and searches, thumbs-downs through the refund hook, the resolution
 * detector and the usage reporter through their cron routes, and what reaches Stripe.
 */
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, disqualifyResolution, type Engine } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { createPanyaApp } from '@panya/adapter-express';
import { createStripeClient, createStripePaymentProcessor, stripeConfigFromEnv, type StripeConfig } from '@panya/payment-stripe';
import { startFakeStripe, type FakeStripe } from '@panya/payment-stripe/testing';
import { engineInternals } from '@panya/core/testing';

const CRON = 'cron-secret-for-tests';
const WEBHOOK_SECRET = 'whsec_month';
const ARTICLES = [
  { title: 'Shipping times', contentMd: '# Shipping times\n\nOrders to Bangkok arrive within 1-2 business days.' },
  { title: 'Refunds', contentMd: '# Refunds\n\nRefunds are paid back to the original payment method within 7 business days.' },
];

let fake: FakeStripe;
let config: StripeConfig;
let engine: Engine | undefined;
beforeAll(async () => {
  fake = await startFakeStripe({ secretKey: 'sk_test_month' });
  fake.prices.set('price_team', { interval: 'month', usageType: 'licensed' });
  fake.prices.set('price_team_res', { interval: 'month', usageType: 'metered' });
  fake.prices.set('price_team_api', { interval: 'month', usageType: 'metered' });
  config = stripeConfigFromEnv({
    PANYA_STRIPE_SECRET_KEY: 'sk_test_month',
    PANYA_STRIPE_API_URL: fake.url,
    PANYA_STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    PANYA_PRICE_TEAM_BASE: 'price_team',
    PANYA_PRICE_TEAM_RESOLUTIONS: 'price_team_res',
    PANYA_PRICE_TEAM_API_QUERIES: 'price_team_api',
    PANYA_METER_RESOLUTIONS: 'svc_resolutions',
    PANYA_METER_API_QUERIES: 'svc_api_queries',
    PANYA_METER_SEATS: 'svc_seat_addon_team',
    PANYA_METER_GUIDED_FLOWS: 'svc_guided_flow',
  })!;
});
afterAll(() => fake.close());
afterEach(async () => {
  await engine?.close();
  engine = undefined;
});

async function setup() {
  let now = new Date('2026-10-05T09:00:00Z');
  const processor = createStripePaymentProcessor(config, createStripeClient(config, { maxNetworkRetries: 0 }));
  const e = createEngine({ store: openSqliteStore({ path: ':memory:' }), clock: { now: () => now }, meterEventNames: config.meterEventNames, payments: { processor, catalog: config.catalog } });
  engine = e;
  const app = createPanyaApp(e, { cronSecret: CRON });
  // Team with a small pool: 2 included resolutions (= 10 API queries) → a hard cap of 4.
  const { tenant, defaultWorkspace } = (await e.tenancy.createTenant({ slug: 'acme', plan: 'free', quotas: { includedResolutions: 2 } }))._unsafeUnwrap();
  const auth = { Authorization: `Bearer ${(await e.apiKeys.create(tenant.id, { scopes: ['read', 'write', 'admin'] }))._unsafeUnwrap().key}` };
  for (const a of ARTICLES) await request(app).post('/api/docs?wait=true').set(auth).send(a).expect(201);

  const session = await request(app).post('/api/billing').set(auth).send({ plan: 'team', interval: 'month' }).expect(200);
  const sub = fake.completeCheckout(session.body.sessionId);
  const event = fake.subscriptionEvent('customer.subscription.created', sub);
  const signature = await createStripeClient(config).webhooks.generateTestHeaderStringAsync({ payload: event, secret: WEBHOOK_SECRET });
  await request(app).post('/api/billing/webhook').set('Content-Type', 'application/json').set('Stripe-Signature', signature).send(event).expect(200);
  expect(await engineInternals(e).store.tenants.get(tenant.id)).toMatchObject({ plan: 'team', paymentCustomerId: sub.customer });

  const chat = async (query: string, status = 200) => {
    const res = await request(app).post('/api/chat').set(auth).set('Content-Type', 'application/json').send({ query }).buffer(true).parse((r, done) => {
      let text = '';
      r.on('data', (c: Buffer) => (text += c.toString()));
      r.on('end', () => done(null, text));
    });
    expect(res.status).toBe(status);
    return status === 200 ? (/"conversationId":"([^"]+)"/.exec(res.body as string)?.[1] ?? '') : '';
  };
  const cron = (job: string) => request(app).get(`/api/cron/${job}`).set('Authorization', `Bearer ${CRON}`).expect(200);
  const scope = { tenantId: tenant.id, workspaceId: defaultWorkspace.id };
  return { e, app, auth, tenant, customer: sub.customer, chat, cron, scope, at: (iso: string) => (now = new Date(iso)) };
}

const sent = () => fake.meterEvents.map((ev) => [ev.identifier.split(':').slice(1).join(':'), ev.payload.value]).sort();

describe('a billed month', () => {
  it('chats become resolutions, the hard cap counts them, the reporter sends each meter once and a later thumbs-down is credited in the next report', async () => {
    const { e, app, auth, tenant, customer, chat, cron, scope, at } = await setup();
    fake.meterEvents.length = 0;

    // October: four grounded conversations reach the hard cap of 4; the fifth chat is refused.
    const october = [];
    for (const q of ['How long does shipping to Bangkok take?', 'How long do refunds take?', 'Refund method?', 'Shipping to Bangkok?']) october.push(await chat(q));
    await chat('When do refunds arrive?', 402);
    // A thumbs-down before the detector ran: never counted, and the cap frees a slot.
    expect(await disqualifyResolution(engineInternals(e).store, scope, october[3]!, 'thumbs_down', new Date('2026-10-05T09:10:00Z'))).toBe('not_counted');
    october[3] = await chat('When do refunds arrive?');
    for (let i = 0; i < 3; i++) await request(app).post('/api/search').set(auth).send({ query: 'refunds' }).expect(200);

    // The detector (*/15) records them once the conversations have been idle 30 minutes.
    at('2026-10-05T09:20:00Z');
    expect((await cron('resolutions')).body).toMatchObject({ job: 'resolutions', written: 0 });
    at('2026-10-05T10:00:00Z');
    expect((await cron('resolutions')).body).toMatchObject({ job: 'resolutions', scanned: 4, written: 4 });
    expect((await cron('resolutions')).body).toMatchObject({ written: 0 });
    expect(await engineInternals(e).store.resolutions.count(tenant.id, '2026-10')).toBe(4);
    await chat('Refunds?', 402); // the cap counts the records

    // November 1st, 01:00: 4 resolutions − 2 included = 2; the pool is used up, so all 3 API queries are overage.
    at('2026-11-01T01:00:00Z');
    const report = await cron('usage-reporter');
    expect(report.body).toMatchObject({ scanned: 1, reported: 1, skipped: 0, outcomes: [{ tenantId: tenant.id, status: 'reported' }] });
    expect(Object.keys(report.body.outcomes[0]).sort()).toEqual(['status', 'tenantId']);
    expect(sent()).toEqual([
      ['2026-10:svc_api_queries', '3'],
      ['2026-10:svc_resolutions', '2'],
    ]);
    expect(fake.meterEvents.every((ev) => ev.payload.stripe_customer_id === customer)).toBe(true);

    // A thumbs-down on a reported October conversation: refunded, the sent events stay as they were.
    at('2026-11-02T08:00:00Z');
    expect(await disqualifyResolution(engineInternals(e).store, scope, october[0]!, 'thumbs_down', new Date('2026-11-02T08:00:00Z'))).toBe('refunded');
    expect(await engineInternals(e).store.resolutions.count(tenant.id, '2026-10')).toBe(3);
    expect((await cron('usage-reporter')).body).toMatchObject({ reported: 1 }); // October again: nothing new leaves
    expect(fake.meterEvents).toHaveLength(2);

    // November: four more resolutions (2 over), minus the October credit of 1 → 1 sent on Dec 1st.
    for (const q of ['How long does shipping to Bangkok take?', 'How long do refunds take?', 'Refund method?', 'Shipping to Bangkok?']) await chat(q);
    at('2026-12-01T01:00:00Z');
    expect((await cron('usage-reporter')).body).toMatchObject({ reported: 1, outcomes: [{ tenantId: tenant.id, status: 'reported' }] });
    expect(sent()).toEqual([
      ['2026-10:svc_api_queries', '3'],
      ['2026-10:svc_resolutions', '2'],
      ['2026-11:svc_resolutions', '1'],
    ]);
    expect(await engineInternals(e).store.resolutions.credits(tenant.id)).toEqual({});
    expect((await engineInternals(e).store.resolutions.list(tenant.id, '2026-10')).filter((r) => r.refundedAt).map((r) => r.correctedPeriod)).toEqual(['2026-11']);
  });

  it('completed guided flows are sent on svc_guided_flow, each once', async () => {
    const { app, auth, at } = await setup();
    fake.meterEvents.length = 0;
    const flow = (await request(app).post('/api/flows').set(auth).send({ name: 'Refund request', steps: [{ title: 'Draft the reply' }] }).expect(201)).body;
    for (let i = 0; i < 3; i++) {
      const run = (await request(app).post(`/api/flows/${flow.id}/runs`).set(auth).send({}).expect(201)).body;
      if (i === 2) continue; // started, never drafted: not billed
      await request(app).post(`/api/flow-runs/${run.id}/draft`).set(auth).send({ content: 'Your refund is on its way.' }).expect(200);
      await request(app).post(`/api/flow-runs/${run.id}/complete`).set(auth).expect(200);
      await request(app).post(`/api/flow-runs/${run.id}/complete`).set(auth).expect(200); // a retry
    }
    expect((await request(app).get('/api/billing/usage').set(auth).expect(200)).body.guidedFlows).toBe(2);
    at('2026-11-01T01:00:00Z');
    const report = await request(app).get('/api/cron/usage-reporter').set('Authorization', `Bearer ${CRON}`).expect(200);
    expect(report.body).toMatchObject({ reported: 1 });
    expect(sent()).toEqual([['2026-10:svc_guided_flow', '2']]);
  });

  it('a crash between sending an event and marking it sent: the next run bills nothing twice', async () => {
    const { e, tenant, chat, cron, at } = await setup();
    fake.meterEvents.length = 0;
    for (const q of ['How long does shipping to Bangkok take?', 'How long do refunds take?', 'Refund method?']) await chat(q);
    at('2026-11-01T01:00:00Z');
    const mark = engineInternals(e).store.billing.markMeterEventSent.bind(engineInternals(e).store.billing);
    engineInternals(e).store.billing.markMeterEventSent = async () => {
      throw new Error('node died after Stripe took the event');
    };
    expect((await cron('usage-reporter')).body).toMatchObject({ reported: 1, sent: 0, unsent: 1 });
    expect(fake.meterEvents).toHaveLength(1); // Stripe has it; the outbox does not know
    engineInternals(e).store.billing.markMeterEventSent = mark;
    expect((await cron('usage-reporter')).body).toMatchObject({ reported: 1, sent: 1, unsent: 0 });
    expect(sent()).toEqual([['2026-10:svc_resolutions', '1']]);
    expect((await engineInternals(e).store.billing.listMeterEvents(tenant.id)).every((r) => r.sentAt !== null)).toBe(true);
  });
});
