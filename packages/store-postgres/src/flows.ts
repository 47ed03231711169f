import type { FlowRecord, FlowRunRecord, FlowStep, FlowStore, Scope } from '@panya/core';
import { iso, isoOrNull, json, type Conn, type Names, type Row } from './database.js';

const toFlow = (r: Row): FlowRecord => ({
  id: r.id as string,
  tenantId: r.tenant_id as string,
  workspaceId: r.workspace_id as string,
  name: r.name as string,
  steps: json(r.steps),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

const toRun = (r: Row): FlowRunRecord => ({
  id: r.id as string,
  tenantId: r.tenant_id as string,
  workspaceId: r.workspace_id as string,
  flowId: r.flow_id as string,
  conversationId: (r.conversation_id as string | null) ?? null,
  status: r.status as FlowRunRecord['status'],
  draft: (r.draft as string | null) ?? null,
  createdAt: iso(r.created_at),
  draftedAt: isoOrNull(r.drafted_at),
  completedAt: isoOrNull(r.completed_at),
});

export class PgFlows implements FlowStore {
  constructor(private readonly db: Conn, private readonly n: Names) {}

  async insert(f: FlowRecord) {
    await this.db.query(`INSERT INTO ${this.n.t('flows')} (id, tenant_id, workspace_id, name, steps, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
      f.id,
      f.tenantId,
      f.workspaceId,
      f.name,
      JSON.stringify(f.steps),
      f.createdAt,
      f.updatedAt,
    ]);
  }

  async get(scope: Scope, id: string) {
    const { rows } = await this.db.query(`SELECT * FROM ${this.n.t('flows')} WHERE tenant_id = $1 AND workspace_id = $2 AND id = $3`, [scope.tenantId, scope.workspaceId, id]);
    return rows[0] ? toFlow(rows[0]) : null;
  }

  async list(scope: Scope) {
    const { rows } = await this.db.query(`SELECT * FROM ${this.n.t('flows')} WHERE tenant_id = $1 AND workspace_id = $2 ORDER BY created_at, id`, [scope.tenantId, scope.workspaceId]);
    return rows.map(toFlow);
  }

  async update(scope: Scope, id: string, patch: { name?: string; steps?: FlowStep[]; updatedAt: string }) {
    const { rows } = await this.db.query(
      `UPDATE ${this.n.t('flows')} SET name = COALESCE($1, name), steps = COALESCE($2::jsonb, steps), updated_at = $3 WHERE tenant_id = $4 AND workspace_id = $5 AND id = $6 RETURNING *`,
      [patch.name ?? null, patch.steps ? JSON.stringify(patch.steps) : null, patch.updatedAt, scope.tenantId, scope.workspaceId, id],
    );
    return rows[0] ? toFlow(rows[0]) : null;
  }

  async delete(scope: Scope, id: string) {
    const { rowCount } = await this.db.query(`DELETE FROM ${this.n.t('flows')} WHERE tenant_id = $1 AND workspace_id = $2 AND id = $3`, [scope.tenantId, scope.workspaceId, id]);
    return rowCount === 1;
  }

  async insertRun(r: FlowRunRecord) {
    await this.db.query(
      `INSERT INTO ${this.n.t('flow_runs')} (id, tenant_id, workspace_id, flow_id, conversation_id, status, draft, created_at, drafted_at, completed_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [r.id, r.tenantId, r.workspaceId, r.flowId, r.conversationId, r.status, r.draft, r.createdAt, r.draftedAt, r.completedAt],
    );
  }

  async getRun(scope: Scope, id: string) {
    const { rows } = await this.db.query(`SELECT * FROM ${this.n.t('flow_runs')} WHERE tenant_id = $1 AND workspace_id = $2 AND id = $3`, [scope.tenantId, scope.workspaceId, id]);
    return rows[0] ? toRun(rows[0]) : null;
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
