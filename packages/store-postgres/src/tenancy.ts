import type {
  ApiKeyRecord,
  ApiKeyStore,
  AuditEvent,
  AuditStore,
  SearchIndex,
  TenantRecord,
  TenantStore,
  WorkspacePatch,
  WorkspacePurge,
  WorkspaceRecord,
  WorkspaceStore,
} from '@panya/core';
import { iso, isoOrNull, json, type Conn, type Names, type Row } from './database.js';
import { WORKSPACE_CASCADE } from './workspace-cascade.js';
import { eraseTenantRows } from './tenant-erasure.js';

const toTenant = (r: Row): TenantRecord => ({
  id: r.id as string,
  slug: r.slug as string,
  plan: r.plan as TenantRecord['plan'],
  quotas: json(r.quotas),
  paymentCustomerId: (r.payment_customer_id as string | null) ?? null,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

const toWorkspace = (r: Row): WorkspaceRecord => ({
  id: r.id as string,
  tenantId: r.tenant_id as string,
  slug: r.slug as string,
  name: r.name as string,
  brandAccent: (r.brand_accent as string | null) ?? null,
  isDefault: r.is_default === true,
  deletedAt: isoOrNull(r.deleted_at),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

const toApiKey = (r: Row): ApiKeyRecord => ({
  id: r.id as string,
  tenantId: r.tenant_id as string,
  kind: ((r.kind as string | null) ?? 'secret') as ApiKeyRecord['kind'],
  workspaceId: (r.workspace_id as string | null) ?? null,
  name: r.name as string,
  prefix: r.prefix as string,
  secretHash: r.secret_hash as string,
  scopes: json(r.scopes),
  createdAt: iso(r.created_at),
  revokedAt: isoOrNull(r.revoked_at),
});

export class PgTenants implements TenantStore {
  constructor(private readonly db: Conn, private readonly n: Names) {}

  erase(id: string) {
    return eraseTenantRows(this.db, this.n, id);
  }

  async insert(t: TenantRecord) {
    await this.db.query(
      `INSERT INTO ${this.n.t('tenants')} (id, slug, plan, quotas, payment_customer_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [t.id, t.slug, t.plan, JSON.stringify(t.quotas), t.paymentCustomerId, t.createdAt, t.updatedAt],
    );
  }

  async get(id: string) {
    const { rows } = await this.db.query(`SELECT * FROM ${this.n.t('tenants')} WHERE id = $1`, [id]);
    return rows[0] ? toTenant(rows[0]) : null;
  }

  async getBySlug(slug: string) {
    const { rows } = await this.db.query(`SELECT * FROM ${this.n.t('tenants')} WHERE slug = $1`, [slug]);
    return rows[0] ? toTenant(rows[0]) : null;
  }

  async update(id: string, patch: Parameters<TenantStore['update']>[1]) {
    const sets: string[] = [];
    const values: unknown[] = [];
    const set = (column: string, value: unknown) => {
      values.push(value);
      sets.push(`${column} = $${values.length}`);
    };
    if (patch.plan !== undefined) set('plan', patch.plan);
    if (patch.quotas !== undefined) set('quotas', JSON.stringify(patch.quotas));
    if (patch.paymentCustomerId !== undefined) set('payment_customer_id', patch.paymentCustomerId);
    if (patch.updatedAt !== undefined) set('updated_at', patch.updatedAt);
    if (sets.length === 0) return;
    values.push(id);
    await this.db.query(`UPDATE ${this.n.t('tenants')} SET ${sets.join(', ')} WHERE id = $${values.length}`, values);
  }

  async list() {
    const { rows } = await this.db.query(`SELECT * FROM ${this.n.t('tenants')} ORDER BY slug`);
    return rows.map(toTenant);
  }
}

export class PgWorkspaces implements WorkspaceStore {
  constructor(
    private readonly db: Conn,
    private readonly n: Names,
    private readonly search: SearchIndex,
  ) {}

  async insert(w: WorkspaceRecord) {
    await this.db.query(
      `INSERT INTO ${this.n.t('workspaces')} (id, tenant_id, slug, name, brand_accent, is_default, deleted_at, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [w.id, w.tenantId, w.slug, w.name, w.brandAccent, w.isDefault, w.deletedAt, w.createdAt, w.updatedAt],
    );
  }

  private async one(where: string, values: unknown[]) {
    const { rows } = await this.db.query(`SELECT * FROM ${this.n.t('workspaces')} WHERE ${where}`, values);
    return rows[0] ? toWorkspace(rows[0]) : null;
  }

  get(tenantId: string, id: string) {
    return this.one('tenant_id = $1 AND id = $2', [tenantId, id]);
  }

  getBySlug(tenantId: string, slug: string) {
    return this.one('tenant_id = $1 AND slug = $2', [tenantId, slug]);
  }

  getDefault(tenantId: string) {
    return this.one('tenant_id = $1 AND is_default', [tenantId]);
  }

  async list(tenantId: string, options: { includeDeleted?: boolean } = {}) {
    const where = options.includeDeleted ? '' : 'AND deleted_at IS NULL';
    const { rows } = await this.db.query(
      `SELECT * FROM ${this.n.t('workspaces')} WHERE tenant_id = $1 ${where} ORDER BY deleted_at IS NOT NULL, is_default DESC, id`,
      [tenantId],
    );
    return rows.map(toWorkspace);
  }

  async update(tenantId: string, id: string, patch: WorkspacePatch) {
    const values: unknown[] = [tenantId, id, patch.updatedAt];
    const sets = ['updated_at = $3'];
    const set = (column: string, value: unknown) => {
      values.push(value);
      sets.push(`${column} = $${values.length}`);
    };
    if (patch.name !== undefined) set('name', patch.name);
    if (patch.brandAccent !== undefined) set('brand_accent', patch.brandAccent);
    if (patch.deletedAt !== undefined) set('deleted_at', patch.deletedAt);
    const { rows } = await this.db.query(`UPDATE ${this.n.t('workspaces')} SET ${sets.join(', ')} WHERE tenant_id = $1 AND id = $2 RETURNING *`, values);
    return rows[0] ? toWorkspace(rows[0]) : null;
  }

  async listDeletedBefore(before: string, limit: number, tenantId?: string) {
    const { rows } = await this.db.query(
      `SELECT * FROM ${this.n.t('workspaces')} WHERE deleted_at IS NOT NULL AND deleted_at <= $1 AND ($2::text IS NULL OR tenant_id = $2) ORDER BY deleted_at, id LIMIT $3`,
      [before, tenantId ?? null, limit],
    );
    return rows.map(toWorkspace);
  }

  async purge(tenantId: string, id: string, limit: number): Promise<WorkspacePurge> {
    const ws = await this.get(tenantId, id);
    if (!ws) return { deleted: {}, done: true };
    if (!ws.deletedAt) throw new Error(`Workspace ${id} is not soft-deleted; refusing to purge it.`);
    const scope = { tenantId, workspaceId: id };
    const deleted: Record<string, number> = {};
    let budget = limit;
    for (const step of WORKSPACE_CASCADE) {
      if (budget <= 0) return { deleted, done: false };
      if (step.via === 'with-chunks') continue;
      const n = step.via === 'search-index' ? await this.purgeChunks(scope, budget) : await this.purgeRows(step.table, scope, budget);
      if (n > 0) deleted[step.table] = n;
      budget -= n;
    }
    if (budget <= 0) return { deleted, done: false };
    await this.db.query(`DELETE FROM ${this.n.t('workspaces')} WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
    deleted.workspaces = 1;
    return { deleted, done: true };
  }

  /** The workspace's chunks (and legacy chunks of its documents), document by document through the search index. */
  private async purgeChunks(scope: { tenantId: string; workspaceId: string }, budget: number): Promise<number> {
    const { rows } = await this.db.query<{ document_id: string; n: string }>(
      `SELECT document_id, COUNT(*) AS n FROM ${this.n.t('chunks')} WHERE tenant_id = $1 AND (workspace_id = $2
         OR (workspace_id IS NULL AND document_id IN (SELECT id FROM ${this.n.t('documents')} WHERE tenant_id = $1 AND workspace_id = $2)))
       GROUP BY document_id LIMIT $3`,
      [scope.tenantId, scope.workspaceId, budget],
    );
    let removed = 0;
    for (const doc of rows) {
      await this.search.removeDocumentChunks(scope, doc.document_id);
      removed += Number(doc.n);
    }
    return removed;
  }

  private async purgeRows(table: string, scope: { tenantId: string; workspaceId: string }, budget: number): Promise<number> {
    const t = this.n.t(table);
    const { rowCount } = await this.db.query(
      `DELETE FROM ${t} WHERE ctid = ANY (ARRAY(SELECT ctid FROM ${t} WHERE tenant_id = $1 AND workspace_id = $2 LIMIT $3))`,
      [scope.tenantId, scope.workspaceId, budget],
    );
    return rowCount ?? 0;
  }
}

export class PgApiKeys implements ApiKeyStore {
  constructor(private readonly db: Conn, private readonly n: Names) {}

  async insert(k: ApiKeyRecord) {
    await this.db.query(
      `INSERT INTO ${this.n.t('api_keys')} (id, tenant_id, workspace_id, name, prefix, secret_hash, scopes, created_at, revoked_at, kind) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [k.id, k.tenantId, k.workspaceId, k.name, k.prefix, k.secretHash, JSON.stringify(k.scopes), k.createdAt, k.revokedAt, k.kind],
    );
  }

  async findByHash(secretHash: string) {
    const { rows } = await this.db.query(`SELECT * FROM ${this.n.t('api_keys')} WHERE secret_hash = $1`, [secretHash]);
    return rows[0] ? toApiKey(rows[0]) : null;
  }

  async list(tenantId: string) {
    const { rows } = await this.db.query(`SELECT * FROM ${this.n.t('api_keys')} WHERE tenant_id = $1 ORDER BY id`, [tenantId]);
    return rows.map(toApiKey);
  }

  async revoke(tenantId: string, id: string, at: string) {
    const { rowCount } = await this.db.query(`UPDATE ${this.n.t('api_keys')} SET revoked_at = $1 WHERE tenant_id = $2 AND id = $3 AND revoked_at IS NULL`, [at, tenantId, id]);
    return (rowCount ?? 0) > 0;
  }
}

export class PgAudit implements AuditStore {
  constructor(private readonly db: Conn, private readonly n: Names) {}

  async append(e: AuditEvent) {
    await this.db.query(
      `INSERT INTO ${this.n.t('audit_events')} (id, tenant_id, workspace_id, type, actor, subject_id, data, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [e.id, e.tenantId, e.workspaceId, e.type, e.actor, e.subjectId, JSON.stringify(e.data), e.createdAt],
    );
  }

  async list(tenantId: string, options: { type?: string; subjectId?: string } = {}) {
    const { rows } = await this.db.query(
      `SELECT * FROM ${this.n.t('audit_events')} WHERE tenant_id = $1 AND ($2::text IS NULL OR type = $2) AND ($3::text IS NULL OR subject_id = $3) ORDER BY id`,
      [tenantId, options.type ?? null, options.subjectId ?? null],
    );
    return rows.map((r) => ({
      id: r.id as string,
      tenantId: r.tenant_id as string,
      workspaceId: (r.workspace_id as string | null) ?? null,
      type: r.type as string,
      actor: r.actor as string,
      subjectId: (r.subject_id as string | null) ?? null,
      data: json<Record<string, unknown>>(r.data),
      createdAt: iso(r.created_at),
    }));
  }
}
