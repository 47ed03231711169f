import { FLOW_RUN_MOVES, type FlowRecord, type FlowRunRecord, type FlowStep, type FlowStore } from '../../support/ports/flows.js';
import type { Scope } from '../../ports/scope.js';
import type { SqlDriver } from '../driver.js';
import { sql } from '../sql.js';
import { SqlTable } from '../table.js';
import { FLOW_RUNS, FLOWS } from '../tables.js';

export class SqlFlows implements FlowStore {
  private readonly flows: SqlTable<FlowRecord>;
  private readonly runs: SqlTable<FlowRunRecord>;

  constructor(driver: SqlDriver) {
    this.flows = new SqlTable(driver, FLOWS);
    this.runs = new SqlTable(driver, FLOW_RUNS);
  }

  async insert(f: FlowRecord) {
    await this.flows.insert(f);
  }

  get(scope: Scope, id: string) {
    return this.flows.get(scope, id);
  }

  list(scope: Scope) {
    return this.flows.all(sql`SELECT * FROM ${this.flows.ref} WHERE tenant_id = ${scope.tenantId} AND workspace_id = ${scope.workspaceId} ORDER BY created_at, id`);
  }

  update(scope: Scope, id: string, patch: { name?: string; steps?: FlowStep[]; updatedAt: string }) {
    return this.flows.patch(scope, id, patch);
  }

  delete(scope: Scope, id: string) {
    return this.flows.delete(scope, id);
  }

  async insertRun(r: FlowRunRecord) {
    await this.runs.insert(r);
  }

  getRun(scope: Scope, id: string) {
    return this.runs.get(scope, id);
  }

  async draftRun(scope: Scope, id: string, draft: string, at: string) {
    await this.runs.run(
      sql`UPDATE ${this.runs.ref} SET draft = ${draft}, drafted_at = ${at}, status = 'drafted' WHERE tenant_id = ${scope.tenantId} AND workspace_id = ${scope.workspaceId} AND id = ${id} AND status ${sql.in(FLOW_RUN_MOVES.draft)}`,
    );
    return this.getRun(scope, id);
  }

  async completeRun(scope: Scope, id: string, at: string) {
    const written = await this.runs.run(
      sql`UPDATE ${this.runs.ref} SET status = 'completed', completed_at = ${at} WHERE tenant_id = ${scope.tenantId} AND workspace_id = ${scope.workspaceId} AND id = ${id} AND status ${sql.in(FLOW_RUN_MOVES.complete)}`,
    );
    return written === 1;
  }
}
