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
import { translateError, type Runner, type Statements } from './database.js';
import { WORKSPACE_CASCADE } from './workspace-cascade.js';
import { eraseTenantRows } from './tenant-erasure.js';
import type { SqliteSearchIndex } from './search-index.js';

type Row = Record<string, unknown>;

const toTenant = (r: Row): TenantRecord => ({
  id: r.id as string,
  slug: r.slug as string,
  plan: r.plan as TenantRecord['plan'],
  quotas: JSON.parse(r.quotas_json as string),
  paymentCustomerId: (r.payment_customer_id as string | null) ?? null,
  createdAt: r.created_at as string,
  updatedAt: r.updated_at as string,
});

const toWorkspace = (r: Row): WorkspaceRecord => ({
  id: r.id as string,
  tenantId: r.tenant_id as string,
  slug: r.slug as string,
  name: r.name as string,
  brandAccent: (r.brand_accent as string | null) ?? null,
  isDefault: r.is_default === 1,
  deletedAt: (r.deleted_at as string | null) ?? null,
  createdAt: r.created_at as string,
  updatedAt: r.updated_at as string,
});

const toApiKey = (r: Row): ApiKeyRecord => ({
  id: r.id as string,
  tenantId: r.tenant_id as string,
  kind: ((r.kind as string | null) ?? 'secret') as ApiKeyRecord['kind'],
  workspaceId: (r.workspace_id as string | null) ?? null,
  name: r.name as string,
  prefix: r.prefix as string,
  secretHash: r.secret_hash as string,
  scopes: JSON.parse(r.scopes as string),
  createdAt: r.created_at as string,
  revokedAt: (r.revoked_at as string | null) ?? null,
});

export class SqliteTenants implements TenantStore {
  constructor(private readonly sql: Statements, private readonly run: Runner, private readonly search: SqliteSearchIndex) {}

  async erase(id: string) {
    const chunks = await this.search.removeTenantChunks(id);
    const deleted = await this.run(() => eraseTenantRows(this.sql.db, id));
    return chunks > 0 ? { chunks, ...deleted } : deleted;
  }

  insert(t: TenantRecord) {
    return this.run(() => {
      try {
        this.sql
          .get('INSERT INTO tenants (id, slug, plan, quotas_json, payment_customer_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
          .run(t.id, t.slug, t.plan, JSON.stringify(t.quotas), t.paymentCustomerId, t.createdAt, t.updatedAt);
      } catch (error) {
        translateError(error);
      }
    });
  }

  get(id: string) {
    return this.run(() => {
      const row = this.sql.get('SELECT * FROM tenants WHERE id = ?').get(id) as Row | undefined;
      return row ? toTenant(row) : null;
    });
  }

  getBySlug(slug: string) {
    return this.run(() => {
      const row = this.sql.get('SELECT * FROM tenants WHERE slug = ?').get(slug) as Row | undefined;
      return row ? toTenant(row) : null;
    });
  }

  update(id: string, patch: Parameters<TenantStore['update']>[1]) {
    return this.run(() => {
      const sets: string[] = [];
      const values: unknown[] = [];
      if (patch.plan !== undefined) (sets.push('plan = ?'), values.push(patch.plan));
      if (patch.quotas !== undefined) (sets.push('quotas_json = ?'), values.push(JSON.stringify(patch.quotas)));
      if (patch.paymentCustomerId !== undefined) (sets.push('payment_customer_id = ?'), values.push(patch.paymentCustomerId));
      if (patch.updatedAt !== undefined) (sets.push('updated_at = ?'), values.push(patch.updatedAt));
      if (sets.length === 0) return;
      this.sql.get(`UPDATE tenants SET ${sets.join(', ')} WHERE id = ?`).run(...values, id);
    });
  }

  list() {
    return this.run(() => (this.sql.get('SELECT * FROM tenants ORDER BY slug').all() as Row[]).map(toTenant));
  }
}

export class SqliteWorkspaces implements WorkspaceStore {
  constructor(
    private readonly sql: Statements,
    private readonly run: Runner,
    private readonly search: SearchIndex,
  ) {}

  insert(w: WorkspaceRecord) {
    return this.run(() => {
      try {
        this.sql
          .get('INSERT INTO workspaces (id, tenant_id, slug, name, brand_accent, is_default, deleted_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
          .run(w.id, w.tenantId, w.slug, w.name, w.brandAccent, w.isDefault ? 1 : 0, w.deletedAt, w.createdAt, w.updatedAt);
      } catch (error) {
        translateError(error);
      }
    });
  }

  get(tenantId: string, id: string) {
    return this.run(() => {
      const row = this.sql.get('SELECT * FROM workspaces WHERE tenant_id = ? AND id = ?').get(tenantId, id) as Row | undefined;
      return row ? toWorkspace(row) : null;
    });
  }

  getBySlug(tenantId: string, slug: string) {
    return this.run(() => {
      const row = this.sql.get('SELECT * FROM workspaces WHERE tenant_id = ? AND slug = ?').get(tenantId, slug) as Row | undefined;
      return row ? toWorkspace(row) : null;
    });
  }

  getDefault(tenantId: string) {
    return this.run(() => {
      const row = this.sql.get('SELECT * FROM workspaces WHERE tenant_id = ? AND is_default = 1').get(tenantId) as Row | undefined;
      return row ? toWorkspace(row) : null;
    });
  }

  list(tenantId: string, options: { includeDeleted?: boolean } = {}) {
    return this.run(() => {
      const where = options.includeDeleted ? '' : 'AND deleted_at IS NULL';
      const rows = this.sql.get(`SELECT * FROM workspaces WHERE tenant_id = ? ${where} ORDER BY deleted_at IS NOT NULL, is_default DESC, id`).all(tenantId) as Row[];
      return rows.map(toWorkspace);
    });
  }

  update(tenantId: string, id: string, patch: WorkspacePatch) {
    return this.run(() => {
      const sets: string[] = ['updated_at = ?'];
      const values: unknown[] = [patch.updatedAt];
      if (patch.name !== undefined) (sets.push('name = ?'), values.push(patch.name));
      if (patch.brandAccent !== undefined) (sets.push('brand_accent = ?'), values.push(patch.brandAccent));
      if (patch.deletedAt !== undefined) (sets.push('deleted_at = ?'), values.push(patch.deletedAt));
      const row = this.sql.get(`UPDATE workspaces SET ${sets.join(', ')} WHERE tenant_id = ? AND id = ? RETURNING *`).get(...values, tenantId, id) as Row | undefined;
      return row ? toWorkspace(row) : null;
    });
  }

  listDeletedBefore(before: string, limit: number, tenantId?: string) {
    return this.run(() =>
      (
        this.sql
          .get('SELECT * FROM workspaces WHERE deleted_at IS NOT NULL AND deleted_at <= ? AND (? IS NULL OR tenant_id = ?) ORDER BY deleted_at, id LIMIT ?')
          .all(before, tenantId ?? null, tenantId ?? null, limit) as Row[]
      ).map(toWorkspace),
    );
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
      const n = step.via === 'search-index' ? await this.purgeChunks(scope, budget) : await this.purgeRows(step.table, scope, budget);
      if (n > 0) deleted[step.table] = n;
      budget -= n;
    }
    if (budget <= 0) return { deleted, done: false };
    await this.run(() => this.sql.get('DELETE FROM workspaces WHERE tenant_id = ? AND id = ?').run(tenantId, id));
    deleted.workspaces = 1;
    return { deleted, done: true };
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

  private purgeRows(table: string, scope: { tenantId: string; workspaceId: string }, budget: number): Promise<number> {
    return this.run(
      () =>
        this.sql
          .get(`DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE tenant_id = ? AND workspace_id = ? LIMIT ?)`)
          .run(scope.tenantId, scope.workspaceId, budget).changes,
    );
  }
}

export class SqliteApiKeys implements ApiKeyStore {
  constructor(private readonly sql: Statements, private readonly run: Runner) {}

  insert(k: ApiKeyRecord) {
    return this.run(() => {
      try {
        this.sql
          .get('INSERT INTO api_keys (id, tenant_id, kind, workspace_id, name, prefix, secret_hash, scopes, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
          .run(k.id, k.tenantId, k.kind, k.workspaceId, k.name, k.prefix, k.secretHash, JSON.stringify(k.scopes), k.createdAt, k.revokedAt);
      } catch (error) {
        translateError(error);
      }
    });
  }

  findByHash(secretHash: string) {
    return this.run(() => {
      const row = this.sql.get('SELECT * FROM api_keys WHERE secret_hash = ?').get(secretHash) as Row | undefined;
      return row ? toApiKey(row) : null;
    });
  }

  list(tenantId: string) {
    return this.run(() => (this.sql.get('SELECT * FROM api_keys WHERE tenant_id = ? ORDER BY id').all(tenantId) as Row[]).map(toApiKey));
  }

  revoke(tenantId: string, id: string, at: string) {
    return this.run(
      () => this.sql.get('UPDATE api_keys SET revoked_at = ? WHERE tenant_id = ? AND id = ? AND revoked_at IS NULL').run(at, tenantId, id).changes > 0,
    );
  }
}

export class SqliteAudit implements AuditStore {
  constructor(private readonly sql: Statements, private readonly run: Runner) {}

  append(e: AuditEvent) {
    return this.run(() => {
      this.sql
        .get('INSERT INTO audit_events (id, tenant_id, workspace_id, type, actor, subject_id, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
        .run(e.id, e.tenantId, e.workspaceId, e.type, e.actor, e.subjectId, JSON.stringify(e.data), e.createdAt);
    });
  }

  list(tenantId: string, options: { type?: string; subjectId?: string } = {}) {
    return this.run(() => {
      const rows = this.sql
        .get('SELECT * FROM audit_events WHERE tenant_id = @tenantId AND (@type IS NULL OR type = @type) AND (@subjectId IS NULL OR subject_id = @subjectId) ORDER BY id')
        .all({ tenantId, type: options.type ?? null, subjectId: options.subjectId ?? null }) as Row[];
      return rows.map((r) => ({
        id: r.id as string,
        tenantId: r.tenant_id as string,
        workspaceId: (r.workspace_id as string | null) ?? null,
        type: r.type as string,
        actor: r.actor as string,
        subjectId: (r.subject_id as string | null) ?? null,
        data: JSON.parse(r.data as string),
        createdAt: r.created_at as string,
      }));
    });
  }
}
