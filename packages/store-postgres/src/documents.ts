import {
  DOCUMENT_STATUSES,
  type ClaimOptions,
  type DocumentPatch,
  type DocumentRecord,
  type DocumentRef,
  type DocumentStatus,
  type DocumentStore,
  type IndexingOutcome,
  type ListOptions,
  type PublicSurface,
  type Scope,
} from '@panya/core';
import { tables } from '@panya/core/rows';
import type { Conn, Names } from './database.js';
import { page, Table } from './rows.js';

export class PgDocuments implements DocumentStore {
  private readonly rows: Table<DocumentRecord>;

  constructor(private readonly db: Conn, n: Names) {
    this.rows = new Table(db, n, tables.DOCUMENTS);
  }

  private get table() {
    return this.rows.name;
  }

  async insert(d: DocumentRecord) {
    await this.rows.insert(d);
  }

  get(scope: Scope, id: string) {
    return this.rows.one(`SELECT * FROM ${this.table} WHERE tenant_id = $1 AND workspace_id = $2 AND id = $3`, [scope.tenantId, scope.workspaceId, id]);
  }

  getByExternalId(scope: Scope, externalId: string) {
    return this.rows.one(`SELECT * FROM ${this.table} WHERE tenant_id = $1 AND workspace_id = $2 AND external_id = $3`, [scope.tenantId, scope.workspaceId, externalId]);
  }

  async listExternalIds(scope: Scope) {
    const { rows } = await this.db.query(`SELECT id, external_id FROM ${this.table} WHERE tenant_id = $1 AND workspace_id = $2 AND external_id IS NOT NULL ORDER BY external_id`, [scope.tenantId, scope.workspaceId]);
    return rows.map((r) => ({ id: r.id as string, externalId: r.external_id as string }));
  }

  locate(tenantId: string, id: string) {
    return this.rows.one(`SELECT * FROM ${this.table} WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
  }

  async getRefs(scope: Scope, ids: readonly string[]) {
    if (ids.length === 0) return [];
    const { rows } = await this.db.query(`SELECT id, url, public_surfaces, audiences FROM ${this.table} WHERE tenant_id = $1 AND workspace_id = $2 AND id = ANY($3::text[])`, [scope.tenantId, scope.workspaceId, ids]);
    return rows.map((r): DocumentRef => ({ id: r.id as string, url: (r.url as string | null) ?? null, publicSurfaces: r.public_surfaces as DocumentRef['publicSurfaces'], audiences: r.audiences as string[] }));
  }

  async getMany(scope: Scope, ids: readonly string[]) {
    if (ids.length === 0) return [];
    return this.rows.all(`SELECT * FROM ${this.table} WHERE tenant_id = $1 AND workspace_id = $2 AND id = ANY($3::text[])`, [scope.tenantId, scope.workspaceId, ids]);
  }

  async list(scope: Scope, { after, limit }: ListOptions) {
    const rows = await this.rows.all(
      `SELECT * FROM ${this.table} WHERE tenant_id = $1 AND workspace_id = $2 AND ($3::text IS NULL OR id < $3) ORDER BY id DESC LIMIT $4`,
      [scope.tenantId, scope.workspaceId, after ?? null, limit + 1],
    );
    return page(rows, limit);
  }

  update(scope: Scope, id: string, patch: DocumentPatch) {
    // A requeued document gets a new revision: a claim taken on the old one can no longer complete.
    const requeue = patch.requeue ? ['revision = revision + 1', 'lease_until = NULL'] : [];
    return this.rows.updateSet(patch, requeue, 'tenant_id = $1 AND workspace_id = $2 AND id = $3', [scope.tenantId, scope.workspaceId, id]);
  }

  async delete(scope: Scope, id: string) {
    const { rowCount } = await this.db.query(`DELETE FROM ${this.table} WHERE tenant_id = $1 AND workspace_id = $2 AND id = $3`, [scope.tenantId, scope.workspaceId, id]);
    return (rowCount ?? 0) > 0;
  }

  listPublished(scope: Scope, surface: PublicSurface, limit: number) {
    return this.rows.all(
      `SELECT * FROM ${this.table} WHERE tenant_id = $1 AND workspace_id = $2 AND public_surfaces @> $3::jsonb ORDER BY id DESC LIMIT $4`,
      [scope.tenantId, scope.workspaceId, JSON.stringify([surface]), limit],
    );
  }

  listReadable(scope: Scope, audiences: readonly string[], limit: number) {
    return this.rows.all(
      `SELECT * FROM ${this.table} WHERE tenant_id = $1 AND workspace_id = $2 AND audiences ?| $3::text[] ORDER BY id DESC LIMIT $4`,
      [scope.tenantId, scope.workspaceId, [...audiences], limit],
    );
  }

  /** SKIP LOCKED: nodes claiming at the same moment take disjoint documents instead of waiting. */
  async claimForIndexing({ now, leaseUntil, limit, ids, holder, maxBytes }: ClaimOptions) {
    const { rows } = await this.db.query(
      // Round-robin across tenants: every tenant's oldest document comes before anyone's second.
      // Locking happens on the candidates; a row another claimer holds is skipped.
      `WITH queued AS (
         SELECT id, updated_at, row_number() OVER (PARTITION BY tenant_id ORDER BY updated_at) AS turn FROM ${this.table}
         WHERE (status = 'pending' OR (status = 'indexing' AND lease_until < $1))
           AND ($4::text[] IS NULL OR id = ANY($4::text[]))),
       picked AS (
         SELECT d.id, octet_length(d.content_md) AS size, q.turn, q.updated_at FROM ${this.table} d JOIN queued q ON q.id = d.id
         WHERE d.status = 'pending' OR (d.status = 'indexing' AND d.lease_until < $1)
         ORDER BY q.turn, q.updated_at LIMIT $3
         FOR UPDATE OF d SKIP LOCKED),
       -- Up to maxBytes of content, the first document always.
       capped AS (
         SELECT id FROM (
           SELECT id, SUM(size) OVER (ORDER BY turn, updated_at ROWS UNBOUNDED PRECEDING) AS running, ROW_NUMBER() OVER (ORDER BY turn, updated_at) AS place FROM picked) p
         WHERE place = 1 OR $6::bigint IS NULL OR running <= $6::bigint)
       UPDATE ${this.table} SET status = 'indexing', lease_until = $2, lease_holder = $5
       WHERE id IN (SELECT id FROM capped)
       RETURNING *`,
      [now, leaseUntil, limit, ids ? [...ids] : null, holder ?? null, maxBytes ?? null],
    );
    return rows.map((r) => ({ doc: this.rows.codec.decode(r), revision: r.revision as number }));
  }

  async renewLeases(holder: string, ids: readonly string[], leaseUntil: string) {
    const { rowCount } = await this.db.query(`UPDATE ${this.table} SET lease_until = $1 WHERE lease_holder = $2 AND status = 'indexing' AND id = ANY($3::text[])`, [leaseUntil, holder, [...ids]]);
    return rowCount ?? 0;
  }

  async reclaimLeases(node: string, keepPrefix: string) {
    const { rowCount } = await this.db.query(
      `UPDATE ${this.table} SET status = 'pending', lease_until = NULL, lease_holder = NULL
       WHERE status = 'indexing' AND left(lease_holder, length($1) + 1) = $1 || '/' AND left(lease_holder, length($2)) <> $2`,
      [node, keepPrefix],
    );
    return rowCount ?? 0;
  }

  async requeueAll(at: string, tenantId?: string) {
    const { rowCount } = await this.db.query(
      `UPDATE ${this.table} SET status = 'pending', error = NULL, revision = revision + 1, lease_until = NULL, updated_at = $1 WHERE $2::text IS NULL OR tenant_id = $2`,
      [at, tenantId ?? null],
    );
    return rowCount ?? 0;
  }

  async completeIndexing(scope: Scope, id: string, revision: number, outcome: IndexingOutcome, at: string) {
    const { rowCount } = await this.db.query(
      `UPDATE ${this.table} SET status = $1, error = $2, lease_until = NULL, updated_at = $3
       WHERE tenant_id = $4 AND workspace_id = $5 AND id = $6 AND revision = $7 AND status = 'indexing'`,
      [outcome.status, outcome.status === 'failed' ? outcome.error : null, at, scope.tenantId, scope.workspaceId, id, revision],
    );
    return (rowCount ?? 0) > 0;
  }

  async countByStatus(scope: Scope) {
    const counts = Object.fromEntries(DOCUMENT_STATUSES.map((s) => [s, 0])) as Record<DocumentStatus, number>;
    const { rows } = await this.db.query(`SELECT status, count(*)::int AS n FROM ${this.table} WHERE tenant_id = $1 AND workspace_id = $2 GROUP BY status`, [scope.tenantId, scope.workspaceId]);
    for (const r of rows) counts[r.status as DocumentStatus] = r.n as number;
    return counts;
  }
}
