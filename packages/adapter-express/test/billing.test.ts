import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine, type PriceCatalog } from '@panya/core';
import { createFakePaymentProcessor, engineInternals } from '@panya/core/testing';
import { openSqliteStore } from '@panya/store-sqlite';
import { createPanyaApp } from '@panya/adapter-express';
import { makeTenant } from './helpers.js';

const catalog: PriceCatalog = {
  tiers: { team: { base: 'price_team', baseAnnual: 'price_team_y', resolutions: 'price_team_res', apiQueries: 'price_team_api' }, business: { base: 'price_biz' } },
  teamSeats: 'price_team_seats',
};
let engine: Engine;
afterEach(async () => engine?.close());

function setup(now = new Date('2026-10-20T12:00:00Z'), payments = true) {
  const processor = createFakePaymentProcessor();
  engine = createEngine({ store: openSqliteStore({ path: ':memory:' }), clock: { now: () => now }, ...(payments ? { payments: { processor, catalog, returnUrl: 'https://panya.example/' } } : {}) });
  return { app: createPanyaApp(engine), processor };
}

describe('POST /api/billing (checkout)', () => {
  it('creates a checkout session with the rule lines for the plan and interval', async () => {
    const { app, processor } = setup();
    const acme = await makeTenant(engine, 'acme', ['admin'], 'free');
    const res = await request(app).post('/api/billing').set(acme.auth).send({ plan: 'Team', interval: 'year' }).expect(200);
    expect(res.body).toEqual({ url: `https://checkout.example/${res.body.sessionId}`, sessionId: 'cs_test_1' });
    expect(processor.sessions[0]).toMatchObject({
      tenantId: acme.tenant.id,
      plan: 'team',
      interval: 'year',
      lines: [{ price: 'price_team_y', quantity: 1 }, { price: 'price_team_res' }, { price: 'price_team_api' }, { price: 'price_team_seats' }],
      successUrl: 'https://panya.example/c/acme/billing?checkout=success',
    });
  });

  it('Free has no product (422); an unknown plan or interval is 400; a read key is 403; billing off is 503', async () => {
    const { app, processor } = setup();
    const acme = await makeTenant(engine, 'acme');
    const free = await request(app).post('/api/billing').set(acme.auth).send({ plan: 'free' }).expect(422);
    expect(free.body).toMatchObject({ code: 'unprocessable', errors: [{ path: 'plan' }] });
    await request(app).post('/api/billing').set(acme.auth).send({ plan: 'platinum' }).expect(400);
    await request(app).post('/api/billing').set(acme.auth).send({ plan: 'team', interval: 'week' }).expect(400);
    const reader = await makeTenant(engine, 'reader', ['read']);
    await request(app).post('/api/billing').set(reader.auth).send({ plan: 'team' }).expect(403);
    expect(processor.sessions).toHaveLength(0);
  });

  it('answers 503 when no payment processor is configured', async () => {
    const { app } = setup(undefined, false);
    const acme = await makeTenant(engine, 'acme');
    await request(app).post('/api/billing').set(acme.auth).send({ plan: 'team' }).expect(503);
  });
});

describe('POST /api/billing/seat-addon', () => {
  it('Team: 6–10 seats → 1–5 add-on seats at 800 THB; out of bounds 400; other plans 403 plan_required', async () => {
    const { app } = setup();
    const team = await makeTenant(engine, 'team', ['admin'], 'team');
    expect((await request(app).post('/api/billing/seat-addon').set(team.auth).send({ seats: 8 }).expect(200)).body).toEqual({ seats: 8, addonSeats: 3, monthlySatang: 240_000 });
    expect((await engineInternals(engine).store.billing.getTenantBilling(team.tenant.id))?.addonSeats).toBe(3);
    await request(app).post('/api/billing/seat-addon').set(team.auth).send({ seats: 11 }).expect(400);
    expect((await engineInternals(engine).store.billing.getTenantBilling(team.tenant.id))?.addonSeats).toBe(3);
    const biz = await makeTenant(engine, 'biz');
    const refused = await request(app).post('/api/billing/seat-addon').set(biz.auth).send({ seats: 6 }).expect(403);
    expect(refused.body).toMatchObject({ code: 'plan_required', plan: 'team' });
  });
});

describe('GET /api/billing/usage', () => {
  it('shows resolutions, API queries, included amounts, overage and the projected charge in satang', async () => {
    const { app } = setup();
    const team = await makeTenant(engine, 'team', ['admin'], 'team');
    await engineInternals(engine).store.tenants.update(team.tenant.id, { quotas: { includedResolutions: 2 } }); // 2 included resolutions = 10 API queries
    for (let i = 0; i < 3; i++) {
      await engineInternals(engine).store.conversations.insert({ id: `conv_${i}`, tenantId: team.tenant.id, workspaceId: team.defaultWorkspace.id, locale: 'en', hasGroundedAnswer: true, hasThumbsDown: i === 2, handedOff: false, createdAt: '2026-10-10T00:00:00.000Z', lastMessageAt: '2026-10-10T00:00:00.000Z' });
    }
    for (let i = 0; i < 7; i++) {
      await engineInternals(engine).store.usage.recordQuery({ id: `evt_${i}`, tenantId: team.tenant.id, workspaceId: team.defaultWorkspace.id, keyId: null, kind: 'search', tool: null, billingPeriod: '2026-10', createdAt: '2026-10-11T00:00:00.000Z' });
    }
    const res = await request(app).get('/api/billing/usage?period=2026-10').set(team.auth).expect(200);
    // 2 resolutions (one thumbs-down) use the pool of 2; all 7 API queries are over, at 0.80 THB.
    expect(res.body).toMatchObject({
      period: '2026-10',
      currency: 'THB',
      resolutions: 2,
      apiQueries: 7,
      resolutionEquivalents: 3.4,
      included: { resolutions: 2 },
      overage: { resolutions: 0, apiQueries: 7 },
      charges: { baseSatang: 390_000, apiQueryOverageSatang: 560 },
      projectedSatang: 390_560,
    });
    await request(app).get('/api/billing/usage?period=2026-13').set(team.auth).expect(400);
    const empty = await request(app).get('/api/billing/usage').set(team.auth).expect(200);
    expect(empty.body).toMatchObject({ period: '2026-10', billingConfigured: true });
  });

  it('without a payment processor: usage only, no projected charge, and a notice that billing is not configured', async () => {
    const { app } = setup(new Date('2026-10-20T12:00:00Z'), false);
    const team = await makeTenant(engine, 'team', ['admin'], 'team');
    await engineInternals(engine).store.usage.recordQuery({ id: 'evt_1', tenantId: team.tenant.id, workspaceId: team.defaultWorkspace.id, keyId: null, kind: 'search', tool: null, billingPeriod: '2026-10', createdAt: '2026-10-11T00:00:00.000Z' });
    const res = await request(app).get('/api/billing/usage').set(team.auth).expect(200);
    expect(res.body).toMatchObject({ period: '2026-10', billingConfigured: false, apiQueries: 1, projectedSatang: null, charges: null });
    expect(res.body.notice).toMatch(/^Billing is not configured on this server/);
    // Checkout answers the same in the caller's language.
    const checkout = await request(app).post('/api/billing').set({ ...team.auth, 'Accept-Language': 'th' }).send({ plan: 'business' }).expect(503);
    expect(checkout.body.detail).toMatch(/^เซิร์ฟเวอร์นี้ยังไม่ได้ตั้งค่าการเรียกเก็บเงิน/);
  });

  it('uses the locked annual rates', async () => {
    const { app } = setup();
    const team = await makeTenant(engine, 'team', ['admin'], 'team');
    await engineInternals(engine).store.tenants.update(team.tenant.id, { quotas: { includedResolutions: 0 } });
    await engineInternals(engine).store.billing.putTenantBilling({ tenantId: team.tenant.id, subscriptionId: 'sub_1', subscriptionStatus: 'active', interval: 'year', lockedRates: { resolutionSatang: 350, apiQuerySatang: 70 }, lockedUntil: '2027-06-01T00:00:00.000Z', addonSeats: 0, updatedAt: '2026-06-01T00:00:00.000Z' });
    await engineInternals(engine).store.usage.recordQuery({ id: 'evt_1', tenantId: team.tenant.id, workspaceId: team.defaultWorkspace.id, keyId: null, kind: 'answer', tool: null, billingPeriod: '2026-10', createdAt: '2026-10-11T00:00:00.000Z' });
    const res = await request(app).get('/api/billing/usage?period=2026-10').set(team.auth).expect(200);
    expect(res.body).toMatchObject({ rates: { resolutionSatang: 350, apiQuerySatang: 70, locked: true }, charges: { apiQueryOverageSatang: 70 } });
  });
});
