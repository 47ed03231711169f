import type { ApiQueryEvent, QueryEventKind, TimeRange, UsageRecord, UsageStore } from '../../tenancy/ports/usage.js';
import type { SqlDriver } from '../driver.js';
import { sql } from '../sql.js';
import { SqlTable } from '../table.js';
import { API_QUERY_EVENTS, USAGE_RECORDS } from '../tables.js';

type Pending = { event: ApiQueryEvent; done: () => void; failed: (error: unknown) => void };

/** Events in one statement at most: 8 parameters each, well inside both stores' limits. */
const BATCH_EVENTS = 500;

export class SqlUsage implements UsageStore {
  private readonly queries: SqlTable<ApiQueryEvent>;
  private readonly usage: SqlTable<UsageRecord>;
  /** Query events waiting for the next write (group commit); null when each is written alone. */
  private readonly pending: Pending[] | null;
  private writing = false;

  /** `counters` holds the query events (a store may keep them on a connection of their own). */
  constructor(driver: SqlDriver, private readonly counters: SqlDriver, groupCommit: boolean) {
    this.queries = new SqlTable(counters, API_QUERY_EVENTS);
    this.usage = new SqlTable(driver, USAGE_RECORDS);
    this.pending = groupCommit ? [] : null;
  }

  /**
   * Every counted query writes one event, and its request waits for the write. With group commit,
   * the events of one turn of the event loop, and those that arrive while a write is under way, go
   * in the next write together: one multi-row INSERT (one commit) however many requests it carries,
   * so under load the writes per request fall instead of queueing. A batch that fails is retried
   * event by event, so each request learns its own outcome.
   */
  recordQuery(e: ApiQueryEvent): Promise<void> {
    const pending = this.pending;
    if (!pending) return this.queries.insert(e).then(() => undefined);
    return new Promise<void>((done, failed) => {
      pending.push({ event: e, done, failed });
      if (!this.writing) {
        this.writing = true;
        setImmediate(() => void this.writePending(pending));
      }
    });
  }

  private async writePending(pending: Pending[]) {
    while (pending.length > 0) {
      const batch = pending.splice(0, BATCH_EVENTS);
      try {
        await this.queries.insertMany(batch.map((b) => b.event));
        for (const b of batch) b.done();
      } catch (error) {
        if (batch.length === 1) batch[0]!.failed(error);
        else for (const b of batch) await this.queries.insert(b.event).then(() => b.done(), b.failed);
      }
    }
    this.writing = false;
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
