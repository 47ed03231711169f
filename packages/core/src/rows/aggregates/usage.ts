import type { ApiQueryEvent, QueryEventKind, TimeRange, UsageRecord, UsageStore } from '../../tenancy/ports/usage.js';
import type { SqlDriver } from '../driver.js';
import { sql } from '../sql.js';
import { SqlTable } from '../table.js';
import { API_QUERY_EVENTS, USAGE_RECORDS } from '../tables.js';

type Pending = { event: ApiQueryEvent; done: () => void; failed: (error: unknown) => void };

export class SqlUsage implements UsageStore {
  private readonly queries: SqlTable<ApiQueryEvent>;
  private readonly usage: SqlTable<UsageRecord>;
  /** Query events waiting for this turn's commit (group commit); null when each commits alone. */
  private readonly pending: Pending[] | null;

  /** `counters` holds the query events (a store may keep them on a connection of their own). */
  constructor(driver: SqlDriver, private readonly counters: SqlDriver, groupCommit: boolean) {
    this.queries = new SqlTable(counters, API_QUERY_EVENTS);
    this.usage = new SqlTable(driver, USAGE_RECORDS);
    this.pending = groupCommit ? [] : null;
  }

  /**
   * Every counted query writes one event, and its request waits for the commit. With group
   * commit, the events of the requests that finish in one turn of the event loop are committed
   * together: one write transaction instead of one per request. A batch that fails is retried
   * event by event, so each request learns its own outcome.
   */
  recordQuery(e: ApiQueryEvent): Promise<void> {
    const pending = this.pending;
    if (!pending) return this.queries.insert(e).then(() => undefined);
    return new Promise<void>((done, failed) => {
      if (pending.push({ event: e, done, failed }) === 1) setImmediate(() => void this.commitPending());
    });
  }

  private async commitPending() {
    const batch = this.pending!.splice(0);
    try {
      await this.counters.atomic(async (tx) => {
        const rows = new SqlTable(tx, API_QUERY_EVENTS);
        for (const b of batch) await rows.insert(b.event);
      });
      for (const b of batch) b.done();
    } catch (error) {
      if (batch.length === 1) return batch[0]!.failed(error);
      for (const b of batch) await this.queries.insert(b.event).then(() => b.done(), b.failed);
    }
  }

  async recordUsage(u: UsageRecord) {
    await this.usage.insert(u);
  }

  async countQueries(tenantId: string, billingPeriod: string, range: TimeRange = {}) {
    const counts: Record<QueryEventKind, number> = { search: 0, answer: 0, mcp_tool: 0 };
    const from = range.from == null ? sql.empty : sql` AND created_at >= ${range.from}`;
    const before = range.before == null ? sql.empty : sql` AND created_at < ${range.before}`;
    const { rows } = await this.counters.query(
      sql`SELECT kind, COUNT(*) AS n FROM ${this.queries.ref} WHERE tenant_id = ${tenantId} AND billing_period = ${billingPeriod}${from}${before} GROUP BY kind`,
    );
    for (const r of rows) counts[r.kind as QueryEventKind] = Number(r.n);
    return counts;
  }

  async sumUsage(tenantId: string, billingPeriod: string) {
    const { rows } = await this.usage.driver.query(
      sql`SELECT meter, SUM(quantity) AS total FROM ${this.usage.ref} WHERE tenant_id = ${tenantId} AND billing_period = ${billingPeriod} GROUP BY meter`,
    );
    return Object.fromEntries(rows.map((r) => [r.meter as string, Number(r.total)]));
  }

  listQueries(tenantId: string, options: { billingPeriod?: string; limit?: number } = {}) {
    const period = options.billingPeriod == null ? sql.empty : sql` AND billing_period = ${options.billingPeriod}`;
    return this.queries.all(sql`SELECT * FROM ${this.queries.ref} WHERE tenant_id = ${tenantId}${period} ORDER BY id DESC LIMIT ${options.limit ?? 100}`);
  }
}
