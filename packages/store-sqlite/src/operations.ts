import type {
  ApiQueryEvent,
  JobStore,
  MembershipRecord,
  QueryEventKind,
  RateBucket,
  RateDecision,
  RateLimitStore,
  SessionRecord,
  UsageRecord,
  UsageStore,
  UserRecord,
  UserStore,
} from '@panya/core';
import { translateError, type Db, type Runner, type Statements } from './database.js';

type Row = Record<string, unknown>;

export class SqliteRateLimits implements RateLimitStore {
  constructor(private readonly db: Db, private readonly sql: Statements, private readonly run: Runner) {}

  consume(buckets: readonly RateBucket[], cost: number) {
    return this.run(() =>
      // IMMEDIATE: the read-check-write below holds the write lock, so concurrent requests
      // (other connections, other processes) cannot both pass the same last unit.
      this.db.transaction((): RateDecision => {
        const current = buckets.map(
          (b) => ((this.sql.get('SELECT count FROM rate_counters WHERE key = ? AND win = ?').get(b.key, b.window) as Row | undefined)?.count as number | undefined) ?? 0,
        );
        if (buckets.some((b, i) => current[i]! + cost > b.limit)) return { allowed: false, counts: current };
        for (const b of buckets) {
          this.sql
            .get('INSERT INTO rate_counters (key, win, count, reset_at) VALUES (?, ?, ?, ?) ON CONFLICT (key, win) DO UPDATE SET count = count + excluded.count')
            .run(b.key, b.window, cost, b.resetAt);
        }
        return { allowed: true, counts: current.map((c) => c + cost) };
      }).immediate(),
    );
  }

  purgeExpired(before: string) {
    return this.run(() => this.sql.get('DELETE FROM rate_counters WHERE reset_at < ?').run(before).changes);
  }
}

const toQueryEvent = (r: Row): ApiQueryEvent => ({
  id: r.id as string,
  tenantId: r.tenant_id as string,
  workspaceId: r.workspace_id as string,
  keyId: (r.key_id as string | null) ?? null,
  kind: r.kind as QueryEventKind,
  tool: (r.tool as string | null) ?? null,
  billingPeriod: r.billing_period as string,
  createdAt: r.created_at as string,
});

export class SqliteUsage implements UsageStore {
  constructor(private readonly sql: Statements, private readonly run: Runner) {}

  recordQuery(e: ApiQueryEvent) {
    return this.run(() => {
      this.sql
        .get('INSERT INTO api_query_events (id, tenant_id, workspace_id, key_id, kind, tool, billing_period, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
        .run(e.id, e.tenantId, e.workspaceId, e.keyId, e.kind, e.tool, e.billingPeriod, e.createdAt);
    });
  }

  recordUsage(u: UsageRecord) {
    return this.run(() => {
      this.sql
        .get('INSERT INTO usage_records (id, tenant_id, workspace_id, meter, quantity, billing_period, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
        .run(u.id, u.tenantId, u.workspaceId, u.meter, u.quantity, u.billingPeriod, JSON.stringify(u.data), u.createdAt);
    });
  }

  countQueries(tenantId: string, billingPeriod: string) {
    return this.run(() => {
      const counts: Record<QueryEventKind, number> = { search: 0, answer: 0, mcp_tool: 0 };
      const rows = this.sql.get('SELECT kind, COUNT(*) AS n FROM api_query_events WHERE tenant_id = ? AND billing_period = ? GROUP BY kind').all(tenantId, billingPeriod) as Row[];
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
    return this.run(() =>
      (
        this.sql
          .get('SELECT * FROM api_query_events WHERE tenant_id = @tenantId AND (@period IS NULL OR billing_period = @period) ORDER BY id DESC LIMIT @limit')
          .all({ tenantId, period: options.billingPeriod ?? null, limit: options.limit ?? 100 }) as Row[]
      ).map(toQueryEvent),
    );
  }
}

const toUser = (r: Row): UserRecord => ({ id: r.id as string, email: r.email as string, passwordHash: r.password_hash as string, createdAt: r.created_at as string });
const toMembership = (r: Row): MembershipRecord => ({
  id: r.id as string,
  userId: r.user_id as string,
  tenantId: r.tenant_id as string,
  workspaceId: (r.workspace_id as string | null) ?? null,
  role: r.role as MembershipRecord['role'],
  createdAt: r.created_at as string,
});

export class SqliteUsers implements UserStore {
  constructor(private readonly sql: Statements, private readonly run: Runner) {}

  insert(u: UserRecord) {
    return this.run(() => {
      try {
        this.sql.get('INSERT INTO users (id, email, password_hash, created_at) VALUES (?, ?, ?, ?)').run(u.id, u.email, u.passwordHash, u.createdAt);
      } catch (error) {
        translateError(error);
      }
    });
  }

  getByEmail(email: string) {
    return this.run(() => {
      const row = this.sql.get('SELECT * FROM users WHERE email = ?').get(email) as Row | undefined;
      return row ? toUser(row) : null;
    });
  }

  get(id: string) {
    return this.run(() => {
      const row = this.sql.get('SELECT * FROM users WHERE id = ?').get(id) as Row | undefined;
      return row ? toUser(row) : null;
    });
  }

  addMembership(m: MembershipRecord) {
    return this.run(() => {
      try {
        this.sql.get('INSERT INTO memberships (id, user_id, tenant_id, workspace_id, role, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(m.id, m.userId, m.tenantId, m.workspaceId, m.role, m.createdAt);
      } catch (error) {
        translateError(error);
      }
    });
  }

  memberships(userId: string, tenantId: string) {
    return this.run(() => (this.sql.get('SELECT * FROM memberships WHERE user_id = ? AND tenant_id = ? ORDER BY id').all(userId, tenantId) as Row[]).map(toMembership));
  }

  allMemberships(userId: string) {
    return this.run(() => (this.sql.get('SELECT * FROM memberships WHERE user_id = ? ORDER BY id').all(userId) as Row[]).map(toMembership));
  }

  insertSession(s: SessionRecord) {
    return this.run(() => {
      this.sql.get('INSERT INTO sessions (id, user_id, created_at, expires_at, revoked_at) VALUES (?, ?, ?, ?, ?)').run(s.id, s.userId, s.createdAt, s.expiresAt, s.revokedAt);
    });
  }

  getSession(id: string) {
    return this.run(() => {
      const r = this.sql.get('SELECT * FROM sessions WHERE id = ?').get(id) as Row | undefined;
      return r ? { id: r.id as string, userId: r.user_id as string, createdAt: r.created_at as string, expiresAt: r.expires_at as string, revokedAt: (r.revoked_at as string | null) ?? null } : null;
    });
  }

  revokeSession(id: string, at: string) {
    return this.run(() => {
      this.sql.get('UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, id);
    });
  }
}

export class SqliteJobs implements JobStore {
  constructor(private readonly sql: Statements, private readonly run: Runner) {}

  acquireLease(job: string, holder: string, now: string, until: string) {
    return this.run(
      () =>
        this.sql
          .get('INSERT INTO job_leases (job, holder, until) VALUES (@job, @holder, @until) ON CONFLICT (job) DO UPDATE SET holder = @holder, until = @until WHERE job_leases.until < @now OR job_leases.holder = @holder')
          .run({ job, holder, now, until }).changes > 0,
    );
  }

  releaseLease(job: string, holder: string) {
    return this.run(() => {
      this.sql.get('DELETE FROM job_leases WHERE job = ? AND holder = ?').run(job, holder);
    });
  }

  getState(job: string) {
    return this.run(() => {
      const row = this.sql.get('SELECT state FROM job_state WHERE job = ?').get(job) as Row | undefined;
      return row ? (JSON.parse(row.state as string) as Record<string, unknown>) : null;
    });
  }

  setState(job: string, state: Record<string, unknown>, at: string) {
    return this.run(() => {
      this.sql.get('INSERT INTO job_state (job, state, updated_at) VALUES (?, ?, ?) ON CONFLICT (job) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at').run(job, JSON.stringify(state), at);
    });
  }
}
