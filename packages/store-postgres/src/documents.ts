import type { ClaimOptions } from '@panya/core';
import { claimable as queued, sql, SqlDocuments } from '@panya/core/rows';

/** Documents through the storage kit; the indexing claim is Postgres's own: rows lock one by one. */
export class PgDocuments extends SqlDocuments {
  /** SKIP LOCKED: nodes claiming at the same moment take disjoint documents instead of waiting. */
  async claimForIndexing({ now, leaseUntil, limit, ids, holder, maxBytes }: ClaimOptions) {
    const table = this.rows.ref;
    const claimable = (alias: string) => queued(alias, this.leases.ref, now);
    const only = ids ? sql` AND q0.id ${sql.in(ids)}` : sql.empty;
    const withinBytes = maxBytes == null ? sql.raw('1 = 1') : sql`place = 1 OR running <= ${maxBytes}`;
    const { rows } = await this.driver.query(
      // Round-robin across tenants: every tenant's oldest document comes before anyone's second.
      // Locking happens on the candidates; a row another claimer holds is skipped.
      sql`WITH queued AS (
            SELECT q0.id, q0.updated_at, row_number() OVER (PARTITION BY q0.tenant_id ORDER BY q0.updated_at) AS turn FROM ${table} q0
            WHERE ${claimable('q0')}${only}),
          picked AS (
            SELECT d.id, octet_length(d.content_md) AS size, q.turn, q.updated_at FROM ${table} d JOIN queued q ON q.id = d.id
            WHERE ${claimable('d')}
            ORDER BY q.turn, q.updated_at LIMIT ${limit}
            FOR UPDATE OF d SKIP LOCKED),
          -- Up to maxBytes of content, the first document always.
          capped AS (
            SELECT id FROM (
              SELECT id, SUM(size) OVER (ORDER BY turn, updated_at ROWS UNBOUNDED PRECEDING) AS running, ROW_NUMBER() OVER (ORDER BY turn, updated_at) AS place FROM picked) p
            WHERE ${withinBytes}),
          claimed AS (
            UPDATE ${table} SET status = 'indexing'
            WHERE id IN (SELECT id FROM capped)
            RETURNING *),
          leased AS (
            INSERT INTO ${this.leases.ref} (tenant_id, document_id, lease_until, holder) SELECT tenant_id, id, CAST(${leaseUntil} AS timestamptz), CAST(${holder ?? null} AS text) FROM claimed
            ON CONFLICT (document_id) DO UPDATE SET lease_until = excluded.lease_until, holder = excluded.holder)
          SELECT * FROM claimed`,
    );
    return rows.map((r) => ({ doc: this.rows.codec.decode(r), revision: Number(r.revision) }));
  }
}
