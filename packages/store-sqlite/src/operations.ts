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
import type { Counters } from './counters.js';
import type { Runner, Statements } from './database.js';
import { Table } from './rows.js';

type Row = Record<string, unknown>;

export class SqliteRateLimits implements RateLimitStore {
  constructor(private readonly counters: Counters) {}

  consume(buckets: readonly RateBucket[], cost: number) {
    const { db, sql, run } = this.counters;
    return run(() =>
      // IMMEDIATE: the read-check-write below holds the write lock, so concurrent requests
      // (other connections, other processes) cannot both pass the same last unit.
      db.transaction((): RateDecision => {
        const current = buckets.map(
          (b) => ((sql.get('SELECT count FROM rate_counters WHERE key = ? AND win = ?').get(b.key, b.window) as Row | undefined)?.count as number | undefined) ?? 0,
        );
        if (buckets.some((b, i) => current[i]! + cost > b.limit)) return { allowed: false, counts: current };
        for (const b of buckets) {
          sql
            .get('INSERT INTO rate_counters (key, win, count, reset_at) VALUES (?, ?, ?, ?) ON CONFLICT (key, win) DO UPDATE SET count = count + excluded.count')
            .run(b.key, b.window, cost, b.resetAt);
        }
        return { allowed: true, counts: current.map((c) => c + cost) };
      }).immediate(),
    );
  }

  purgeExpired(before: string) {
    return this.counters.run(() => this.counters.sql.get('DELETE FROM rate_counters WHERE reset_at < ?').run(before).changes);
  }

  forget(subjects: readonly string[]) {
    if (subjects.length === 0) return Promise.resolve(0);
    return this.counters.run(
      () =>
        this.counters.sql
          // json_each has a `key` column of its own: the counter's is named by its table.
          .get("DELETE FROM rate_counters WHERE EXISTS (SELECT 1 FROM json_each(?) s WHERE instr(':' || rate_counters.key || ':', ':' || s.value || ':') > 0)")
          .run(JSON.stringify(subjects)).changes,
    );
  }
}

export class SqliteUsage implements UsageStore {
  private readonly queries: Table<ApiQueryEvent>;
  private readonly usage: Table<UsageRecord>;
  /** Query events waiting for this turn's commit (group commit); null in a transaction's view. */
  private pending: { event: ApiQueryEvent; done: () => void; failed: (error: unknown) => void }[] | null;

  constructor(private readonly sql: Statements, private readonly run: Runner, private readonly counters: Counters, groupCommit = false) {
    this.queries = new Table(counters.sql, tables.API_QUERY_EVENTS);
    this.usage = new Table(sql, tables.USAGE_RECORDS);
    this.pending = groupCommit ? [] : null;
  }

  /**
   * Every counted query writes one event, and its request waits for the commit. Outside a
   * transaction, the events of the requests that finish in one turn of the event loop are
   * committed together: one write transaction (one WAL commit, one hold of the write lock other
   * processes wait for) instead of one per request. A batch that fails is retried event by
   * event, so each request learns its own outcome.
   */
  recordQuery(e: ApiQueryEvent) {
    const pending = this.pending;
    if (!pending) return this.counters.run(() => void this.queries.insert(e));
    return new Promise<void>((done, failed) => {
      if (pending.push({ event: e, done, failed }) === 1) setImmediate(() => void this.commitPending());
    });
  }

  private async commitPending() {
    const batch = this.pending!.splice(0);
    try {
      await this.counters.run(() => this.counters.db.transaction(() => batch.forEach((b) => this.queries.insert(b.event))).immediate());
      for (const b of batch) b.done();
    } catch (error) {
      if (batch.length === 1) return batch[0]!.failed(error);
      for (const b of batch) await this.counters.run(() => void this.queries.insert(b.event)).then(b.done, b.failed);
    }
  }

  recordUsage(u: UsageRecord) {
    return this.run(() => void this.usage.insert(u));
  }

  countQueries(tenantId: string, billingPeriod: string, range: TimeRange = {}) {
    return this.counters.run(() => {
      const counts: Record<QueryEventKind, number> = { search: 0, answer: 0, mcp_tool: 0 };
      const rows = this.counters.sql
        .get('SELECT kind, COUNT(*) AS n FROM api_query_events WHERE tenant_id = ? AND billing_period = ? AND (? IS NULL OR created_at >= ?) AND (? IS NULL OR created_at < ?) GROUP BY kind')
        .all(tenantId, billingPeriod, range.from ?? null, range.from ?? null, range.before ?? null, range.before ?? null) as Row[];
      for (const r of rows) counts[r.kind as QueryEventKind] = r.n as number;
      return counts;
    });
  }

  sumUsage(tenantId: string, billingPeriod: string) {
    return this.run(() => {
      const rows = this.sql.get('SELECT meter, SUM(quantity) AS total FROM usage_records WHERE tenant_id = ? AND billing_period = ? GROUP BY meter').all(tenantId, billingPeriod) as Row[];
      return Object.fromEntries(rows.map((r) => [r.meter as string, r.total as number]));
    });
  }

  listQueries(tenantId: string, options: { billingPeriod?: string; limit?: number } = {}) {
    return this.counters.run(() =>
      this.queries.all('SELECT * FROM api_query_events WHERE tenant_id = @tenantId AND (@period IS NULL OR billing_period = @period) ORDER BY id DESC LIMIT @limit', {
        tenantId,
        period: options.billingPeriod ?? null,
        limit: options.limit ?? 100,
      }),
    );
  }
}

export class SqliteUsers implements UserStore {
  private readonly users: Table<UserRecord>;
  private readonly memberships_: Table<MembershipRecord>;
  private readonly sessions: Table<SessionRecord>;

  constructor(private readonly sql: Statements, private readonly run: Runner) {
    this.users = new Table(sql, tables.USERS);
    this.memberships_ = new Table(sql, tables.MEMBERSHIPS);
    this.sessions = new Table(sql, tables.SESSIONS);
  }

  insert(u: UserRecord) {
    return this.run(() => void this.users.insert(u));
  }

  getByEmail(email: string) {
    return this.run(() => this.users.one('SELECT * FROM users WHERE email = ?', email));
  }

  get(id: string) {
    return this.run(() => this.users.one('SELECT * FROM users WHERE id = ?', id));
  }

  addMembership(m: MembershipRecord) {
    return this.run(() => void this.memberships_.insert(m));
  }

  memberships(userId: string, tenantId: string) {
    return this.run(() => this.memberships_.all('SELECT * FROM memberships WHERE user_id = ? AND tenant_id = ? ORDER BY id', userId, tenantId));
  }

  allMemberships(userId: string) {
    return this.run(() => this.memberships_.all('SELECT * FROM memberships WHERE user_id = ? ORDER BY id', userId));
  }

  insertSession(s: SessionRecord) {
    return this.run(() => void this.sessions.insert(s));
  }

  getSession(id: string) {
    return this.run(() => this.sessions.one('SELECT * FROM sessions WHERE id = ?', id));
  }

  revokeSession(id: string, at: string) {
    return this.run(() => {
      this.sql.get('UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, id);
    });
  }

  memberIds(tenantId: string) {
    return this.run(() => (this.sql.get('SELECT DISTINCT user_id FROM memberships WHERE tenant_id = ? ORDER BY user_id').raw().all(tenantId) as [string][]).map((r) => r[0]));
  }

  deleteUnaffiliated(userIds: readonly string[]) {
    return this.run(() => {
      const gone = this.sql
        .get('SELECT id, email FROM users WHERE id IN (SELECT value FROM json_each(?)) AND NOT EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = users.id) ORDER BY id')
        .all(JSON.stringify(userIds)) as { id: string; email: string }[];
      const ids = JSON.stringify(gone.map((u) => u.id));
      this.sql.get('DELETE FROM sessions WHERE user_id IN (SELECT value FROM json_each(?))').run(ids);
      this.sql.get('DELETE FROM users WHERE id IN (SELECT value FROM json_each(?))').run(ids);
      return gone;
    });
  }
}
