import type { FlowRecord, FlowRunRecord, FlowStep, FlowStore, Scope } from '@panya/core';
import { tables } from '@panya/core/rows';
import type { Runner, Statements } from './database.js';
import { Table } from './rows.js';

export class SqliteFlows implements FlowStore {
  private readonly flows: Table<FlowRecord>;
  private readonly runs: Table<FlowRunRecord>;

  constructor(private readonly sql: Statements, private readonly run: Runner) {
    this.flows = new Table(sql, tables.FLOWS);
    this.runs = new Table(sql, tables.FLOW_RUNS);
  }

  insert(f: FlowRecord) {
    return this.run(() => void this.flows.insert(f));
  }

  get(scope: Scope, id: string) {
    return this.run(() => this.flows.get(scope, id));
  }

  list(scope: Scope) {
    return this.run(() => this.flows.all('SELECT * FROM flows WHERE tenant_id = ? AND workspace_id = ? ORDER BY created_at, id', scope.tenantId, scope.workspaceId));
  }

  update(scope: Scope, id: string, patch: { name?: string; steps?: FlowStep[]; updatedAt: string }) {
    return this.run(() => this.flows.update(patch, 'tenant_id = ? AND workspace_id = ? AND id = ?', scope.tenantId, scope.workspaceId, id));
  }

  delete(scope: Scope, id: string) {
    return this.run(() => this.sql.get('DELETE FROM flows WHERE tenant_id = ? AND workspace_id = ? AND id = ?').run(scope.tenantId, scope.workspaceId, id).changes === 1);
  }

  insertRun(r: FlowRunRecord) {
    return this.run(() => void this.runs.insert(r));
  }

  getRun(scope: Scope, id: string) {
    return this.run(() => this.runs.get(scope, id));
  }

  draftRun(scope: Scope, id: string, draft: string, at: string) {
    return this.run(() => {
      this.sql
        .get("UPDATE flow_runs SET draft = ?, drafted_at = ?, status = 'drafted' WHERE tenant_id = ? AND workspace_id = ? AND id = ? AND status <> 'completed'")
        .run(draft, at, scope.tenantId, scope.workspaceId, id);
      return this.runs.get(scope, id);
    });
  }

  completeRun(scope: Scope, id: string, at: string) {
    return this.run(
      () =>
        this.sql
          .get("UPDATE flow_runs SET status = 'completed', completed_at = ? WHERE tenant_id = ? AND workspace_id = ? AND id = ? AND status = 'drafted'")
          .run(at, scope.tenantId, scope.workspaceId, id).changes === 1,
    );
  }
}
