import type { ClaimOptions, DocumentRecord } from '@panya/core';
import { claimable as queued, sql, SqlDocuments, SqlTable, tables, type SqlDriver } from '@panya/core/rows';
import type { DocumentWriter } from './document-writer.js';
import { SOURCE_SIZE } from './source-text.js';

/**
 * Documents through the storage kit. SQLite's own: batches written by the writer thread, and the
 * indexing claim, which holds the one write lock only to mark the rows.
 */
export class SqliteDocuments extends SqlDocuments {
  /** `writer`: where batches go instead of this connection (a worker thread's own), outside transactions. */
  constructor(driver: SqlDriver, private readonly writer?: DocumentWriter) {
    super(driver);
  }

  insertMany(docs: readonly DocumentRecord[]) {
    if (this.writer) return this.writer.insertMany(docs);
    return this.driver.atomic(async (tx) => {
      const rows = new SqlTable(tx, tables.DOCUMENTS);
      for (const d of docs) await rows.insert(d);
    });
  }

  /**
   * The claim holds the write lock only to mark the rows (up to `maxBytes` of content: SQLite
   * rewrites each whole row); their content is read afterwards, as any reader reads. A document
   * edited in between has a new revision and is pending again: that claim is dropped. An UPDATE
   * takes the write lock even when it matches nothing, so idle workers polling the queue would
   * each queue for the lock behind uploads and commits: a read (on `documents_queue`) asks first.
   */
  async claimForIndexing({ now, leaseUntil, limit, ids, holder, maxBytes }: ClaimOptions) {
    const table = this.rows.ref;
    const only = (alias: string) => (ids ? sql` AND ${sql.raw(alias)}.id ${sql.in(ids)}` : sql.empty);
    const claimable = (alias: string) => sql`${queued(alias, this.leases.ref, now)}${only(alias)}`;
    const { rows: waiting } = await this.driver.query(sql`SELECT 1 AS queued FROM ${table} w WHERE ${claimable('w')} LIMIT 1`);
    if (waiting.length === 0) return [];
    const withinBytes = maxBytes == null ? sql.raw('1 = 1') : sql`place = 1 OR running <= ${maxBytes}`;
    const claimed = await this.driver.atomic(async (tx) => {
      const { rows } = await tx.query(
        // Round-robin across tenants: every tenant's oldest document comes before anyone's second.
        sql`UPDATE ${table} SET status = 'indexing'
            WHERE id IN (
              SELECT id FROM (
                SELECT id, SUM(size) OVER (ORDER BY turn, updated_at ROWS UNBOUNDED PRECEDING) AS running, ROW_NUMBER() OVER (ORDER BY turn, updated_at) AS place
                FROM (
                  SELECT q.id, q.turn, q.updated_at, ${sql.raw(SOURCE_SIZE('d.content_md'))} AS size
                  FROM (
                    SELECT w.id, w.updated_at, ROW_NUMBER() OVER (PARTITION BY w.tenant_id ORDER BY w.updated_at) AS turn FROM ${table} w
                    WHERE ${claimable('w')}
                    ORDER BY turn, w.updated_at LIMIT ${limit}) q
                  JOIN ${table} d ON d.id = q.id))
              WHERE ${withinBytes})
            RETURNING id, tenant_id, revision`,
      );
      if (rows.length > 0) {
        const leases = rows.map((r) => sql`(${r.tenant_id}, ${r.id}, ${leaseUntil}, ${holder ?? null})`);
        await tx.query(
          sql`INSERT INTO ${this.leases.ref} (tenant_id, document_id, lease_until, holder) VALUES ${sql.join(leases, ', ')}
              ON CONFLICT (document_id) DO UPDATE SET lease_until = excluded.lease_until, holder = excluded.holder`,
        );
      }
      return rows;
    });
    if (claimed.length === 0) return [];
    const docs = await this.driver.query(sql`SELECT * FROM ${table} WHERE id ${sql.in(claimed.map((c) => c.id))}`);
    const byId = new Map(docs.rows.map((r) => [r.id as string, r]));
    return claimed.flatMap(({ id, revision }) => {
      const row = byId.get(id as string);
      return row && row.revision === revision && row.status === 'indexing' ? [{ doc: this.rows.codec.decode(row), revision: revision as number }] : [];
    });
  }
}
