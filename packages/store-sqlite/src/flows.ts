import type { FlowRecord, FlowRunRecord, FlowStep, FlowStore, Scope } from '@panya/core';
import type { Runner, Statements } from './database.js';

type Row = Record<string, unknown>;

const toFlow = (r: Row): FlowRecord => ({
  id: r.id as string,
  tenantId: r.tenant_id as string,
  workspaceId: r.workspace_id as string,
  name: r.name as string,
  steps: JSON.parse(r.steps as string),
  createdAt: r.created_at as string,
  updatedAt: r.updated_at as string,
});

const toRun = (r: Row): FlowRunRecord => ({
  id: r.id as string,
  tenantId: r.tenant_id as string,
  workspaceId: r.workspace_id as string,
  flowId: r.flow_id as string,
  conversationId: (r.conversation_id as string | null) ?? null,
  status: r.status as FlowRunRecord['status'],
  draft: (r.draft as string | null) ?? null,
  createdAt: r.created_at as string,
  draftedAt: (r.drafted_at as string | null) ?? null,
  completedAt: (r.completed_at as string | null) ?? null,
});

export class SqliteFlows implements FlowStore {
  constructor(private readonly sql: Statements, private readonly run: Runner) {}

  insert(f: FlowRecord) {
    return this.run(() => {
      this.sql.get('INSERT INTO flows (id, tenant_id, workspace_id, name, steps, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(f.id, f.tenantId, f.workspaceId, f.name, JSON.stringify(f.steps), f.createdAt, f.updatedAt);
    });
  }

  get(scope: Scope, id: string) {
    return this.run(() => {
      const row = this.sql.get('SELECT * FROM flows WHERE tenant_id = ? AND workspace_id = ? AND id = ?').get(scope.tenantId, scope.workspaceId, id) as Row | undefined;
      return row ? toFlow(row) : null;
    });
  }

  list(scope: Scope) {
    return this.run(() => (this.sql.get('SELECT * FROM flows WHERE tenant_id = ? AND workspace_id = ? ORDER BY created_at, id').all(scope.tenantId, scope.workspaceId) as Row[]).map(toFlow));
  }

  update(scope: Scope, id: string, patch: { name?: string; steps?: FlowStep[]; updatedAt: string }) {
    return this.run(() => {
      const row = this.sql
        .get('UPDATE flows SET name = COALESCE(?, name), steps = COALESCE(?, steps), updated_at = ? WHERE tenant_id = ? AND workspace_id = ? AND id = ? RETURNING *')
        .get(patch.name ?? null, patch.steps ? JSON.stringify(patch.steps) : null, patch.updatedAt, scope.tenantId, scope.workspaceId, id) as Row | undefined;
      return row ? toFlow(row) : null;
    });
  }

  delete(scope: Scope, id: string) {
    return this.run(() => this.sql.get('DELETE FROM flows WHERE tenant_id = ? AND workspace_id = ? AND id = ?').run(scope.tenantId, scope.workspaceId, id).changes === 1);
  }

  insertRun(r: FlowRunRecord) {
    return this.run(() => {
      this.sql
        .get('INSERT INTO flow_runs (id, tenant_id, workspace_id, flow_id, conversation_id, status, draft, created_at, drafted_at, completed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
        .run(r.id, r.tenantId, r.workspaceId, r.flowId, r.conversationId, r.status, r.draft, r.createdAt, r.draftedAt, r.completedAt);
    });
  }

  getRun(scope: Scope, id: string) {
    return this.run(() => {
      const row = this.sql.get('SELECT * FROM flow_runs WHERE tenant_id = ? AND workspace_id = ? AND id = ?').get(scope.tenantId, scope.workspaceId, id) as Row | undefined;
      return row ? toRun(row) : null;
    });
  }

  draftRun(scope: Scope, id: string, draft: string, at: string) {
    return this.run(() => {
      this.sql
        .get("UPDATE flow_runs SET draft = ?, drafted_at = ?, status = 'drafted' WHERE tenant_id = ? AND workspace_id = ? AND id = ? AND status <> 'completed'")
        .run(draft, at, scope.tenantId, scope.workspaceId, id);
      const row = this.sql.get('SELECT * FROM flow_runs WHERE tenant_id = ? AND workspace_id = ? AND id = ?').get(scope.tenantId, scope.workspaceId, id) as Row | undefined;
      return row ? toRun(row) : null;
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
