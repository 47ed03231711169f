import type { MembershipRecord, SessionRecord, UserRecord, UserStore } from '../../tenancy/ports/users.js';
import type { SqlDriver } from '../driver.js';
import { sql } from '../sql.js';
import { SqlTable } from '../table.js';
import { MEMBERSHIPS, SESSIONS, USERS } from '../tables.js';

export class SqlUsers implements UserStore {
  private readonly users: SqlTable<UserRecord>;
  private readonly memberships_: SqlTable<MembershipRecord>;
  private readonly sessions: SqlTable<SessionRecord>;

  constructor(private readonly driver: SqlDriver) {
    this.users = new SqlTable(driver, USERS);
    this.memberships_ = new SqlTable(driver, MEMBERSHIPS);
    this.sessions = new SqlTable(driver, SESSIONS);
  }

  async insert(u: UserRecord) {
    await this.users.insert(u);
  }

  getByEmail(email: string) {
    return this.users.one(sql`SELECT * FROM ${this.users.ref} WHERE email = ${email}`);
  }

  get(id: string) {
    return this.users.one(sql`SELECT * FROM ${this.users.ref} WHERE id = ${id}`);
  }

  async addMembership(m: MembershipRecord) {
    await this.memberships_.insert(m);
  }

  memberships(userId: string, tenantId: string) {
    return this.memberships_.all(sql`SELECT * FROM ${this.memberships_.ref} WHERE user_id = ${userId} AND tenant_id = ${tenantId} ORDER BY id`);
  }

  allMemberships(userId: string) {
    return this.memberships_.all(sql`SELECT * FROM ${this.memberships_.ref} WHERE user_id = ${userId} ORDER BY id`);
  }

  async insertSession(s: SessionRecord) {
    await this.sessions.insert(s);
  }

  getSession(id: string) {
    return this.sessions.one(sql`SELECT * FROM ${this.sessions.ref} WHERE id = ${id}`);
  }

  async revokeSession(id: string, at: string) {
    await this.sessions.run(sql`UPDATE ${this.sessions.ref} SET revoked_at = ${at} WHERE id = ${id} AND revoked_at IS NULL`);
  }

  async memberIds(tenantId: string) {
    const { rows } = await this.driver.query(sql`SELECT DISTINCT user_id FROM ${this.memberships_.ref} WHERE tenant_id = ${tenantId} ORDER BY user_id`);
    return rows.map((r) => r.user_id as string);
  }

  deleteUnaffiliated(userIds: readonly string[]) {
    if (userIds.length === 0) return Promise.resolve([]);
    // The membership test sits in both deletions: a user who joins a tenant meanwhile is kept whole.
    const unaffiliated = (alias: string) => sql`NOT EXISTS (SELECT 1 FROM ${this.memberships_.ref} m WHERE m.user_id = ${sql.raw(alias)})`;
    return this.driver.atomic(async (tx) => {
      await tx.query(sql`DELETE FROM ${this.sessions.ref} AS s WHERE s.user_id ${sql.in(userIds)} AND ${unaffiliated('s.user_id')}`);
      const { rows } = await tx.query(sql`DELETE FROM ${this.users.ref} AS u WHERE u.id ${sql.in(userIds)} AND ${unaffiliated('u.id')} RETURNING id, email`);
      return (rows as { id: string; email: string }[]).map(({ id, email }) => ({ id, email })).sort((a, b) => (a.id < b.id ? -1 : 1));
    });
  }
}
