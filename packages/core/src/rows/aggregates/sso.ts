import type { SsoConfigRecord, SsoSessionRecord, SsoStateRecord, SsoStore } from '../../tenancy/ports/sso.js';
import type { SqlDriver } from '../driver.js';
import { sql } from '../sql.js';
import { SqlTable } from '../table.js';
import { SSO_CONFIGS, SSO_SESSIONS, SSO_STATES } from '../tables.js';

/** A tenant's single sign-on provider, its attempts in flight and the sessions it opened. */
export class SqlSso implements SsoStore {
  private readonly configs: SqlTable<SsoConfigRecord>;
  private readonly states: SqlTable<SsoStateRecord>;
  private readonly sessions: SqlTable<SsoSessionRecord>;

  constructor(driver: SqlDriver) {
    this.configs = new SqlTable(driver, SSO_CONFIGS);
    this.states = new SqlTable(driver, SSO_STATES);
    this.sessions = new SqlTable(driver, SSO_SESSIONS);
  }

  getConfig(tenantId: string) {
    return this.configs.one(sql`SELECT * FROM ${this.configs.ref} WHERE tenant_id = ${tenantId}`);
  }

  async putConfig(record: SsoConfigRecord) {
    await this.configs.insert(record, { on: ['tenantId'], update: true });
  }

  async deleteConfig(tenantId: string) {
    return (await this.configs.run(sql`DELETE FROM ${this.configs.ref} WHERE tenant_id = ${tenantId}`)) > 0;
  }

  async saveState(record: SsoStateRecord, now: string) {
    await this.states.run(sql`DELETE FROM ${this.states.ref} WHERE tenant_id = ${record.tenantId} AND expires_at < ${this.states.value('expiresAt', now)}`);
    await this.states.insert(record);
  }

  liveStates(tenantId: string, now: string) {
    return this.states.count(sql`SELECT COUNT(*) FROM ${this.states.ref} WHERE tenant_id = ${tenantId} AND expires_at >= ${this.states.value('expiresAt', now)}`);
  }

  takeState(id: string) {
    return this.states.one(sql`DELETE FROM ${this.states.ref} WHERE id = ${id} RETURNING *`);
  }

  async linkSession(record: SsoSessionRecord) {
    await this.sessions.run(sql`DELETE FROM ${this.sessions.ref} WHERE tenant_id = ${record.tenantId} AND expires_at < ${this.sessions.value('expiresAt', record.createdAt)}`);
    await this.sessions.insert(record);
  }

  async openedBy(sessionId: string, tenantId: string) {
    return (await this.sessions.count(sql`SELECT COUNT(*) FROM ${this.sessions.ref} WHERE session_id = ${sessionId} AND tenant_id = ${tenantId}`)) > 0;
  }
}
