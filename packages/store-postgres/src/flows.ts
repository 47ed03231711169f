import type { FlowRecord, FlowRunRecord, FlowStep, FlowStore, Scope } from '@panya/core';
import { tables } from '@panya/core/rows';
import type { Conn, Names } from './database.js';
import { Table } from './rows.js';

export class PgFlows implements FlowStore {
  private readonly flows: Table<FlowRecord>;
  private readonly runs: Table<FlowRunRecord>;

  constructor(private readonly db: Conn, private readonly n: Names) {
    this.flows = new Table(db, n, tables.FLOWS);
    this.runs = new Table(db, n, tables.FLOW_RUNS);
  }

  async insert(f: FlowRecord) {
    await this.flows.insert(f);
  }

  get(scope: Scope, id: string) {
    return this.flows.get(scope, id);
  }

  list(scope: Scope) {
    return this.flows.all(`SELECT * FROM ${this.flows.name} WHERE tenant_id = $1 AND workspace_id = $2 ORDER BY created_at, id`, [scope.tenantId, scope.workspaceId]);
  }

  update(scope: Scope, id: string, patch: { name?: string; steps?: FlowStep[]; updatedAt: string }) {
    return this.flows.update(patch, 'tenant_id = $1 AND workspace_id = $2 AND id = $3', [scope.tenantId, scope.workspaceId, id]);
  }

  async delete(scope: Scope, id: string) {
    const { rowCount } = await this.db.query(`DELETE FROM ${this.n.t('flows')} WHERE tenant_id = $1 AND workspace_id = $2 AND id = $3`, [scope.tenantId, scope.workspaceId, id]);
    return rowCount === 1;
  }

  async insertRun(r: FlowRunRecord) {
    await this.runs.insert(r);
  }

  getRun(scope: Scope, id: string) {
    return this.runs.get(scope, id);
  }

  async draftRun(scope: Scope, id: string, draft: string, at: string) {
    await this.db.query(
      `UPDATE ${this.n.t('flow_runs')} SET draft = $1, drafted_at = $2, status = 'drafted' WHERE tenant_id = $3 AND workspace_id = $4 AND id = $5 AND status <> 'completed'`,
      [draft, at, scope.tenantId, scope.workspaceId, id],
    );
    return this.getRun(scope, id);
  }

  async completeRun(scope: Scope, id: string, at: string) {
    const { rowCount } = await this.db.query(
      `UPDATE ${this.n.t('flow_runs')} SET status = 'completed', completed_at = $1 WHERE tenant_id = $2 AND workspace_id = $3 AND id = $4 AND status = 'drafted'`,
      [at, scope.tenantId, scope.workspaceId, id],
    );
    return rowCount === 1;
  }
}
