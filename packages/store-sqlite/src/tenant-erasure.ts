import { childrenFirst } from '@panya/core';
import { eraseCounterRows, type Counters } from './counters.js';
import type { Db, Runner } from './database.js';
import type { SqliteSearchIndex } from './search-index.js';
import type { VectorIndexes } from './vector-index.js';

/** Kept after erasure: the tombstone is what answers 410 for the erased slug. */
const KEPT = new Set(['tenant_tombstones']);

/** Tables of the schema that carry a `tenant_id` column (what erasure must empty of a tenant). */
export function tenantScopedTables(db: Db): string[] {
  const rows = db
    .prepare("SELECT m.name AS name FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE m.type = 'table' AND p.name = 'tenant_id' ORDER BY m.name")
    .all() as { name: string }[];
  return rows.map((r) => r.name);
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Deletes every row of the tenant from every table with `tenant_id` (found in the schema, so a
 * table added later is covered without an entry here), referencing tables first, then the tenant
 * row. Chunks must already be gone (through the search index, which owns their FTS and vector rows).
 */
export function eraseTenantRows(db: Db, tenantId: string): Record<string, number> {
  const tables = tenantScopedTables(db).filter((t) => !KEPT.has(t));
  const references = db
    .prepare("SELECT m.name AS source, f.\"table\" AS target FROM sqlite_master m JOIN pragma_foreign_key_list(m.name) f WHERE m.type = 'table'")
    .all() as { source: string; target: string }[];
  const deleted: Record<string, number> = {};
  for (const table of childrenFirst(tables, references.map((r) => [r.source, r.target] as const))) {
    const n = db.prepare(`DELETE FROM ${quote(table)} WHERE tenant_id = ?`).run(tenantId).changes;
    if (n > 0) deleted[table] = n;
  }
  const tenant = db.prepare('DELETE FROM tenants WHERE id = ?').run(tenantId).changes;
  if (tenant > 0) deleted.tenants = tenant;
  return deleted;
}

/**
 * A tenant's erasure on this store: its workspaces' HNSW graph files (derived data, rebuilt from
 * the rows should the erasure roll back), its chunks through the search index, its rows in the
 * counters' file (outside the main transaction: a failed erasure keeps the tenant and loses only
 * its query events, which the erasure was removing anyway), then every table of the main file.
 */
export async function eraseTenant(
  id: string,
  parts: { db: Db; run: Runner; search: SqliteSearchIndex; counters: Counters; graphs?: VectorIndexes | undefined },
): Promise<Record<string, number>> {
  const { db, run, search, counters, graphs } = parts;
  const workspaces = await run(() => (db.prepare('SELECT id FROM workspaces WHERE tenant_id = ?').raw().all(id) as [string][]).map((r) => r[0]));
  const graphFiles = (await graphs?.drop(workspaces.map((workspaceId) => ({ tenantId: id, workspaceId })))) ?? 0;
  const chunks = await search.removeTenantChunks(id);
  const counted = await counters.run(() => eraseCounterRows(counters.db, id));
  const deleted = await run(() => eraseTenantRows(db, id));
  return { ...(chunks > 0 ? { chunks } : {}), ...(graphFiles > 0 ? { vector_graph_files: graphFiles } : {}), ...counted, ...deleted };
}
