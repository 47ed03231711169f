import {
  DOCUMENT_STATUSES,
  type ClaimOptions,
  type DocumentPatch,
  type DocumentRecord,
  type DocumentStatus,
  type DocumentStore,
  type IndexingOutcome,
  type ListOptions,
  type PublicSurface,
  type Scope,
} from '@panya/core';
import { iso, json, type Conn, type Names, type Row } from './database.js';

const toDocument = (r: Row): DocumentRecord => ({
  id: r.id as string,
  tenantId: r.tenant_id as string,
  workspaceId: r.workspace_id as string,
  title: r.title as string,
  contentMd: r.content_md as string,
  url: (r.url as string | null) ?? null,
  publicSurfaces: json(r.public_surfaces),
  externalId: (r.external_id as string | null) ?? null,
  metadata: json(r.metadata ?? {}),
  status: r.status as DocumentStatus,
  error: (r.error as string | null) ?? null,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
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

export class PgDocuments implements DocumentStore {
  constructor(private readonly db: Conn, private readonly n: Names) {}

  private get table() {
    return this.n.t('documents');
  }

  async insert(d: DocumentRecord) {
    await this.db.query(
      `INSERT INTO ${this.table} (id, tenant_id, workspace_id, title, content_md, url, public_surfaces, status, error, created_at, updated_at, external_id, metadata) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [d.id, d.tenantId, d.workspaceId, d.title, d.contentMd, d.url, JSON.stringify(d.publicSurfaces), d.status, d.error, d.createdAt, d.updatedAt, d.externalId, JSON.stringify(d.metadata)],
    );
  }

  async get(scope: Scope, id: string) {
    const { rows } = await this.db.query(`SELECT * FROM ${this.table} WHERE tenant_id = $1 AND workspace_id = $2 AND id = $3`, [scope.tenantId, scope.workspaceId, id]);
    return rows[0] ? toDocument(rows[0]) : null;
  }

  async getByExternalId(scope: Scope, externalId: string) {
    const { rows } = await this.db.query(`SELECT * FROM ${this.table} WHERE tenant_id = $1 AND workspace_id = $2 AND external_id = $3`, [scope.tenantId, scope.workspaceId, externalId]);
    return rows[0] ? toDocument(rows[0]) : null;
  }

  async listExternalIds(scope: Scope) {
    const { rows } = await this.db.query(`SELECT id, external_id FROM ${this.table} WHERE tenant_id = $1 AND workspace_id = $2 AND external_id IS NOT NULL ORDER BY external_id`, [scope.tenantId, scope.workspaceId]);
    return rows.map((r) => ({ id: r.id as string, externalId: r.external_id as string }));
  }

  async locate(tenantId: string, id: string) {
    const { rows } = await this.db.query(`SELECT * FROM ${this.table} WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
    return rows[0] ? toDocument(rows[0]) : null;
  }

  async getMany(scope: Scope, ids: readonly string[]) {
    if (ids.length === 0) return [];
    const { rows } = await this.db.query(`SELECT * FROM ${this.table} WHERE tenant_id = $1 AND workspace_id = $2 AND id = ANY($3::text[])`, [scope.tenantId, scope.workspaceId, ids]);
    return rows.map(toDocument);
  }

  async list(scope: Scope, { after, limit }: ListOptions) {
    const { rows } = await this.db.query(
      `SELECT * FROM ${this.table} WHERE tenant_id = $1 AND workspace_id = $2 AND ($3::text IS NULL OR id < $3) ORDER BY id DESC LIMIT $4`,
      [scope.tenantId, scope.workspaceId, after ?? null, limit + 1],
    );
    const items = rows.slice(0, limit).map(toDocument);
    return { items, nextCursor: rows.length > limit ? (items.at(-1)?.id ?? null) : null };
  }

  async update(scope: Scope, id: string, patch: DocumentPatch) {
    const requeue = patch.title !== undefined || patch.contentMd !== undefined || patch.status === 'pending';
    const sets: string[] = requeue ? ['revision = revision + 1', 'lease_until = NULL'] : [];
    const values: unknown[] = [];
    for (const [key, column, encode] of PATCH_COLUMNS) {
      if (patch[key] !== undefined) {
        values.push(encode(patch[key]));
        sets.push(`${column} = $${values.length}`);
      }
    }
    values.push(scope.tenantId, scope.workspaceId, id);
    const at = values.length - 2;
    const { rows } = await this.db.query(
      `UPDATE ${this.table} SET ${sets.join(', ')} WHERE tenant_id = $${at} AND workspace_id = $${at + 1} AND id = $${at + 2} RETURNING *`,
      values,
    );
    return rows[0] ? toDocument(rows[0]) : null;
  }

  async delete(scope: Scope, id: string) {
    const { rowCount } = await this.db.query(`DELETE FROM ${this.table} WHERE tenant_id = $1 AND workspace_id = $2 AND id = $3`, [scope.tenantId, scope.workspaceId, id]);
    return (rowCount ?? 0) > 0;
  }

  async listPublished(scope: Scope, surface: PublicSurface, limit: number) {
    const { rows } = await this.db.query(
      `SELECT * FROM ${this.table} WHERE tenant_id = $1 AND workspace_id = $2 AND public_surfaces @> $3::jsonb ORDER BY id DESC LIMIT $4`,
      [scope.tenantId, scope.workspaceId, JSON.stringify([surface]), limit],
    );
    return rows.map(toDocument);
  }

  /** SKIP LOCKED: nodes claiming at the same moment take disjoint documents instead of waiting. */
  async claimForIndexing({ now, leaseUntil, limit, ids, holder }: ClaimOptions) {
    const { rows } = await this.db.query(
      // Round-robin across tenants: every tenant's oldest document comes before anyone's second.
      // Locking happens on the candidates; a row another claimer holds is skipped.
      `WITH queued AS (
         SELECT id, updated_at, row_number() OVER (PARTITION BY tenant_id ORDER BY updated_at) AS turn FROM ${this.table}
         WHERE (status = 'pending' OR (status = 'indexing' AND lease_until < $1))
           AND ($4::text[] IS NULL OR id = ANY($4::text[]))),
       picked AS (
         SELECT d.id FROM ${this.table} d JOIN queued q ON q.id = d.id
         WHERE d.status = 'pending' OR (d.status = 'indexing' AND d.lease_until < $1)
         ORDER BY q.turn, q.updated_at LIMIT $3
         FOR UPDATE OF d SKIP LOCKED)
       UPDATE ${this.table} SET status = 'indexing', lease_until = $2, lease_holder = $5
       WHERE id IN (SELECT id FROM picked)
       RETURNING *`,
      [now, leaseUntil, limit, ids ? [...ids] : null, holder ?? null],
    );
    return rows.map((r) => ({ doc: toDocument(r), revision: r.revision as number }));
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
