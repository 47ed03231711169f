import type { BillingStore, MeterOutboxRecord, TenantBillingRecord } from '../../billing/ports/billing.js';
import type { SqlDriver } from '../driver.js';
import { sql } from '../sql.js';
import { SqlTable } from '../table.js';
import { METER_OUTBOX, TENANT_BILLING } from '../tables.js';

export class SqlBilling implements BillingStore {
  private readonly billing: SqlTable<TenantBillingRecord>;
  private readonly outbox: SqlTable<MeterOutboxRecord>;

  constructor(private readonly driver: SqlDriver) {
    this.billing = new SqlTable(driver, TENANT_BILLING);
    this.outbox = new SqlTable(driver, METER_OUTBOX);
  }

  getTenantBilling(tenantId: string) {
    return this.billing.one(sql`SELECT * FROM ${this.billing.ref} WHERE tenant_id = ${tenantId}`);
  }

  async putTenantBilling(b: TenantBillingRecord) {
    await this.billing.insert(b, { on: ['tenantId'], update: true });
  }

  async enqueueMeterEvents(rows: readonly MeterOutboxRecord[]) {
    await this.outbox.insertMany(rows, 'ignore');
  }

  pendingMeterEvents(options: { tenantId?: string; limit: number }) {
    const tenant = options.tenantId ? sql` AND tenant_id = ${options.tenantId}` : sql.empty;
    return this.outbox.all(sql`SELECT * FROM ${this.outbox.ref} WHERE sent_at IS NULL${tenant} ORDER BY created_at, identifier LIMIT ${options.limit}`);
  }

  async markMeterEventSent(identifier: string, at: string) {
    await this.outbox.run(sql`UPDATE ${this.outbox.ref} SET sent_at = ${at} WHERE identifier = ${identifier} AND sent_at IS NULL`);
  }

  listMeterEvents(tenantId: string, period?: string) {
    const inPeriod = period ? sql` AND period = ${period}` : sql.empty;
    return this.outbox.all(sql`SELECT * FROM ${this.outbox.ref} WHERE tenant_id = ${tenantId}${inPeriod} ORDER BY identifier`);
  }

  async recordWebhookEvent(id: string, at: string) {
    const { rowCount } = await this.driver.query(sql`INSERT INTO ${sql.table('billing_webhook_events')} (id, received_at) VALUES (${id}, ${at}) ON CONFLICT (id) DO NOTHING`);
    return rowCount === 1;
  }
}
