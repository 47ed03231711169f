import type { WorkspacePurge, WorkspaceRecord } from '../ports/store.js';

/**
 * How a hard-deleted workspace's rows go: every table with a `workspace_id` column has an
 * entry, in deletion order (children before parents). `search-index` rows are removed through
 * the search index's own deletion (which drops their lexical and vector rows too);
 * `with-chunks` rows go with their chunk (a foreign key, in the stores that keep such a table).
 * The store conformance suite fails when a table with `workspace_id` is missing here.
 */
export interface CascadeStep {
  table: string;
  via: 'rows' | 'search-index' | 'with-chunks';
}

export const WORKSPACE_CASCADE: readonly CascadeStep[] = [
  { table: 'chunks', via: 'search-index' },
  { table: 'chunk_vectors', via: 'with-chunks' },
  // After the chunks: their deletion wrote masks these rows hold.
  { table: 'lexical_segments', via: 'rows' },
  { table: 'lexical_deletions', via: 'rows' },
  { table: 'lexical_pending', via: 'rows' },
  { table: 'feedback_citations', via: 'rows' },
  { table: 'feedback', via: 'rows' },
  { table: 'question_log', via: 'rows' },
  { table: 'gap_snapshots', via: 'rows' },
  { table: 'lexical_audiences', via: 'rows' },
  { table: 'resolutions', via: 'rows' },
  { table: 'eval_runs', via: 'rows' },
  { table: 'eval_sets', via: 'rows' },
  { table: 'curated_answers', via: 'rows' },
  { table: 'flow_runs', via: 'rows' },
  { table: 'flows', via: 'rows' },
  { table: 'ticket_comments', via: 'rows' },
  { table: 'tickets', via: 'rows' },
  { table: 'personas', via: 'rows' },
  { table: 'messages', via: 'rows' },
  { table: 'conversations', via: 'rows' },
  { table: 'visitors', via: 'rows' },
  { table: 'customers', via: 'rows' },
  { table: 'documents', via: 'rows' },
  { table: 'connector_events', via: 'rows' },
  { table: 'api_query_events', via: 'rows' },
  { table: 'usage_records', via: 'rows' },
  { table: 'api_keys', via: 'rows' },
  { table: 'memberships', via: 'rows' },
  { table: 'visitor_keys', via: 'rows' },
  { table: 'verified_visitors', via: 'rows' },
];

/**
 * Tables with a `workspace_id` that outlive a workspace: the tenant's audit chain (removing a
 * workspace's entries would break it). They go with the tenant when it is erased.
 */
export const WORKSPACE_KEPT: readonly string[] = ['audit_events'];

/** The statements a store supplies for one workspace; each deletes at most `limit` rows. */
export interface WorkspacePurgeStatements {
  /** Removes chunks of the workspace (and legacy chunks of its documents) document by document; returns how many. */
  chunks(limit: number): Promise<number>;
  rows(table: string, limit: number): Promise<number>;
  /** Deletes the workspace's own row, once nothing is left under it. */
  workspace(): Promise<void>;
}

/**
 * One bounded step of a workspace's hard delete: children first, at most `limit` rows (a
 * document's chunks go together, so a step may overshoot by one document), the workspace row
 * last, so an interrupted run resumes on the next step. Only a soft-deleted workspace is purged.
 */
export async function purgeWorkspace(ws: WorkspaceRecord | null, limit: number, statements: WorkspacePurgeStatements): Promise<WorkspacePurge> {
  if (!ws) return { deleted: {}, done: true };
  if (!ws.deletedAt) throw new Error(`Workspace ${ws.id} is not soft-deleted; refusing to purge it.`);
  const deleted: Record<string, number> = {};
  let budget = limit;
  for (const step of WORKSPACE_CASCADE) {
    if (budget <= 0) return { deleted, done: false };
    if (step.via === 'with-chunks') continue;
    const n = step.via === 'search-index' ? await statements.chunks(budget) : await statements.rows(step.table, budget);
    if (n > 0) deleted[step.table] = n;
    budget -= n;
  }
  if (budget <= 0) return { deleted, done: false };
  await statements.workspace();
  deleted.workspaces = 1;
  return { deleted, done: true };
}
