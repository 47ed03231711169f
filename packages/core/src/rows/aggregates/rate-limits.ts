import type { RateBucket, RateDecision, RateLimitStore } from '../../tenancy/ports/rate-limits.js';
import type { SqlDriver } from '../driver.js';
import { sql } from '../sql.js';
import { SqlTable } from '../table.js';
import { RATE_COUNTERS, type RateCounter } from '../tables.js';

const id = (b: { key: string; window: string }) => `${b.key}\u0000${b.window}`;

export class SqlRateLimits implements RateLimitStore {
  private readonly rows: SqlTable<RateCounter>;

  constructor(private readonly driver: SqlDriver) {
    this.rows = new SqlTable(driver, RATE_COUNTERS);
  }

  /**
   * One transaction: make sure every counter row exists, lock them all in one fixed order (so two
   * requests sharing buckets never deadlock where rows lock one by one; SQLite's writer holds the
   * whole file), then check and take from all or none.
   */
  consume(buckets: readonly RateBucket[], cost: number): Promise<RateDecision> {
    if (buckets.length === 0) return Promise.resolve({ allowed: true, counts: [] });
    // A bucket listed twice is charged twice, as separate requests would be.
    const charges = new Map<string, { bucket: RateBucket; amount: number }>();
    for (const b of buckets) {
      const charge = charges.get(id(b));
      if (charge) charge.amount += cost;
      else charges.set(id(b), { bucket: b, amount: cost });
    }
    const distinct = [...charges.values()].sort((a, b) => (id(a.bucket) < id(b.bucket) ? -1 : 1));
    const counter = (b: RateBucket, count: number): RateCounter => ({ key: b.key, window: b.window, count, resetAt: b.resetAt });
    const these = sql.join(
      distinct.map(({ bucket }) => sql`(key = ${bucket.key} AND win = ${bucket.window})`),
      ' OR ',
    );
    return this.driver.atomic(async (tx) => {
      const rows = new SqlTable(tx, RATE_COUNTERS);
      await rows.insertMany(distinct.map(({ bucket }) => counter(bucket, 0)), 'ignore');
      const locked = await rows.all(sql`SELECT * FROM ${rows.ref} WHERE ${these} ORDER BY key${sql.byteOrder}, win${sql.byteOrder}${sql.forUpdate}`);
      const counts = new Map(locked.map((r) => [id(r), r.count]));
      const current = buckets.map((b) => counts.get(id(b)) ?? 0);
      if (buckets.some((b, i) => current[i]! + cost > b.limit)) return { allowed: false, counts: current };
      await rows.run(
        sql`INSERT INTO ${rows.ref} AS r (key, win, count, reset_at) VALUES ${sql.join(
          distinct.map(({ bucket, amount }) => sql`(${bucket.key}, ${bucket.window}, ${amount}, ${bucket.resetAt})`),
          ', ',
        )} ON CONFLICT (key, win) DO UPDATE SET count = r.count + excluded.count`,
      );
      return { allowed: true, counts: current.map((c) => c + cost) };
    });
  }

  purgeExpired(before: string) {
    return this.rows.run(sql`DELETE FROM ${this.rows.ref} WHERE reset_at < ${before}`);
  }

  forget(subjects: readonly string[]) {
    if (subjects.length === 0) return Promise.resolve(0);
    return this.rows.run(
      sql`DELETE FROM ${this.rows.ref} AS r WHERE EXISTS (SELECT 1 FROM ${sql.textRows(subjects, 's')} WHERE ${sql.contains(sql`':' || r.key || ':'`, sql`':' || s.value || ':'`)})`,
    );
  }
}
