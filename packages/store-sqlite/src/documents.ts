import { DOCUMENT_STATUSES, type ClaimOptions, type IndexingOutcome, type DocumentPatch, type DocumentRecord, type DocumentStatus, type DocumentStore, type ListOptions, type PublicSurface, type Scope } from '@panya/core';
import { translateError, type Runner, type Statements } from './database.js';

type Row = Record<string, unknown>;

const toDocument = (r: Row): DocumentRecord => ({
  id: r.id as string,
  tenantId: r.tenant_id as string,
  workspaceId: r.workspace_id as string,
  title: r.title as string,
  contentMd: r.content_md as string,
  url: (r.url as string | null) ?? null,
  publicSurfaces: JSON.parse(r.public_surfaces as string),
  externalId: (r.external_id as string | null) ?? null,
  metadata: JSON.parse((r.metadata as string | null) ?? '{}'),
  status: r.status as DocumentStatus,
  error: (r.error as string | null) ?? null,
  createdAt: r.created_at as string,
  updatedAt: r.updated_at as string,
});

const PATCH_COLUMNS: [keyof DocumentPatch, string, (v: unknown) => unknown][] = [
  ['title', 'title', (v) => v],
  ['contentMd', 'content_md', (v) => v],
  ['url', 'url', (v) => v],
  ['publicSurfaces', 'public_surfaces', (v) => JSON.stringify(v)],
  ['metadata', 'metadata', (v) => JSON.stringify(v)],
  ['externalId', 'external_id', (v) => v],
  ['status', 'status', (v) => v],
  ['error', 'error', (v) => v],
  ['updatedAt', 'updated_at', (v) => v],
];

export class SqliteDocuments implements DocumentStore {
  constructor(private readonly sql: Statements, private readonly run: Runner) {}

  insert(d: DocumentRecord) {
    return this.run(() => {
      try {
        this.sql
          .get('INSERT INTO documents (id, tenant_id, workspace_id, title, content_md, url, public_surfaces, external_id, metadata, status, error, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
          .run(d.id, d.tenantId, d.workspaceId, d.title, d.contentMd, d.url, JSON.stringify(d.publicSurfaces), d.externalId, JSON.stringify(d.metadata), d.status, d.error, d.createdAt, d.updatedAt);
      } catch (error) {
        translateError(error);
      }
    });
  }

  get(scope: Scope, id: string) {
    return this.run(() => {
      const row = this.sql.get('SELECT * FROM documents WHERE tenant_id = ? AND workspace_id = ? AND id = ?').get(scope.tenantId, scope.workspaceId, id) as Row | undefined;
      return row ? toDocument(row) : null;
    });
  }

  getByExternalId(scope: Scope, externalId: string) {
    return this.run(() => {
      const row = this.sql.get('SELECT * FROM documents WHERE tenant_id = ? AND workspace_id = ? AND external_id = ?').get(scope.tenantId, scope.workspaceId, externalId) as Row | undefined;
      return row ? toDocument(row) : null;
    });
  }

  listExternalIds(scope: Scope) {
    return this.run(() =>
      (this.sql.get('SELECT id, external_id FROM documents WHERE tenant_id = ? AND workspace_id = ? AND external_id IS NOT NULL ORDER BY external_id').all(scope.tenantId, scope.workspaceId) as Row[]).map((r) => ({
        id: r.id as string,
        externalId: r.external_id as string,
      })),
    );
  }

  locate(tenantId: string, id: string) {
    return this.run(() => {
      const row = this.sql.get('SELECT * FROM documents WHERE tenant_id = ? AND id = ?').get(tenantId, id) as Row | undefined;
      return row ? toDocument(row) : null;
    });
  }

  getMany(scope: Scope, ids: readonly string[]) {
    return this.run(() => {
      if (ids.length === 0) return [];
      const rows = this.sql
        .get('SELECT * FROM documents WHERE tenant_id = ? AND workspace_id = ? AND id IN (SELECT value FROM json_each(?))')
        .all(scope.tenantId, scope.workspaceId, JSON.stringify(ids)) as Row[];
      return rows.map(toDocument);
    });
  }

  list(scope: Scope, { after, limit }: ListOptions) {
    return this.run(() => {
      const rows = this.sql
        .get('SELECT * FROM documents WHERE tenant_id = @tenantId AND workspace_id = @workspaceId AND (@after IS NULL OR id < @after) ORDER BY id DESC LIMIT @limit')
        .all({ ...scope, after: after ?? null, limit: limit + 1 }) as Row[];
      const items = rows.slice(0, limit).map(toDocument);
      return { items, nextCursor: rows.length > limit ? (items.at(-1)?.id ?? null) : null };
    });
  }

  update(scope: Scope, id: string, patch: DocumentPatch) {
    return this.run(() => {
      const requeue = patch.title !== undefined || patch.contentMd !== undefined || patch.status === 'pending';
      const sets: string[] = requeue ? ['revision = revision + 1', 'lease_until = NULL'] : [];
      const values: unknown[] = [];
      for (const [key, column, encode] of PATCH_COLUMNS) {
        if (patch[key] !== undefined) {
          sets.push(`${column} = ?`);
          values.push(encode(patch[key]));
        }
      }
      let row: Row | undefined;
      try {
        row = this.sql
          .get(`UPDATE documents SET ${sets.join(', ')} WHERE tenant_id = ? AND workspace_id = ? AND id = ? RETURNING *`)
          .get(...values, scope.tenantId, scope.workspaceId, id) as Row | undefined;
      } catch (error) {
        translateError(error);
      }
      return row ? toDocument(row) : null;
    });
  }

  delete(scope: Scope, id: string) {
    return this.run(() => this.sql.get('DELETE FROM documents WHERE tenant_id = ? AND workspace_id = ? AND id = ?').run(scope.tenantId, scope.workspaceId, id).changes > 0);
  }

  listPublished(scope: Scope, surface: PublicSurface, limit: number) {
    return this.run(() =>
      (this.sql
        .get(
          `SELECT * FROM documents WHERE tenant_id = @tenantId AND workspace_id = @workspaceId
             AND EXISTS (SELECT 1 FROM json_each(public_surfaces) WHERE value = @surface) ORDER BY id DESC LIMIT @limit`,
        )
        .all({ ...scope, surface, limit }) as Row[]).map(toDocument),
    );
  }

  claimForIndexing({ now, leaseUntil, limit, ids, holder }: ClaimOptions) {
    return this.run(() => {
      const rows = this.sql
        .get(
          // Round-robin across tenants: every tenant's oldest document comes before anyone's second.
          `UPDATE documents SET status = 'indexing', lease_until = @leaseUntil, lease_holder = @holder
           WHERE id IN (
             SELECT id FROM (
               SELECT id, updated_at, ROW_NUMBER() OVER (PARTITION BY tenant_id ORDER BY updated_at) AS turn FROM documents
               WHERE (status = 'pending' OR (status = 'indexing' AND lease_until < @now))
                 AND (@ids IS NULL OR id IN (SELECT value FROM json_each(@ids))))
             ORDER BY turn, updated_at LIMIT @limit)
           RETURNING *`,
        )
        .all({ now, leaseUntil, limit, holder: holder ?? null, ids: ids ? JSON.stringify(ids) : null }) as Row[];
      return rows.map((r) => ({ doc: toDocument(r), revision: r.revision as number }));
    });
  }

  renewLeases(holder: string, ids: readonly string[], leaseUntil: string) {
    return this.run(
      () =>
        this.sql
          .get(`UPDATE documents SET lease_until = @leaseUntil WHERE lease_holder = @holder AND status = 'indexing' AND id IN (SELECT value FROM json_each(@ids))`)
          .run({ holder, leaseUntil, ids: JSON.stringify(ids) }).changes,
    );
  }

  reclaimLeases(node: string, keepPrefix: string) {
    return this.run(
      () =>
        this.sql
          .get(
            `UPDATE documents SET status = 'pending', lease_until = NULL, lease_holder = NULL
             WHERE status = 'indexing' AND substr(lease_holder, 1, length(@node) + 1) = @node || '/' AND substr(lease_holder, 1, length(@keep)) <> @keep`,
          )
          .run({ node, keep: keepPrefix }).changes,
    );
  }

  requeueAll(at: string, tenantId?: string) {
    return this.run(
      () =>
        this.sql
          .get(`UPDATE documents SET status = 'pending', error = NULL, revision = revision + 1, lease_until = NULL, updated_at = @at WHERE @tenantId IS NULL OR tenant_id = @tenantId`)
          .run({ at, tenantId: tenantId ?? null }).changes,
    );
  }

  completeIndexing(scope: Scope, id: string, revision: number, outcome: IndexingOutcome, at: string) {
    return this.run(
      () =>
        this.sql
          .get(
            `UPDATE documents SET status = @status, error = @error, lease_until = NULL, updated_at = @at
             WHERE tenant_id = @tenantId AND workspace_id = @workspaceId AND id = @id AND revision = @revision AND status = 'indexing'`,
          )
          .run({ ...scope, id, revision, at, status: outcome.status, error: outcome.status === 'failed' ? outcome.error : null }).changes > 0,
    );
  }

  countByStatus(scope: Scope) {
    return this.run(() => {
      const counts = Object.fromEntries(DOCUMENT_STATUSES.map((s) => [s, 0])) as Record<DocumentStatus, number>;
      const rows = this.sql.get('SELECT status, COUNT(*) AS n FROM documents WHERE tenant_id = ? AND workspace_id = ? GROUP BY status').all(scope.tenantId, scope.workspaceId) as Row[];
      for (const r of rows) counts[r.status as DocumentStatus] = r.n as number;
      return counts;
    });
  }
}
