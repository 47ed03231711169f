import type { Db } from './database.js';

/**
 * How a hard-deleted workspace's rows go: every table with a `workspace_id` column has an
 * entry, in deletion order (children before parents). `search-index` entries are removed
 * through the search index's own deletion, which also drops their lexical and vector rows.
 * The store conformance suite fails when a table with `workspace_id` is missing here.
 */
export interface CascadeStep {
  table: string;
  via: 'rows' | 'search-index';
}

export const WORKSPACE_CASCADE: readonly CascadeStep[] = [
  { table: 'chunks', via: 'search-index' },
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

/** Tables of the schema that carry a `workspace_id` column (what the cascade must cover). */
export function workspaceScopedTables(db: Db): string[] {
  const rows = db
    .prepare("SELECT m.name AS name FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE m.type = 'table' AND p.name = 'workspace_id' ORDER BY m.name")
    .all() as { name: string }[];
  return rows.map((r) => r.name);
}
