import { DOCUMENT_STATUSES, type ClaimOptions, type IndexingOutcome, type DocumentPatch, type DocumentRecord, type DocumentRef, type DocumentStatus, type DocumentStore, type ListOptions, type PublicSurface, type Scope } from '@panya/core';
import { tables } from '@panya/core/rows';
import type { Runner, Statements } from './database.js';
import type { DocumentWriter } from './document-writer.js';
import { page, Table } from './rows.js';

type Row = Record<string, unknown>;

export class SqliteDocuments implements DocumentStore {
  private readonly rows: Table<DocumentRecord>;

  /** `writer`: where batches go instead of this connection (a worker thread's own), outside transactions. */
  constructor(private readonly sql: Statements, private readonly run: Runner, private readonly writer?: DocumentWriter) {
    this.rows = new Table(sql, tables.DOCUMENTS);
  }

  insert(d: DocumentRecord) {
    return this.run(() => void this.rows.insert(d));
  }

  insertMany(docs: readonly DocumentRecord[]) {
    if (this.writer) return this.writer.insertMany(docs);
    const insertAll = this.sql.db.transaction(() => {
      for (const d of docs) this.rows.insert(d);
    });
    return this.run(() => insertAll());
  }

  get(scope: Scope, id: string) {
    return this.run(() => this.rows.get(scope, id));
  }

  getByExternalId(scope: Scope, externalId: string) {
    return this.run(() => this.rows.one('SELECT * FROM documents WHERE tenant_id = ? AND workspace_id = ? AND external_id = ?', scope.tenantId, scope.workspaceId, externalId));
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
    return this.run(() => this.rows.one('SELECT * FROM documents WHERE tenant_id = ? AND id = ?', tenantId, id));
  }

  getRefs(scope: Scope, ids: readonly string[]) {
    return this.run(() =>
      ids.length === 0
        ? []
        : (this.sql.get('SELECT id, url, public_surfaces, audiences FROM documents WHERE tenant_id = ? AND workspace_id = ? AND id IN (SELECT value FROM json_each(?))').all(scope.tenantId, scope.workspaceId, JSON.stringify(ids)) as Row[]).map((r) => ({
            id: r.id as string,
            url: (r.url as string | null) ?? null,
            publicSurfaces: JSON.parse(r.public_surfaces as string) as DocumentRef['publicSurfaces'],
            audiences: JSON.parse(r.audiences as string) as string[],
          })),
    );
  }

  getMany(scope: Scope, ids: readonly string[]) {
    return this.run(() =>
      ids.length === 0 ? [] : this.rows.all('SELECT * FROM documents WHERE tenant_id = ? AND workspace_id = ? AND id IN (SELECT value FROM json_each(?))', scope.tenantId, scope.workspaceId, JSON.stringify(ids)),
    );
  }

  list(scope: Scope, { after, limit }: ListOptions) {
    return this.run(() =>
      page(this.rows.all('SELECT * FROM documents WHERE tenant_id = @tenantId AND workspace_id = @workspaceId AND (@after IS NULL OR id < @after) ORDER BY id DESC LIMIT @limit', { ...scope, after: after ?? null, limit: limit + 1 }), limit),
    );
  }

  update(scope: Scope, id: string, patch: DocumentPatch) {
    // A requeued document gets a new revision: a claim taken on the old one can no longer complete.
    const requeue = patch.requeue ? ['revision = revision + 1', 'lease_until = NULL'] : [];
    return this.run(() => this.rows.updateSet(patch, requeue, 'tenant_id = ? AND workspace_id = ? AND id = ?', scope.tenantId, scope.workspaceId, id));
  }

  delete(scope: Scope, id: string) {
    return this.run(() => this.sql.get('DELETE FROM documents WHERE tenant_id = ? AND workspace_id = ? AND id = ?').run(scope.tenantId, scope.workspaceId, id).changes > 0);
  }

  listPublished(scope: Scope, surface: PublicSurface, limit: number) {
    return this.run(() =>
      this.rows.all(
        `SELECT * FROM documents WHERE tenant_id = @tenantId AND workspace_id = @workspaceId
           AND EXISTS (SELECT 1 FROM json_each(public_surfaces) WHERE value = @surface) ORDER BY id DESC LIMIT @limit`,
        { ...scope, surface, limit },
      ),
    );
  }

  listReadable(scope: Scope, audiences: readonly string[], limit: number) {
    return this.run(() =>
      this.rows.all(
        `SELECT * FROM documents WHERE tenant_id = @tenantId AND workspace_id = @workspaceId
           AND EXISTS (SELECT 1 FROM json_each(audiences) a WHERE a.value IN (SELECT value FROM json_each(@audiences))) ORDER BY id DESC LIMIT @limit`,
        { ...scope, audiences: JSON.stringify(audiences), limit },
      ),
    );
  }

  /**
   * The claim holds the write lock only to mark the rows (up to `maxBytes` of content: SQLite
   * rewrites each whole row); their content is read afterwards, as any reader reads. A document
   * edited in between has a new revision and is pending again: that claim is dropped.
   */
  async claimForIndexing({ now, leaseUntil, limit, ids, holder, maxBytes }: ClaimOptions) {
    const claimed = await this.run(
      () =>
        this.sql
          .get(
            // Round-robin across tenants: every tenant's oldest document comes before anyone's second.
            `UPDATE documents SET status = 'indexing', lease_until = @leaseUntil, lease_holder = @holder
             WHERE id IN (
               SELECT id FROM (
                 SELECT id, SUM(size) OVER (ORDER BY turn, updated_at ROWS UNBOUNDED PRECEDING) AS running, ROW_NUMBER() OVER (ORDER BY turn, updated_at) AS place
                 FROM (
                   -- octet_length of a column reads the row's header, not its content.
                   SELECT q.id, q.turn, q.updated_at, octet_length(d.content_md) AS size
                   FROM (
                     SELECT id, updated_at, ROW_NUMBER() OVER (PARTITION BY tenant_id ORDER BY updated_at) AS turn FROM documents
                     WHERE (status = 'pending' OR (status = 'indexing' AND lease_until < @now))
                       AND (@ids IS NULL OR id IN (SELECT value FROM json_each(@ids)))
                     ORDER BY turn, updated_at LIMIT @limit) q
                   JOIN documents d ON d.id = q.id))
               WHERE place = 1 OR @maxBytes IS NULL OR running <= @maxBytes)
             RETURNING id, revision`,
          )
          .all({ now, leaseUntil, limit, holder: holder ?? null, ids: ids ? JSON.stringify(ids) : null, maxBytes: maxBytes ?? null }) as { id: string; revision: number }[],
    );
    if (claimed.length === 0) return [];
    const rows = await this.run(() => this.sql.get(`SELECT * FROM documents WHERE id IN (SELECT value FROM json_each(?))`).all(JSON.stringify(claimed.map((c) => c.id))) as Row[]);
    const byId = new Map(rows.map((r) => [r.id as string, r]));
    return claimed.flatMap(({ id, revision }) => {
      const row = byId.get(id);
      return row && row.revision === revision && row.status === 'indexing' ? [{ doc: this.rows.codec.decode(row), revision }] : [];
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
