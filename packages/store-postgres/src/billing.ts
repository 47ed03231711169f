import type { BillingStore, MeterOutboxRecord, TenantBillingRecord } from '@panya/core';
import { tables } from '@panya/core/rows';
import type { Conn, Names } from './database.js';
import { Table } from './rows.js';

export class PgBilling implements BillingStore {
  private readonly billing: Table<TenantBillingRecord>;
  private readonly outbox: Table<MeterOutboxRecord>;

  constructor(private readonly db: Conn, private readonly n: Names) {
    this.billing = new Table(db, n, tables.TENANT_BILLING);
    this.outbox = new Table(db, n, tables.METER_OUTBOX);
  }

  getTenantBilling(tenantId: string) {
    return this.billing.one(`SELECT * FROM ${this.billing.name} WHERE tenant_id = $1`, [tenantId]);
  }

  async putTenantBilling(b: TenantBillingRecord) {
    await this.billing.insert(b, { on: ['tenantId'], update: true });
  }

  async enqueueMeterEvents(rows: readonly MeterOutboxRecord[]) {
    await this.outbox.insertMany(rows, 'ignore');
  }

  pendingMeterEvents(options: { tenantId?: string; limit: number }) {
    return options.tenantId
      ? this.outbox.all(`SELECT * FROM ${this.outbox.name} WHERE sent_at IS NULL AND tenant_id = $1 ORDER BY created_at, identifier LIMIT $2`, [options.tenantId, options.limit])
      : this.outbox.all(`SELECT * FROM ${this.outbox.name} WHERE sent_at IS NULL ORDER BY created_at, identifier LIMIT $1`, [options.limit]);
  }

  async markMeterEventSent(identifier: string, at: string) {
    await this.db.query(`UPDATE ${this.n.t('meter_event_outbox')} SET sent_at = $1 WHERE identifier = $2 AND sent_at IS NULL`, [at, identifier]);
  }

  listMeterEvents(tenantId: string, period?: string) {
    return period
      ? this.outbox.all(`SELECT * FROM ${this.outbox.name} WHERE tenant_id = $1 AND period = $2 ORDER BY identifier`, [tenantId, period])
      : this.outbox.all(`SELECT * FROM ${this.outbox.name} WHERE tenant_id = $1 ORDER BY identifier`, [tenantId]);
  }

  async recordWebhookEvent(id: string, at: string) {
    const { rowCount } = await this.db.query(`INSERT INTO ${this.n.t('billing_webhook_events')} (id, received_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING`, [id, at]);
    return rowCount === 1;
  }
}
