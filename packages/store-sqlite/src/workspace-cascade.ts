import type { Db } from './database.js';

/** The cascade order is core's (`WORKSPACE_CASCADE`); the store only finds what its schema holds. */
export { WORKSPACE_CASCADE, type CascadeStep } from '@panya/core/rows';

/** Tables of the schema that carry a `workspace_id` column (what the cascade must cover). */
export function workspaceScopedTables(db: Db): string[] {
  const rows = db
    .prepare("SELECT m.name AS name FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE m.type = 'table' AND p.name = 'workspace_id' ORDER BY m.name")
    .all() as { name: string }[];
  return rows.map((r) => r.name);
}
