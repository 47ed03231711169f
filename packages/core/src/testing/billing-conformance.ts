/** Billing state and the meter-event outbox: behaviour every store shares. */
import { describe, expect, it } from 'vitest';
import type { MeterOutboxRecord, TenantBillingRecord } from '../billing/ports/billing.js';
import type { Store } from '../ports/store.js';
import { seedTwoTenants } from './fixtures.js';

const row = (tenantId: string, meter: MeterOutboxRecord['meter'], value: number, overrides: Partial<MeterOutboxRecord> = {}): MeterOutboxRecord => ({
  identifier: `${tenantId}:2026-10:${meter}`,
  tenantId,
  period: '2026-10',
  meter,
  eventName: meter,
  customerId: 'cus_1',
  value,
  occurredAt: null,
  createdAt: '2026-11-01T01:00:00.000Z',
  sentAt: null,
  ...overrides,
});

export function billingSuite(getStore: () => Store): void {
  describe('billing state and meter-event outbox', () => {
    it('keeps a tenant’s billing state, replaced as a whole', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      expect(await store.billing.getTenantBilling(s.a.id)).toBeNull();
      const state: TenantBillingRecord = {
        tenantId: s.a.id,
        subscriptionId: 'sub_1',
        subscriptionStatus: 'active',
        interval: 'year',
        lockedRates: { resolutionSatang: 400, apiQuerySatang: 80 },
        lockedUntil: '2027-10-01T00:00:00.000Z',
        addonSeats: 2,
        planHistory: [{ at: '2026-09-15T10:00:00.000Z', from: 'free', to: 'team' }],
        subscriptionEventAt: '2026-09-15T10:00:00.000Z',
        updatedAt: '2026-10-01T00:00:00.000Z',
      };
      await store.billing.putTenantBilling(state);
      expect(await store.billing.getTenantBilling(s.a.id)).toEqual(state);
      const cancelled = { ...state, subscriptionStatus: 'canceled' as const, lockedRates: null, lockedUntil: null, addonSeats: 0, updatedAt: '2026-10-02T00:00:00.000Z' };
      await store.billing.putTenantBilling(cancelled);
      expect(await store.billing.getTenantBilling(s.a.id)).toEqual(cancelled);
      expect(await store.billing.getTenantBilling(s.b.id)).toBeNull();
    });

    it('an outbox row is written once: a later enqueue keeps the first value', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      await store.billing.enqueueMeterEvents([row(s.a.id, 'svc_resolutions', 10), row(s.a.id, 'svc_api_queries', 3)]);
      await store.billing.enqueueMeterEvents([row(s.a.id, 'svc_resolutions', 99)]);
      expect((await store.billing.listMeterEvents(s.a.id, '2026-10')).map((r) => [r.meter, r.value])).toEqual([
        ['svc_api_queries', 3],
        ['svc_resolutions', 10],
      ]);
      expect(await store.billing.listMeterEvents(s.b.id)).toEqual([]);
    });

    it('a period billed in parts keeps one row per part of the same meter, each with its instant', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const first = row(s.a.id, 'svc_resolutions', 77, { identifier: `${s.a.id}:2026-10:svc_resolutions:1`, occurredAt: '2026-10-10T23:59:59.000Z' });
      await store.billing.enqueueMeterEvents([first, row(s.a.id, 'svc_resolutions', 87)]);
      expect((await store.billing.listMeterEvents(s.a.id, '2026-10')).map((r) => [r.identifier, r.value, r.occurredAt])).toEqual([
        [`${s.a.id}:2026-10:svc_resolutions`, 87, null],
        [first.identifier, 77, '2026-10-10T23:59:59.000Z'],
      ]);
    });

    it('pending rows leave the queue once marked sent, per tenant or for all', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const a = row(s.a.id, 'svc_resolutions', 10);
      const b = row(s.b.id, 'svc_guided_flow', 2, { createdAt: '2026-11-01T01:00:01.000Z' });
      await store.billing.enqueueMeterEvents([a, b]);
      expect((await store.billing.pendingMeterEvents({ limit: 10 })).map((r) => r.identifier)).toEqual([a.identifier, b.identifier]);
      expect((await store.billing.pendingMeterEvents({ tenantId: s.b.id, limit: 10 })).map((r) => r.identifier)).toEqual([b.identifier]);
      await store.billing.markMeterEventSent(a.identifier, '2026-11-01T01:00:05.000Z');
      await store.billing.markMeterEventSent(a.identifier, '2026-11-02T00:00:00.000Z');
      expect((await store.billing.pendingMeterEvents({ limit: 10 })).map((r) => r.identifier)).toEqual([b.identifier]);
      expect((await store.billing.listMeterEvents(s.a.id))[0]).toEqual({ ...a, sentAt: '2026-11-01T01:00:05.000Z' });
    });

    it('records a webhook event once', async () => {
      const store = getStore();
      expect(await store.billing.recordWebhookEvent('evt_1', '2026-10-01T00:00:00.000Z')).toBe(true);
      expect(await store.billing.recordWebhookEvent('evt_1', '2026-10-01T00:00:01.000Z')).toBe(false);
      expect(await store.billing.recordWebhookEvent('evt_2', '2026-10-01T00:00:01.000Z')).toBe(true);
    });
  });
}
