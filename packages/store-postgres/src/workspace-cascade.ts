import type { Conn, Names } from './database.js';

/** The cascade order is core's (`WORKSPACE_CASCADE`); the store only finds what its schema holds. */
export { WORKSPACE_CASCADE, type CascadeStep } from '@panya/core/rows';

/** Tables of the store's schema that carry a `workspace_id` column (what the cascade must cover). */
export async function workspaceScopedTables(db: Conn, n: Names): Promise<string[]> {
  const { rows } = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.columns WHERE table_schema = $1 AND column_name = 'workspace_id' ORDER BY table_name`,
    [n.schema],
  );
  return rows.map((r) => r.table_name);
}
