import type {
  ApiQueryEvent,
  MembershipRecord,
  QueryEventKind,
  RateBucket,
  RateDecision,
  RateLimitStore,
  SessionRecord,
  TimeRange,
  UsageRecord,
  UsageStore,
  UserRecord,
  UserStore,
} from '@panya/core';
import { tables } from '@panya/core/rows';
import type { Conn, Names } from './database.js';
import { Table } from './rows.js';

export class PgRateLimits implements RateLimitStore {
  constructor(private readonly db: Conn, private readonly n: Names) {}

  /**
   * One transaction: make sure every counter row exists, lock them all (in one fixed order, so
   * two requests sharing buckets never deadlock), then check and take from all or none. The row
   * locks serialise concurrent requests on every node that shares the database.
   */
  consume(buckets: readonly RateBucket[], cost: number): Promise<RateDecision> {
    if (buckets.length === 0) return Promise.resolve({ allowed: true, counts: [] });
    const table = this.n.t('rate_counters');
    const distinct = [...new Map(buckets.map((b) => [`${b.key}\u0000${b.window}`, b])).values()].sort((a, b) =>
      a.key === b.key ? (a.window < b.window ? -1 : 1) : a.key < b.key ? -1 : 1,
    );
    const keys = distinct.map((b) => b.key);
    const windows = distinct.map((b) => b.window);
    return this.db.atomic(async (tx) => {
      await tx.query(
        `INSERT INTO ${table} (key, win, count, reset_at)
         SELECT b.key, b.win, 0, b.reset_at FROM unnest($1::text[], $2::text[], $3::timestamptz[]) WITH ORDINALITY AS b(key, win, reset_at, ord)
         ORDER BY b.ord
         ON CONFLICT (key, win) DO NOTHING`,
        [keys, windows, distinct.map((b) => b.resetAt)],
      );
      const { rows } = await tx.query<{ key: string; win: string; count: number }>(
        `SELECT r.key, r.win, r.count FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS b(key, win, ord)
         JOIN ${table} r ON r.key = b.key AND r.win = b.win
         ORDER BY b.ord
         FOR UPDATE OF r`,
        [keys, windows],
      );
      const counts = new Map(rows.map((r) => [`${r.key}\u0000${r.win}`, r.count]));
      const current = buckets.map((b) => counts.get(`${b.key}\u0000${b.window}`) ?? 0);
      if (buckets.some((b, i) => current[i]! + cost > b.limit)) return { allowed: false, counts: current };
      // A bucket listed twice is charged twice, as separate requests would be.
      const charges = new Map<string, number>();
      for (const b of buckets) charges.set(`${b.key}\u0000${b.window}`, (charges.get(`${b.key}\u0000${b.window}`) ?? 0) + cost);
      await tx.query(
        `UPDATE ${table} r SET count = r.count + c.amount
         FROM unnest($1::text[], $2::text[], $3::int[]) AS c(key, win, amount)
         WHERE r.key = c.key AND r.win = c.win`,
        [keys, windows, distinct.map((b) => charges.get(`${b.key}\u0000${b.window}`)!)],
      );
      return { allowed: true, counts: current.map((c) => c + cost) };
    });
  }

  async purgeExpired(before: string) {
    const { rowCount } = await this.db.query(`DELETE FROM ${this.n.t('rate_counters')} WHERE reset_at < $1`, [before]);
    return rowCount ?? 0;
  }

  async forget(subjects: readonly string[]) {
    if (subjects.length === 0) return 0;
    const { rowCount } = await this.db.query(
      `DELETE FROM ${this.n.t('rate_counters')} r WHERE EXISTS (SELECT 1 FROM unnest($1::text[]) s WHERE strpos(':' || r.key || ':', ':' || s || ':') > 0)`,
      [subjects],
    );
    return rowCount ?? 0;
  }
}

export class PgUsage implements UsageStore {
  private readonly queries: Table<ApiQueryEvent>;
  private readonly usage: Table<UsageRecord>;

  constructor(private readonly db: Conn, private readonly n: Names) {
    this.queries = new Table(db, n, tables.API_QUERY_EVENTS);
    this.usage = new Table(db, n, tables.USAGE_RECORDS);
  }

  async recordQuery(e: ApiQueryEvent) {
    await this.queries.insert(e);
  }

  async recordUsage(u: UsageRecord) {
    await this.usage.insert(u);
  }

  async countQueries(tenantId: string, billingPeriod: string, range: TimeRange = {}) {
    const counts: Record<QueryEventKind, number> = { search: 0, answer: 0, mcp_tool: 0 };
    const { rows } = await this.db.query(
      `SELECT kind, count(*)::int AS n FROM ${this.n.t('api_query_events')} WHERE tenant_id = $1 AND billing_period = $2
         AND ($3::timestamptz IS NULL OR created_at >= $3) AND ($4::timestamptz IS NULL OR created_at < $4) GROUP BY kind`,
      [tenantId, billingPeriod, range.from ?? null, range.before ?? null],
    );
    for (const r of rows) counts[r.kind as QueryEventKind] = r.n as number;
    return counts;
  }

  async sumUsage(tenantId: string, billingPeriod: string) {
    const { rows } = await this.db.query(
      `SELECT meter, sum(quantity)::float8 AS total FROM ${this.n.t('usage_records')} WHERE tenant_id = $1 AND billing_period = $2 GROUP BY meter`,
      [tenantId, billingPeriod],
    );
    return Object.fromEntries(rows.map((r) => [r.meter as string, Number(r.total)]));
  }

  listQueries(tenantId: string, options: { billingPeriod?: string; limit?: number } = {}) {
    return this.queries.all(`SELECT * FROM ${this.queries.name} WHERE tenant_id = $1 AND ($2::text IS NULL OR billing_period = $2) ORDER BY id DESC LIMIT $3`, [
      tenantId,
      options.billingPeriod ?? null,
      options.limit ?? 100,
    ]);
  }
}

export class PgUsers implements UserStore {
  private readonly users: Table<UserRecord>;
  private readonly memberships_: Table<MembershipRecord>;
  private readonly sessions: Table<SessionRecord>;

  constructor(private readonly db: Conn, n: Names) {
    this.users = new Table(db, n, tables.USERS);
    this.memberships_ = new Table(db, n, tables.MEMBERSHIPS);
    this.sessions = new Table(db, n, tables.SESSIONS);
  }

  async insert(u: UserRecord) {
    await this.users.insert(u);
  }

  getByEmail(email: string) {
    return this.users.one(`SELECT * FROM ${this.users.name} WHERE email = $1`, [email]);
  }

  get(id: string) {
    return this.users.one(`SELECT * FROM ${this.users.name} WHERE id = $1`, [id]);
  }

  async addMembership(m: MembershipRecord) {
    await this.memberships_.insert(m);
  }

  memberships(userId: string, tenantId: string) {
    return this.memberships_.all(`SELECT * FROM ${this.memberships_.name} WHERE user_id = $1 AND tenant_id = $2 ORDER BY id`, [userId, tenantId]);
  }

  allMemberships(userId: string) {
    return this.memberships_.all(`SELECT * FROM ${this.memberships_.name} WHERE user_id = $1 ORDER BY id`, [userId]);
  }

  async insertSession(s: SessionRecord) {
    await this.sessions.insert(s);
  }

  getSession(id: string) {
    return this.sessions.one(`SELECT * FROM ${this.sessions.name} WHERE id = $1`, [id]);
  }

  async revokeSession(id: string, at: string) {
    await this.db.query(`UPDATE ${this.sessions.name} SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL`, [at, id]);
  }

  async memberIds(tenantId: string) {
    const { rows } = await this.db.query<{ user_id: string }>(`SELECT DISTINCT user_id FROM ${this.memberships_.name} WHERE tenant_id = $1 ORDER BY user_id`, [tenantId]);
    return rows.map((r) => r.user_id);
  }

  async deleteUnaffiliated(userIds: readonly string[]) {
    if (userIds.length === 0) return [];
    await this.db.query(
      `DELETE FROM ${this.sessions.name} WHERE user_id = ANY($1::text[]) AND NOT EXISTS (SELECT 1 FROM ${this.memberships_.name} m WHERE m.user_id = ${this.sessions.name}.user_id)`,
      [userIds],
    );
    const { rows } = await this.db.query<{ id: string; email: string }>(
      `DELETE FROM ${this.users.name} u WHERE u.id = ANY($1::text[]) AND NOT EXISTS (SELECT 1 FROM ${this.memberships_.name} m WHERE m.user_id = u.id) RETURNING u.id, u.email`,
      [userIds],
    );
    return rows.sort((a, b) => (a.id < b.id ? -1 : 1));
  }
}
