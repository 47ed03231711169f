import type { ConversationRecord } from '../../answers/ports/conversations.js';
import type { MeterKey } from '../../billing/catalog.js';
import type { DisqualifyReason, ResolutionRecord, ResolutionStore } from '../../billing/ports/resolutions.js';
import type { TimeRange } from '../../tenancy/ports/usage.js';
import type { Scope } from '../../ports/scope.js';
import { DISQUALIFYING_FLAG } from '../../billing/resolutions.js';
import { billableWhere } from '../billable-index.js';
import type { SqlDriver } from '../driver.js';
import { sql } from '../sql.js';
import { SqlTable } from '../table.js';
import { CONVERSATIONS, RESOLUTIONS } from '../tables.js';

/** Resolutions and meter credits; which conversations bill, and what a disqualification does, are core's. */
export class SqlResolutions implements ResolutionStore {
  private readonly conversations: SqlTable<ConversationRecord>;
  private readonly rows: SqlTable<ResolutionRecord>;
  private readonly credit = sql.table('meter_credits');

  constructor(private readonly driver: SqlDriver) {
    this.conversations = new SqlTable(driver, CONVERSATIONS);
    this.rows = new SqlTable(driver, RESOLUTIONS);
  }

  /** Core's billable predicate in the dialect's literals, for the conversation aliased `c`. */
  private get billable() {
    return sql.raw(billableWhere(this.driver, 'c'));
  }

  candidates({ from, idleBefore }: { from: string; idleBefore: string }, limit: number, tenantId?: string) {
    const tenant = tenantId === undefined ? sql.empty : sql` AND c.tenant_id = ${tenantId}`;
    return this.conversations.all(
      sql`SELECT c.* FROM ${this.conversations.ref} c
          WHERE ${this.billable} AND c.last_message_at >= ${from} AND c.last_message_at <= ${idleBefore}${tenant}
            AND NOT EXISTS (SELECT 1 FROM ${this.rows.ref} r WHERE r.conversation_id = c.id)
          ORDER BY c.last_message_at, c.id LIMIT ${limit}`,
    );
  }

  async record(r: ResolutionRecord) {
    // The billable check and the insert are one statement; where rows lock, a disqualification
    // of the same conversation commits first or waits for this one.
    const written = await this.rows.run(
      sql`INSERT INTO ${this.rows.ref} (id, tenant_id, workspace_id, conversation_id, billing_period, created_at)
          SELECT ${r.id}, c.tenant_id, c.workspace_id, c.id, ${r.billingPeriod}, ${r.createdAt} FROM ${this.conversations.ref} c
          WHERE c.tenant_id = ${r.tenantId} AND c.workspace_id = ${r.workspaceId} AND c.id = ${r.conversationId} AND ${this.billable}${sql.forUpdate}
          ON CONFLICT (conversation_id) DO NOTHING`,
    );
    return written === 1;
  }

  count(tenantId: string, period: string, range: TimeRange = {}) {
    const from = range.from ? sql` AND created_at >= ${range.from}` : sql.empty;
    const before = range.before ? sql` AND created_at < ${range.before}` : sql.empty;
    return this.rows.count(sql`SELECT COUNT(*) AS n FROM ${this.rows.ref} WHERE tenant_id = ${tenantId} AND billing_period = ${period} AND refunded_at IS NULL${from}${before}`);
  }

  list(tenantId: string, period?: string, page: { after?: string; limit?: number } = {}) {
    const inPeriod = period === undefined ? sql.empty : sql` AND billing_period = ${period}`;
    const after = page.after === undefined ? sql.empty : sql` AND conversation_id > ${page.after}`;
    const limit = page.limit === undefined ? sql.empty : sql` LIMIT ${page.limit}`;
    return this.rows.all(sql`SELECT * FROM ${this.rows.ref} WHERE tenant_id = ${tenantId}${inPeriod}${after} ORDER BY billing_period, conversation_id${limit}`);
  }

  get(tenantId: string, id: string) {
    return this.rows.one(sql`SELECT * FROM ${this.rows.ref} WHERE tenant_id = ${tenantId} AND id = ${id}`);
  }

  async flagConversation(scope: Scope, conversationId: string, reason: DisqualifyReason) {
    const flag = DISQUALIFYING_FLAG[reason];
    const written = await this.conversations.run(
      sql`UPDATE ${this.conversations.ref} SET ${this.conversations.col(flag)} = ${this.conversations.value(flag, true)}
          WHERE tenant_id = ${scope.tenantId} AND workspace_id = ${scope.workspaceId} AND id = ${conversationId}`,
    );
    return written > 0;
  }

  forConversation(tenantId: string, conversationId: string) {
    return this.rows.one(sql`SELECT * FROM ${this.rows.ref} WHERE tenant_id = ${tenantId} AND conversation_id = ${conversationId}`);
  }

  async remove(tenantId: string, id: string) {
    await this.rows.run(sql`DELETE FROM ${this.rows.ref} WHERE tenant_id = ${tenantId} AND id = ${id}`);
  }

  async refund(tenantId: string, id: string, at: string) {
    await this.rows.run(sql`UPDATE ${this.rows.ref} SET refunded_at = ${at} WHERE tenant_id = ${tenantId} AND id = ${id} AND refunded_at IS NULL`);
  }

  markReported(tenantId: string, period: string) {
    return this.driver.atomic(async (tx) => {
      const rows = new SqlTable(tx, RESOLUTIONS);
      await rows.run(sql`UPDATE ${rows.ref} SET reported_period = ${period} WHERE tenant_id = ${tenantId} AND billing_period = ${period} AND reported_period IS NULL AND refunded_at IS NULL`);
      return rows.count(sql`SELECT COUNT(*) AS n FROM ${rows.ref} WHERE tenant_id = ${tenantId} AND billing_period = ${period} AND refunded_at IS NULL`);
    });
  }

  async uncorrectedRefunds(tenantId: string) {
    const { rows } = await this.driver.query(
      sql`SELECT reported_period AS period, COUNT(*) AS n FROM ${this.rows.ref}
          WHERE tenant_id = ${tenantId} AND reported_period IS NOT NULL AND refunded_at IS NOT NULL AND corrected_period IS NULL
          GROUP BY reported_period ORDER BY reported_period`,
    );
    return rows.map((r) => ({ period: r.period as string, count: Number(r.n) }));
  }

  async markCorrected(tenantId: string, period: string, correctedIn: string) {
    await this.rows.run(
      sql`UPDATE ${this.rows.ref} SET corrected_period = ${correctedIn} WHERE tenant_id = ${tenantId} AND reported_period = ${period} AND refunded_at IS NOT NULL AND corrected_period IS NULL`,
    );
  }

  async credits(tenantId: string) {
    const { rows } = await this.driver.query(sql`SELECT meter, balance FROM ${this.credit} WHERE tenant_id = ${tenantId} AND balance <> 0`);
    return Object.fromEntries(rows.map((r) => [r.meter as MeterKey, Number(r.balance)])) as Partial<Record<MeterKey, number>>;
  }

  async addCredits(tenantId: string, delta: Partial<Record<MeterKey, number>>) {
    for (const [meter, n] of Object.entries(delta)) {
      if (!n) continue;
      await this.driver.query(
        sql`INSERT INTO ${this.credit} AS m (tenant_id, meter, balance) VALUES (${tenantId}, ${meter}, ${n})
            ON CONFLICT (tenant_id, meter) DO UPDATE SET balance = m.balance + excluded.balance`,
      );
    }
  }
}
