import type { BillingStore, MeterOutboxRecord, TenantBillingRecord } from '@panya/core';
import { tables } from '@panya/core/rows';
import type { Runner, Statements } from './database.js';
import { Table } from './rows.js';

export class SqliteBilling implements BillingStore {
  private readonly billing: Table<TenantBillingRecord>;
  private readonly outbox: Table<MeterOutboxRecord>;

  constructor(private readonly sql: Statements, private readonly run: Runner) {
    this.billing = new Table(sql, tables.TENANT_BILLING);
    this.outbox = new Table(sql, tables.METER_OUTBOX);
  }

  getTenantBilling(tenantId: string) {
    return this.run(() => this.billing.one('SELECT * FROM tenant_billing WHERE tenant_id = ?', tenantId));
  }

  putTenantBilling(b: TenantBillingRecord) {
    return this.run(() => void this.billing.insert(b, { on: ['tenantId'], update: true }));
  }

  enqueueMeterEvents(rows: readonly MeterOutboxRecord[]) {
    return this.run(() => {
      for (const r of rows) this.outbox.insert(r, 'ignore');
    });
  }

  pendingMeterEvents(options: { tenantId?: string; limit: number }) {
    return this.run(() =>
      options.tenantId
        ? this.outbox.all('SELECT * FROM meter_event_outbox WHERE sent_at IS NULL AND tenant_id = ? ORDER BY created_at, identifier LIMIT ?', options.tenantId, options.limit)
        : this.outbox.all('SELECT * FROM meter_event_outbox WHERE sent_at IS NULL ORDER BY created_at, identifier LIMIT ?', options.limit),
    );
  }

  markMeterEventSent(identifier: string, at: string) {
    return this.run(() => {
      this.sql.get('UPDATE meter_event_outbox SET sent_at = ? WHERE identifier = ? AND sent_at IS NULL').run(at, identifier);
    });
  }

  listMeterEvents(tenantId: string, period?: string) {
    return this.run(() =>
      period
        ? this.outbox.all('SELECT * FROM meter_event_outbox WHERE tenant_id = ? AND period = ? ORDER BY identifier', tenantId, period)
        : this.outbox.all('SELECT * FROM meter_event_outbox WHERE tenant_id = ? ORDER BY identifier', tenantId),
    );
  }

  recordWebhookEvent(id: string, at: string) {
    return this.run(() => this.sql.get('INSERT INTO billing_webhook_events (id, received_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING').run(id, at).changes === 1);
  }
}
