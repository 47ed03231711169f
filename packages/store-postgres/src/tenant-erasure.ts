import { childrenFirst } from '@panya/core';
import { ident, type Conn, type Names } from './database.js';

/** Kept after erasure: the tombstone is what answers 410 for the erased slug. */
const KEPT = new Set(['tenant_tombstones']);

/** Tables of the store's schema that carry a `tenant_id` column (what erasure must empty of a tenant). */
export async function tenantScopedTables(db: Conn, n: Names): Promise<string[]> {
  const { rows } = await db.query<{ table_name: string }>(
    `SELECT c.table_name FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name)
     WHERE c.table_schema = $1 AND c.column_name = 'tenant_id' AND t.table_type = 'BASE TABLE' ORDER BY c.table_name`,
    [n.schema],
  );
  return rows.map((r) => r.table_name);
}

/**
 * Deletes every row of the tenant: chunks first (their triggers write the search change log,
 * emptied after them), then every other table with `tenant_id` (found in the schema, so a table
 * added later is covered without an entry here), referencing tables first, then the tenant row.
 */
export async function eraseTenantRows(db: Conn, n: Names, tenantId: string): Promise<Record<string, number>> {
  const deleted: Record<string, number> = {};
  const remove = async (table: string, column = 'tenant_id') => {
    const { rowCount } = await db.query(`DELETE FROM ${n.t(ident(table))} WHERE ${column} = $1`, [tenantId]);
    if (rowCount) deleted[table] = rowCount;
  };
  await remove('chunks');
  const tables = (await tenantScopedTables(db, n)).filter((t) => !KEPT.has(t) && t !== 'chunks');
  const { rows: references } = await db.query<{ source: string; target: string }>(
    `SELECT cl.relname AS source, ref.relname AS target FROM pg_constraint c
       JOIN pg_class cl ON cl.oid = c.conrelid JOIN pg_class ref ON ref.oid = c.confrelid
       JOIN pg_namespace ns ON ns.oid = cl.relnamespace
     WHERE c.contype = 'f' AND ns.nspname = $1`,
    [n.schema],
  );
  for (const table of childrenFirst(tables, references.map((r) => [r.source, r.target] as const))) await remove(table);
  await remove('tenants', 'id');
  return deleted;
}
