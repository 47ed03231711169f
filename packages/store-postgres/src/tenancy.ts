import type { ApiKeyRecord, ApiKeyStore, SearchIndex, TenantRecord, TenantStore, WorkspacePatch, WorkspacePurge, WorkspaceRecord, WorkspaceStore } from '@panya/core';
import { purgeWorkspace, tables } from '@panya/core/rows';
import type { Conn, Names } from './database.js';
import { eraseTenantRows } from './tenant-erasure.js';
import { Table } from './rows.js';

export class PgTenants implements TenantStore {
  private readonly rows: Table<TenantRecord>;

  constructor(private readonly db: Conn, private readonly n: Names) {
    this.rows = new Table(db, n, tables.TENANTS);
  }

  erase(id: string) {
    return eraseTenantRows(this.db, this.n, id);
  }

  async insert(t: TenantRecord) {
    await this.rows.insert(t);
  }

  get(id: string) {
    return this.rows.one(`SELECT * FROM ${this.rows.name} WHERE id = $1`, [id]);
  }

  getBySlug(slug: string) {
    return this.rows.one(`SELECT * FROM ${this.rows.name} WHERE slug = $1`, [slug]);
  }

  async update(id: string, patch: Parameters<TenantStore['update']>[1]) {
    await this.rows.update(patch, 'id = $1', [id]);
  }

  list() {
    return this.rows.all(`SELECT * FROM ${this.rows.name} ORDER BY slug`);
  }
}

export class PgWorkspaces implements WorkspaceStore {
  private readonly rows: Table<WorkspaceRecord>;

  constructor(
    private readonly db: Conn,
    private readonly n: Names,
    private readonly search: SearchIndex,
  ) {
    this.rows = new Table(db, n, tables.WORKSPACES);
  }

  async insert(w: WorkspaceRecord) {
    await this.rows.insert(w);
  }

  private one(where: string, values: unknown[]) {
    return this.rows.one(`SELECT * FROM ${this.rows.name} WHERE ${where}`, values);
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

  list(tenantId: string, options: { includeDeleted?: boolean } = {}) {
    const where = options.includeDeleted ? '' : 'AND deleted_at IS NULL';
    return this.rows.all(`SELECT * FROM ${this.rows.name} WHERE tenant_id = $1 ${where} ORDER BY deleted_at IS NOT NULL, is_default DESC, id`, [tenantId]);
  }

  update(tenantId: string, id: string, patch: WorkspacePatch) {
    return this.rows.update(patch, 'tenant_id = $1 AND id = $2', [tenantId, id]);
  }

  listDeletedBefore(before: string, limit: number, tenantId?: string) {
    return this.rows.all(
      `SELECT * FROM ${this.rows.name} WHERE deleted_at IS NOT NULL AND deleted_at <= $1 AND ($2::text IS NULL OR tenant_id = $2) ORDER BY deleted_at, id LIMIT $3`,
      [before, tenantId ?? null, limit],
    );
  }

  async purge(tenantId: string, id: string, limit: number): Promise<WorkspacePurge> {
    const scope = { tenantId, workspaceId: id };
    return purgeWorkspace(await this.get(tenantId, id), limit, {
      chunks: (budget) => this.purgeChunks(scope, budget),
      rows: async (table, budget) => {
        const t = this.n.t(table);
        const { rowCount } = await this.db.query(`DELETE FROM ${t} WHERE ctid = ANY (ARRAY(SELECT ctid FROM ${t} WHERE tenant_id = $1 AND workspace_id = $2 LIMIT $3))`, [tenantId, id, budget]);
        return rowCount ?? 0;
      },
      workspace: async () => void (await this.db.query(`DELETE FROM ${this.rows.name} WHERE tenant_id = $1 AND id = $2`, [tenantId, id])),
    });
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
}

export class PgApiKeys implements ApiKeyStore {
  private readonly rows: Table<ApiKeyRecord>;

  constructor(private readonly db: Conn, n: Names) {
    this.rows = new Table(db, n, tables.API_KEYS);
  }

  async insert(k: ApiKeyRecord) {
    await this.rows.insert(k);
  }

  findByHash(secretHash: string) {
    return this.rows.one(`SELECT * FROM ${this.rows.name} WHERE secret_hash = $1`, [secretHash]);
  }

  list(tenantId: string) {
    return this.rows.all(`SELECT * FROM ${this.rows.name} WHERE tenant_id = $1 ORDER BY id`, [tenantId]);
  }

  async revoke(tenantId: string, id: string, at: string) {
    const { rowCount } = await this.db.query(`UPDATE ${this.rows.name} SET revoked_at = $1 WHERE tenant_id = $2 AND id = $3 AND revoked_at IS NULL`, [at, tenantId, id]);
    return (rowCount ?? 0) > 0;
  }

  async touch(id: string, at: string) {
    await this.db.query(`UPDATE ${this.rows.name} SET last_used_at = $1 WHERE id = $2`, [at, id]);
  }
}
