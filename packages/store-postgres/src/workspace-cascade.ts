import type { Conn, Names } from './database.js';

/**
 * How a hard-deleted workspace's rows go: every table with a `workspace_id` column has an
 * entry, in deletion order (children before parents). `search-index` entries are removed
 * through the search index's own deletion; `with-chunks` rows go with their chunk (foreign
 * key). The store conformance suite fails when a table with `workspace_id` is missing here.
 */
export interface CascadeStep {
  table: string;
  via: 'rows' | 'search-index' | 'with-chunks';
}

export const WORKSPACE_CASCADE: readonly CascadeStep[] = [
  { table: 'chunks', via: 'search-index' },
  { table: 'chunk_vectors', via: 'with-chunks' },
  { table: 'resolutions', via: 'rows' },
  { table: 'flow_runs', via: 'rows' },
  { table: 'flows', via: 'rows' },
  { table: 'ticket_comments', via: 'rows' },
  { table: 'tickets', via: 'rows' },
  { table: 'personas', via: 'rows' },
  { table: 'messages', via: 'rows' },
  { table: 'conversations', via: 'rows' },
  { table: 'visitors', via: 'rows' },
  { table: 'documents', via: 'rows' },
  { table: 'connector_events', via: 'rows' },
  { table: 'api_query_events', via: 'rows' },
  { table: 'usage_records', via: 'rows' },
  { table: 'api_keys', via: 'rows' },
  { table: 'memberships', via: 'rows' },
  { table: 'audit_events', via: 'rows' },
];

/** Tables of the store's schema that carry a `workspace_id` column (what the cascade must cover). */
export async function workspaceScopedTables(db: Conn, n: Names): Promise<string[]> {
  const { rows } = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.columns WHERE table_schema = $1 AND column_name = 'workspace_id' ORDER BY table_name`,
    [n.schema],
  );
  return rows.map((r) => r.table_name);
}
