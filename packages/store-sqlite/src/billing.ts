import type { BillingStore, MeterOutboxRecord, TenantBillingRecord } from '@panya/core';
import type { Runner, Statements } from './database.js';

type Row = Record<string, unknown>;

const toBilling = (r: Row): TenantBillingRecord => ({
  tenantId: r.tenant_id as string,
  subscriptionId: (r.subscription_id as string | null) ?? null,
  subscriptionStatus: (r.subscription_status as TenantBillingRecord['subscriptionStatus']) ?? null,
  interval: (r.billing_interval as TenantBillingRecord['interval']) ?? null,
  lockedRates: r.locked_rates ? JSON.parse(r.locked_rates as string) : null,
  lockedUntil: (r.locked_until as string | null) ?? null,
  addonSeats: Number(r.addon_seats),
  updatedAt: r.updated_at as string,
});

const toOutbox = (r: Row): MeterOutboxRecord => ({
  identifier: r.identifier as string,
  tenantId: r.tenant_id as string,
  period: r.period as string,
  meter: r.meter as MeterOutboxRecord['meter'],
  eventName: r.event_name as string,
  customerId: r.customer_id as string,
  value: Number(r.value),
  createdAt: r.created_at as string,
  sentAt: (r.sent_at as string | null) ?? null,
});

export class SqliteBilling implements BillingStore {
  constructor(private readonly sql: Statements, private readonly run: Runner) {}

  getTenantBilling(tenantId: string) {
    return this.run(() => {
      const row = this.sql.get('SELECT * FROM tenant_billing WHERE tenant_id = ?').get(tenantId) as Row | undefined;
      return row ? toBilling(row) : null;
    });
  }

  putTenantBilling(b: TenantBillingRecord) {
    return this.run(() => {
      this.sql
        .get(
          `INSERT INTO tenant_billing (tenant_id, subscription_id, subscription_status, billing_interval, locked_rates, locked_until, addon_seats, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (tenant_id) DO UPDATE SET subscription_id = excluded.subscription_id, subscription_status = excluded.subscription_status,
             billing_interval = excluded.billing_interval, locked_rates = excluded.locked_rates, locked_until = excluded.locked_until,
             addon_seats = excluded.addon_seats, updated_at = excluded.updated_at`,
        )
        .run(b.tenantId, b.subscriptionId, b.subscriptionStatus, b.interval, b.lockedRates ? JSON.stringify(b.lockedRates) : null, b.lockedUntil, b.addonSeats, b.updatedAt);
    });
  }

  enqueueMeterEvents(rows: readonly MeterOutboxRecord[]) {
    return this.run(() => {
      const insert = this.sql.get(
        `INSERT INTO meter_event_outbox (identifier, tenant_id, period, meter, event_name, customer_id, value, created_at, sent_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (identifier) DO NOTHING`,
      );
      for (const r of rows) insert.run(r.identifier, r.tenantId, r.period, r.meter, r.eventName, r.customerId, r.value, r.createdAt, r.sentAt);
    });
  }

  pendingMeterEvents(options: { tenantId?: string; limit: number }) {
    return this.run(() => {
      const rows = options.tenantId
        ? this.sql.get('SELECT * FROM meter_event_outbox WHERE sent_at IS NULL AND tenant_id = ? ORDER BY created_at, identifier LIMIT ?').all(options.tenantId, options.limit)
        : this.sql.get('SELECT * FROM meter_event_outbox WHERE sent_at IS NULL ORDER BY created_at, identifier LIMIT ?').all(options.limit);
      return (rows as Row[]).map(toOutbox);
    });
  }

  markMeterEventSent(identifier: string, at: string) {
    return this.run(() => {
      this.sql.get('UPDATE meter_event_outbox SET sent_at = ? WHERE identifier = ? AND sent_at IS NULL').run(at, identifier);
    });
  }

  listMeterEvents(tenantId: string, period?: string) {
    return this.run(() => {
      const rows = period
        ? this.sql.get('SELECT * FROM meter_event_outbox WHERE tenant_id = ? AND period = ? ORDER BY identifier').all(tenantId, period)
        : this.sql.get('SELECT * FROM meter_event_outbox WHERE tenant_id = ? ORDER BY identifier').all(tenantId);
      return (rows as Row[]).map(toOutbox);
    });
  }

  recordWebhookEvent(id: string, at: string) {
    return this.run(() => this.sql.get('INSERT INTO billing_webhook_events (id, received_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING').run(id, at).changes === 1);
  }
}
