import type { ApiKeyRecord, ApiKeyStore, SearchIndex, TenantRecord, TenantStore, WorkspacePatch, WorkspacePurge, WorkspaceRecord, WorkspaceStore } from '@panya/core';
import { purgeWorkspace, tables } from '@panya/core/rows';
import { COUNTER_TABLES, eraseCounterRows, type Counters } from './counters.js';
import type { Runner, Statements } from './database.js';
import { eraseTenantRows } from './tenant-erasure.js';
import type { SqliteSearchIndex } from './search-index.js';
import type { VectorIndexes } from './vector-index.js';
import { Table } from './rows.js';

export class SqliteTenants implements TenantStore {
  private readonly rows: Table<TenantRecord>;

  constructor(
    private readonly sql: Statements,
    private readonly run: Runner,
    private readonly search: SqliteSearchIndex,
    private readonly counters: Counters,
    private readonly graphs?: VectorIndexes,
  ) {
    this.rows = new Table(sql, tables.TENANTS);
  }

  async erase(id: string) {
    // The workspaces' HNSW graph files hold the tenant's vectors: they go with it (derived data,
    // rebuilt from the rows should the erasure roll back).
    const workspaces = await this.run(() => (this.sql.get('SELECT id FROM workspaces WHERE tenant_id = ?').raw().all(id) as [string][]).map((r) => r[0]));
    const graphFiles = (await this.graphs?.drop(workspaces.map((workspaceId) => ({ tenantId: id, workspaceId })))) ?? 0;
    const chunks = await this.search.removeTenantChunks(id);
    // Outside the main transaction (another file): a failed erasure keeps the tenant and loses
    // only its query events, which the erasure was removing anyway.
    const counted = await this.counters.run(() => eraseCounterRows(this.counters.db, id));
    const deleted = await this.run(() => eraseTenantRows(this.sql.db, id));
    return { ...(chunks > 0 ? { chunks } : {}), ...(graphFiles > 0 ? { vector_graph_files: graphFiles } : {}), ...counted, ...deleted };
  }

  insert(t: TenantRecord) {
    return this.run(() => void this.rows.insert(t));
  }

  get(id: string) {
    return this.run(() => this.rows.one('SELECT * FROM tenants WHERE id = ?', id));
  }

  getBySlug(slug: string) {
    return this.run(() => this.rows.one('SELECT * FROM tenants WHERE slug = ?', slug));
  }

  update(id: string, patch: Parameters<TenantStore['update']>[1]) {
    return this.run(() => void this.rows.update(patch, 'id = ?', id));
  }

  list() {
    return this.run(() => this.rows.all('SELECT * FROM tenants ORDER BY slug'));
  }
}

export class SqliteWorkspaces implements WorkspaceStore {
  private readonly rows: Table<WorkspaceRecord>;

  constructor(
    private readonly sql: Statements,
    private readonly run: Runner,
    private readonly search: SearchIndex,
    private readonly counters: Counters,
  ) {
    this.rows = new Table(sql, tables.WORKSPACES);
  }

  insert(w: WorkspaceRecord) {
    return this.run(() => void this.rows.insert(w));
  }

  get(tenantId: string, id: string) {
    return this.run(() => this.rows.one('SELECT * FROM workspaces WHERE tenant_id = ? AND id = ?', tenantId, id));
  }

  getBySlug(tenantId: string, slug: string) {
    return this.run(() => this.rows.one('SELECT * FROM workspaces WHERE tenant_id = ? AND slug = ?', tenantId, slug));
  }

  getDefault(tenantId: string) {
    return this.run(() => this.rows.one('SELECT * FROM workspaces WHERE tenant_id = ? AND is_default = 1', tenantId));
  }

  list(tenantId: string, options: { includeDeleted?: boolean } = {}) {
    const where = options.includeDeleted ? '' : 'AND deleted_at IS NULL';
    return this.run(() => this.rows.all(`SELECT * FROM workspaces WHERE tenant_id = ? ${where} ORDER BY deleted_at IS NOT NULL, is_default DESC, id`, tenantId));
  }

  update(tenantId: string, id: string, patch: WorkspacePatch) {
    return this.run(() => this.rows.update(patch, 'tenant_id = ? AND id = ?', tenantId, id));
  }

  listDeletedBefore(before: string, limit: number, tenantId?: string) {
    return this.run(() =>
      this.rows.all('SELECT * FROM workspaces WHERE deleted_at IS NOT NULL AND deleted_at <= ? AND (? IS NULL OR tenant_id = ?) ORDER BY deleted_at, id LIMIT ?', before, tenantId ?? null, tenantId ?? null, limit),
    );
  }

  async purge(tenantId: string, id: string, limit: number): Promise<WorkspacePurge> {
    const scope = { tenantId, workspaceId: id };
    return purgeWorkspace(await this.get(tenantId, id), limit, {
      chunks: (budget) => this.purgeChunks(scope, budget),
      rows: (table, budget) => {
        const { sql, run } = COUNTER_TABLES.has(table) ? this.counters : { sql: this.sql, run: this.run };
        return run(() => sql.get(`DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE tenant_id = ? AND workspace_id = ? LIMIT ?)`).run(tenantId, id, budget).changes);
      },
      workspace: () => this.run(() => void this.sql.get('DELETE FROM workspaces WHERE tenant_id = ? AND id = ?').run(tenantId, id)),
    });
  }

  /** The workspace's chunks (and legacy chunks of its documents), document by document through the search index. */
  private async purgeChunks(scope: { tenantId: string; workspaceId: string }, budget: number): Promise<number> {
    const docs = await this.run(
      () =>
        this.sql
          .get(
            `SELECT document_id, COUNT(*) AS n FROM chunks WHERE tenant_id = @t AND (workspace_id = @w
               OR (workspace_id IS NULL AND document_id IN (SELECT id FROM documents WHERE tenant_id = @t AND workspace_id = @w)))
             GROUP BY document_id LIMIT @limit`,
          )
          .all({ t: scope.tenantId, w: scope.workspaceId, limit: budget }) as { document_id: string; n: number }[],
    );
    let removed = 0;
    for (const doc of docs) {
      await this.search.removeDocumentChunks(scope, doc.document_id);
      removed += doc.n;
    }
    return removed;
  }
}

export class SqliteApiKeys implements ApiKeyStore {
  private readonly rows: Table<ApiKeyRecord>;

  constructor(private readonly sql: Statements, private readonly run: Runner) {
    this.rows = new Table(sql, tables.API_KEYS);
  }

  insert(k: ApiKeyRecord) {
    return this.run(() => void this.rows.insert(k));
  }

  findByHash(secretHash: string) {
    return this.run(() => this.rows.one('SELECT * FROM api_keys WHERE secret_hash = ?', secretHash));
  }

  list(tenantId: string) {
    return this.run(() => this.rows.all('SELECT * FROM api_keys WHERE tenant_id = ? ORDER BY id', tenantId));
  }

  revoke(tenantId: string, id: string, at: string) {
    return this.run(() => this.sql.get('UPDATE api_keys SET revoked_at = ? WHERE tenant_id = ? AND id = ? AND revoked_at IS NULL').run(at, tenantId, id).changes > 0);
  }

  touch(id: string, at: string) {
    return this.run(() => void this.sql.get('UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(at, id));
  }
}
