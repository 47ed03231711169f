import type { Scope } from '../../ports/scope.js';
import type { VisitorKeyRecord, VisitorKeyStore } from '../../visitors/keys.js';
import type { SqlDriver } from '../driver.js';
import { sql } from '../sql.js';
import { SqlTable } from '../table.js';
import { VISITOR_KEYS } from '../tables.js';

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
