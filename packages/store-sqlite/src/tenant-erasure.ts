import { childrenFirst } from '@panya/core';
import type { Db } from './database.js';

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
