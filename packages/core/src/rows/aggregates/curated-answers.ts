import type { CuratedAnswerPatch, CuratedAnswerRecord, CuratedAnswerStore } from '../../answers/ports/curated-answers.js';
import type { Scope } from '../../ports/scope.js';
import type { SqlDriver } from '../driver.js';
import { sql } from '../sql.js';
import { SqlTable } from '../table.js';
import { CURATED_ANSWERS } from '../tables.js';

export class SqlCuratedAnswers implements CuratedAnswerStore {
  private readonly rows: SqlTable<CuratedAnswerRecord>;

  constructor(driver: SqlDriver) {
    this.rows = new SqlTable(driver, CURATED_ANSWERS);
  }

  async insert(record: CuratedAnswerRecord) {
    await this.rows.insert(record);
  }

  get(scope: Scope, id: string) {
    return this.rows.get(scope, id);
  }

  list(scope: Scope, limit: number) {
    return this.rows.all(sql`SELECT * FROM ${this.rows.ref} WHERE tenant_id = ${scope.tenantId} AND workspace_id = ${scope.workspaceId} ORDER BY created_at, id LIMIT ${limit}`);
  }

  update(scope: Scope, id: string, patch: CuratedAnswerPatch) {
    return this.rows.patch(scope, id, patch);
  }

  delete(scope: Scope, id: string) {
    return this.rows.delete(scope, id);
  }

  count(scope: Scope) {
    return this.rows.count(sql`SELECT COUNT(*) AS n FROM ${this.rows.ref} WHERE tenant_id = ${scope.tenantId} AND workspace_id = ${scope.workspaceId}`);
  }
}
