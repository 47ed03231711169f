import {
  DOCUMENT_STATUSES,
  type ClaimOptions,
  type DocumentPatch,
  type DocumentRecord,
  type DocumentRef,
  type DocumentStatus,
  type DocumentStore,
  type IndexingClaim,
  type IndexingOutcome,
  type ListOptions,
  type PublicSurface,
} from '../../ports/store.js';
import type { Scope } from '../../ports/scope.js';
import { page } from '../codec.js';
import type { SqlDriver } from '../driver.js';
import { sql, type Sql } from '../sql.js';
import type { TableOptions } from '../ddl.js';
import { SqlTable } from '../table.js';
import { DOCUMENT_LEASES, DOCUMENTS, type DocumentLease } from '../tables.js';

/**
 * The indexing queue's rows, written as the WHERE of its partial index `documents_queue`: a store
 * (SQLite) uses a partial index only for a query that names its condition literally, and without
 * it a queue query reads every document's row, content included.
 */
export const QUEUED = sql.raw("status IN ('pending', 'indexing')");

/** The leases' table: a lease goes with its document. */
export const DOCUMENT_LEASE_TABLE: TableOptions<DocumentLease> = {
  primaryKey: ['documentId'],
  references: [{ fields: ['documentId'], table: 'documents', onDelete: 'cascade' }],
};

/**
 * Whether the document `alias` names may be claimed at `now`: queued, and pending or indexing
 * under no live lease (the holder died or let it lapse). `leases` is the store's lease table.
 */
export function claimable(alias: string, leases: Sql, now: string): Sql {
  const d = sql.raw(alias);
  return sql`${d}.${QUEUED} AND (${d}.status = 'pending' OR (${d}.status = 'indexing' AND NOT EXISTS (SELECT 1 FROM ${leases} l WHERE l.document_id = ${d}.id AND l.lease_until >= ${now})))`;
}

/**
 * Documents on any SQL store: reads, edits and the indexing queue's leases. Claiming a batch for
 * indexing is the store's own (how it locks: one writer on SQLite, skipped row locks on
 * Postgres), and so are batch inserts where a store has them.
 */
export abstract class SqlDocuments implements DocumentStore {
  protected readonly rows: SqlTable<DocumentRecord>;
  protected readonly leases: SqlTable<DocumentLease>;

  constructor(protected readonly driver: SqlDriver) {
    this.rows = new SqlTable(driver, DOCUMENTS);
    this.leases = new SqlTable(driver, DOCUMENT_LEASES);
  }

  abstract claimForIndexing(options: ClaimOptions): Promise<IndexingClaim[]>;

  private scoped(scope: Scope): Sql {
    return sql`tenant_id = ${scope.tenantId} AND workspace_id = ${scope.workspaceId}`;
  }

  async insert(d: DocumentRecord) {
    await this.rows.insert(d);
  }

  get(scope: Scope, id: string) {
    return this.rows.get(scope, id);
  }

  getByExternalId(scope: Scope, externalId: string) {
    return this.rows.one(sql`SELECT * FROM ${this.rows.ref} WHERE ${this.scoped(scope)} AND external_id = ${externalId}`);
  }

  async listExternalIds(scope: Scope) {
    const { rows } = await this.driver.query(sql`SELECT id, external_id FROM ${this.rows.ref} WHERE ${this.scoped(scope)} AND external_id IS NOT NULL ORDER BY external_id`);
    return rows.map((r) => ({ id: r.id as string, externalId: r.external_id as string }));
  }

  locate(tenantId: string, id: string) {
    return this.rows.one(sql`SELECT * FROM ${this.rows.ref} WHERE tenant_id = ${tenantId} AND id = ${id}`);
  }

  async getRefs(scope: Scope, ids: readonly string[]) {
    if (ids.length === 0) return [];
    const docs = await this.rows.all(sql`SELECT id, url, public_surfaces, audiences FROM ${this.rows.ref} WHERE ${this.scoped(scope)} AND id ${sql.in(ids)}`);
    return docs.map((d): DocumentRef => ({ id: d.id, url: d.url ?? null, publicSurfaces: d.publicSurfaces, audiences: d.audiences }));
  }

  async getMany(scope: Scope, ids: readonly string[]) {
    if (ids.length === 0) return [];
    return this.rows.all(sql`SELECT * FROM ${this.rows.ref} WHERE ${this.scoped(scope)} AND id ${sql.in(ids)}`);
  }

  list(scope: Scope, { after, limit }: ListOptions) {
    return this.rows.list(scope, { after, limit });
  }

  async update(scope: Scope, id: string, patch: DocumentPatch) {
    // A requeued document gets a new revision: a claim taken on the old one can no longer complete.
    const sets = [...this.rows.sets(patch), ...(patch.requeue ? [sql`revision = revision + 1`] : [])];
    const where = sql`${this.scoped(scope)} AND id = ${id}`;
    if (sets.length === 0) return this.rows.one(sql`SELECT * FROM ${this.rows.ref} WHERE ${where}`);
    const updated = await this.rows.one(sql`UPDATE ${this.rows.ref} SET ${sql.join(sets, ', ')} WHERE ${where} RETURNING *`);
    if (updated && patch.requeue) await this.endLeases(sql`tenant_id = ${scope.tenantId} AND document_id = ${id}`);
    return updated;
  }

  delete(scope: Scope, id: string) {
    return this.rows.delete(scope, id);
  }

  listPublished(scope: Scope, surface: PublicSurface, limit: number) {
    return this.rows.all(sql`SELECT * FROM ${this.rows.ref} WHERE ${this.scoped(scope)} AND ${sql.jsonArrayHas('public_surfaces', surface)} ORDER BY id DESC LIMIT ${limit}`);
  }

  listReadable(scope: Scope, audiences: readonly string[], limit: number) {
    return this.rows.all(sql`SELECT * FROM ${this.rows.ref} WHERE ${this.scoped(scope)} AND ${sql.jsonArrayHasAny('audiences', audiences)} ORDER BY id DESC LIMIT ${limit}`);
  }

  renewLeases(holder: string, ids: readonly string[], leaseUntil: string) {
    if (ids.length === 0) return Promise.resolve(0);
    return this.leases.run(
      sql`UPDATE ${this.leases.ref} SET lease_until = ${leaseUntil}
          WHERE holder = ${holder} AND document_id IN (SELECT id FROM ${this.rows.ref} WHERE ${QUEUED} AND status = 'indexing' AND id ${sql.in(ids)})`,
    );
  }

  async reclaimLeases(node: string, keepPrefix: string) {
    const earlier = sql`${sql.startsWith('holder', `${node}/`)} AND NOT ${sql.startsWith('holder', keepPrefix)}`;
    const reclaimed = await this.rows.run(
      sql`UPDATE ${this.rows.ref} SET status = 'pending' WHERE ${QUEUED} AND status = 'indexing' AND id IN (SELECT document_id FROM ${this.leases.ref} WHERE ${earlier})`,
    );
    await this.endLeases(earlier);
    return reclaimed;
  }

  async requeueAll(at: string, tenantId?: string) {
    const tenant = tenantId === undefined ? sql.empty : sql` WHERE tenant_id = ${tenantId}`;
    const requeued = await this.rows.run(sql`UPDATE ${this.rows.ref} SET status = 'pending', error = NULL, revision = revision + 1, updated_at = ${at}${tenant}`);
    await this.endLeases(tenantId === undefined ? sql.raw('1 = 1') : sql`tenant_id = ${tenantId}`);
    return requeued;
  }

  /** A lease ends with its indexing. */
  async completeIndexing(scope: Scope, id: string, revision: number, outcome: IndexingOutcome, at: string) {
    const written = await this.rows.run(
      sql`UPDATE ${this.rows.ref} SET status = ${outcome.status}, error = ${outcome.status === 'failed' ? outcome.error : null}, updated_at = ${at}
          WHERE ${this.scoped(scope)} AND id = ${id} AND revision = ${revision} AND status = 'indexing'`,
    );
    // Only a recorded outcome ends the lease: one not recorded may be another holder's claim now.
    if (written > 0) await this.endLeases(sql`tenant_id = ${scope.tenantId} AND document_id = ${id}`);
    return written > 0;
  }

  /**
   * Removes leases after their documents left `indexing`, as a statement of its own: a lease left by
   * a crash between the two is harmless (a pending document is claimable whatever its lease, and
   * the claim replaces it).
   */
  private endLeases(where: Sql) {
    return this.leases.run(sql`DELETE FROM ${this.leases.ref} WHERE ${where}`);
  }

  async countByStatus(scope: Scope) {
    const counts = Object.fromEntries(DOCUMENT_STATUSES.map((s) => [s, 0])) as Record<DocumentStatus, number>;
    const { rows } = await this.driver.query(sql`SELECT status, COUNT(*) AS n FROM ${this.rows.ref} WHERE ${this.scoped(scope)} GROUP BY status`);
    for (const r of rows) counts[r.status as DocumentStatus] = Number(r.n);
    return counts;
  }
}
