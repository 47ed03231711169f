import type { EvalQuestion, EvalRunRecord, EvalSetRecord, EvalStore } from '../../answers/ports/evaluation.js';
import type { Scope } from '../../ports/scope.js';
import type { SqlDriver } from '../driver.js';
import { sql } from '../sql.js';
import { SqlTable } from '../table.js';
import { EVAL_RUNS, EVAL_SETS } from '../tables.js';

export class SqlEvals implements EvalStore {
  private readonly sets: SqlTable<EvalSetRecord>;
  private readonly runs: SqlTable<EvalRunRecord>;

  constructor(private readonly driver: SqlDriver) {
    this.sets = new SqlTable(driver, EVAL_SETS);
    this.runs = new SqlTable(driver, EVAL_RUNS);
  }

  private inWorkspace(scope: Scope) {
    return sql`tenant_id = ${scope.tenantId} AND workspace_id = ${scope.workspaceId}`;
  }

  async insertSet(set: EvalSetRecord) {
    await this.sets.insert(set);
  }

  getSet(scope: Scope, id: string) {
    return this.sets.get(scope, id);
  }

  listSets(scope: Scope, limit: number) {
    return this.sets.all(sql`SELECT * FROM ${this.sets.ref} WHERE ${this.inWorkspace(scope)} ORDER BY created_at DESC, id DESC LIMIT ${limit}`);
  }

  updateSet(scope: Scope, id: string, patch: { name?: string; questions?: EvalQuestion[]; updatedAt: string }) {
    return this.sets.patch(scope, id, patch);
  }

  deleteSet(scope: Scope, id: string) {
    return this.driver.atomic(async (tx) => {
      const sets = new SqlTable(tx, EVAL_SETS);
      const runs = new SqlTable(tx, EVAL_RUNS);
      await runs.run(sql`DELETE FROM ${runs.ref} WHERE ${this.inWorkspace(scope)} AND set_id = ${id}`);
      return sets.delete(scope, id);
    });
  }

  async insertRun(run: EvalRunRecord) {
    await this.runs.insert(run);
  }

  getRun(scope: Scope, id: string) {
    return this.runs.get(scope, id);
  }

  listRuns(scope: Scope, limit: number, setId?: string) {
    const set = setId === undefined ? sql.empty : sql` AND set_id = ${setId}`;
    return this.runs.all(sql`SELECT * FROM ${this.runs.ref} WHERE ${this.inWorkspace(scope)}${set} ORDER BY created_at DESC, id DESC LIMIT ${limit}`);
  }

  async finishRun(scope: Scope, id: string, outcome: Pick<EvalRunRecord, 'status' | 'metrics' | 'results' | 'error' | 'finishedAt'>) {
    await this.runs.patch(scope, id, outcome);
  }

  previousRun(scope: Scope, setId: string, before: string) {
    return this.runs.one(sql`SELECT * FROM ${this.runs.ref} WHERE ${this.inWorkspace(scope)} AND set_id = ${setId} AND status = 'done' AND created_at <= ${before} ORDER BY created_at DESC, id DESC LIMIT 1`);
  }
}
