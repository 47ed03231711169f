import type { Scope } from '../../ports/scope.js';
import type { VerifiedVisitorLink, VerifiedVisitorStore, VisitorKeyRecord, VisitorKeyStore } from '../../tenancy/ports/visitor-keys.js';
import type { SqlDriver } from '../driver.js';
import { sql } from '../sql.js';
import { SqlTable } from '../table.js';
import { VERIFIED_VISITORS, VISITOR_KEYS } from '../tables.js';

/** One visitor-identity key per workspace. */
export class SqlVisitorKeys implements VisitorKeyStore {
  private readonly rows: SqlTable<VisitorKeyRecord>;

  constructor(driver: SqlDriver) {
    this.rows = new SqlTable(driver, VISITOR_KEYS);
  }

  get(scope: Scope) {
    return this.rows.one(sql`SELECT * FROM ${this.rows.ref} WHERE tenant_id = ${scope.tenantId} AND workspace_id = ${scope.workspaceId}`);
  }

  async put(record: VisitorKeyRecord) {
    await this.rows.insert(record, { on: ['tenantId', 'workspaceId'], update: true });
  }

  async delete(scope: Scope) {
    return (await this.rows.run(sql`DELETE FROM ${this.rows.ref} WHERE tenant_id = ${scope.tenantId} AND workspace_id = ${scope.workspaceId}`)) > 0;
  }
}

/** Verified visitor ids and their visitor records, per workspace. */
export class SqlVerifiedVisitors implements VerifiedVisitorStore {
  private readonly rows: SqlTable<VerifiedVisitorLink>;

  constructor(driver: SqlDriver) {
    this.rows = new SqlTable(driver, VERIFIED_VISITORS);
  }

  async find(scope: Scope, verifiedId: string) {
    const link = await this.rows.one(sql`SELECT * FROM ${this.rows.ref} WHERE tenant_id = ${scope.tenantId} AND workspace_id = ${scope.workspaceId} AND verified_id = ${verifiedId}`);
    return link?.visitorId ?? null;
  }

  async isVerified(scope: Scope, visitorId: string) {
    return (await this.rows.one(sql`SELECT * FROM ${this.rows.ref} WHERE tenant_id = ${scope.tenantId} AND workspace_id = ${scope.workspaceId} AND visitor_id = ${visitorId} LIMIT 1`)) !== null;
  }

  async link(record: VerifiedVisitorLink) {
    await this.rows.insert(record, { on: ['tenantId', 'workspaceId', 'verifiedId'], update: true });
  }
}
