import type { BillingStore, MeterOutboxRecord, TenantBillingRecord } from '@panya/core';
import { iso, isoOrNull, type Conn, type Names, type Row } from './database.js';

const toBilling = (r: Row): TenantBillingRecord => ({
  tenantId: r.tenant_id as string,
  subscriptionId: (r.subscription_id as string | null) ?? null,
  subscriptionStatus: (r.subscription_status as TenantBillingRecord['subscriptionStatus']) ?? null,
  interval: (r.billing_interval as TenantBillingRecord['interval']) ?? null,
  lockedRates: (r.locked_rates as TenantBillingRecord['lockedRates']) ?? null,
  lockedUntil: isoOrNull(r.locked_until),
  addonSeats: Number(r.addon_seats),
  updatedAt: iso(r.updated_at),
});

const toOutbox = (r: Row): MeterOutboxRecord => ({
  identifier: r.identifier as string,
  tenantId: r.tenant_id as string,
  period: r.period as string,
  meter: r.meter as MeterOutboxRecord['meter'],
  eventName: r.event_name as string,
  customerId: r.customer_id as string,
  value: Number(r.value),
  createdAt: iso(r.created_at),
  sentAt: isoOrNull(r.sent_at),
});

export class PgBilling implements BillingStore {
  constructor(private readonly db: Conn, private readonly n: Names) {}

  async getTenantBilling(tenantId: string) {
    const { rows } = await this.db.query(`SELECT * FROM ${this.n.t('tenant_billing')} WHERE tenant_id = $1`, [tenantId]);
    return rows[0] ? toBilling(rows[0]) : null;
  }

  async putTenantBilling(b: TenantBillingRecord) {
    await this.db.query(
      `INSERT INTO ${this.n.t('tenant_billing')} (tenant_id, subscription_id, subscription_status, billing_interval, locked_rates, locked_until, addon_seats, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (tenant_id) DO UPDATE SET subscription_id = excluded.subscription_id, subscription_status = excluded.subscription_status,
         billing_interval = excluded.billing_interval, locked_rates = excluded.locked_rates, locked_until = excluded.locked_until,
         addon_seats = excluded.addon_seats, updated_at = excluded.updated_at`,
      [b.tenantId, b.subscriptionId, b.subscriptionStatus, b.interval, b.lockedRates ? JSON.stringify(b.lockedRates) : null, b.lockedUntil, b.addonSeats, b.updatedAt],
    );
  }

  async enqueueMeterEvents(rows: readonly MeterOutboxRecord[]) {
    if (rows.length === 0) return;
    const values: unknown[] = [];
    const tuples = rows.map((r, i) => {
      values.push(r.identifier, r.tenantId, r.period, r.meter, r.eventName, r.customerId, r.value, r.createdAt, r.sentAt);
      return `(${Array.from({ length: 9 }, (_, j) => `$${i * 9 + j + 1}`).join(', ')})`;
    });
    await this.db.query(
      `INSERT INTO ${this.n.t('meter_event_outbox')} (identifier, tenant_id, period, meter, event_name, customer_id, value, created_at, sent_at)
       VALUES ${tuples.join(', ')} ON CONFLICT (identifier) DO NOTHING`,
      values,
    );
  }

  async pendingMeterEvents(options: { tenantId?: string; limit: number }) {
    const { rows } = options.tenantId
      ? await this.db.query(`SELECT * FROM ${this.n.t('meter_event_outbox')} WHERE sent_at IS NULL AND tenant_id = $1 ORDER BY created_at, identifier LIMIT $2`, [options.tenantId, options.limit])
      : await this.db.query(`SELECT * FROM ${this.n.t('meter_event_outbox')} WHERE sent_at IS NULL ORDER BY created_at, identifier LIMIT $1`, [options.limit]);
    return rows.map(toOutbox);
  }

  async markMeterEventSent(identifier: string, at: string) {
    await this.db.query(`UPDATE ${this.n.t('meter_event_outbox')} SET sent_at = $1 WHERE identifier = $2 AND sent_at IS NULL`, [at, identifier]);
  }

  async listMeterEvents(tenantId: string, period?: string) {
    const { rows } = period
      ? await this.db.query(`SELECT * FROM ${this.n.t('meter_event_outbox')} WHERE tenant_id = $1 AND period = $2 ORDER BY identifier`, [tenantId, period])
      : await this.db.query(`SELECT * FROM ${this.n.t('meter_event_outbox')} WHERE tenant_id = $1 ORDER BY identifier`, [tenantId]);
    return rows.map(toOutbox);
  }

  async recordWebhookEvent(id: string, at: string) {
    const { rowCount } = await this.db.query(`INSERT INTO ${this.n.t('billing_webhook_events')} (id, received_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING`, [id, at]);
    return rowCount === 1;
  }
}
