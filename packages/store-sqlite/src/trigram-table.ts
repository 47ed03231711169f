/**
 * The FTS5 trigram table behind the trigram fallback channel (substring matches for fragments the
 * segmenter cannot split: codes, partial words). It is the largest part of the file at scale (about
 * a third at 100k chunks), so a store can be opened without it: its presence in the database is the
 * setting every connection follows. Writers maintain it whenever it exists (so a process opened
 * without it never leaves it incomplete), and opening with it on after a time without it rebuilds it
 * from the chunks.
 *
 * The table records which chunks hold each trigram and nothing more (`detail = none`: no positions
 * or counts, a fifth of the size): it narrows a fragment to the chunks holding all its trigrams,
 * and the search confirms and counts the fragment in their text (see SqliteSearchIndex.trigram).
 *
 * It holds only what a search asks it for. A workspace of at most TRIGRAM_SCAN_CHUNKS chunks (with its
 * tenant's legacy ones) is answered by reading its own chunks, so its chunks enter the table only
 * once it outgrows that, all of them at once: a workspace's chunks are in the table all or none,
 * and all whenever it is larger than a scan. Legacy chunks (no workspace) are always in it.
 * A table of an earlier form (positions kept, or every chunk held) is rebuilt at the next open.
 */
import { fragmentText, TRIGRAM_SCAN_CHUNKS } from '@panya/core';
import { chunkText, chunkTitle } from './chunk-text.js';
import { Statements, type Db } from './database.js';

export const TRIGRAM_TABLE = 'chunks_trigram';

/** The scope's chunks (its workspace's and its tenant's legacy ones), counted up to one past TRIGRAM_SCAN_CHUNKS. */
export const SCOPE_CHUNKS_UP_TO_SCAN = `SELECT count(*) AS n FROM (SELECT 1 FROM chunks WHERE tenant_id = ? AND (workspace_id = ? OR workspace_id IS NULL) LIMIT ${TRIGRAM_SCAN_CHUNKS + 1})`;

const REBUILD_BATCH = 2_000;

/** Whether the table exists now (the schema as this connection reads it). */
export const TRIGRAM_TABLE_EXISTS = `SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = '${TRIGRAM_TABLE}'`;

const CREATE = `CREATE VIRTUAL TABLE ${TRIGRAM_TABLE} USING fts5(text, content = '', contentless_delete = 1, detail = none, tokenize = 'trigram')`;

/** How the search folds case, in SQL: as core's `fragmentText` (SQLite's lower() folds ASCII only). */
export const TRIGRAM_FOLD = 'panya_fold';

/** The trigram table's query for `fragments`: chunks holding every trigram of one of them. */
export function trigramMatch(fragments: readonly string[]): string {
  const quote = (t: string) => `"${t.replaceAll('"', '""')}"`;
  return fragments
    .map((f) => {
      const chars = [...f.toLowerCase()];
      const grams = new Set<string>();
      for (let i = 0; i + 3 <= chars.length; i++) grams.add(chars.slice(i, i + 3).join(''));
      return `(${[...grams].map(quote).join(' AND ')})`;
    })
    .join(' OR ');
}

/**
 * Creates (and fills from the chunks) or drops the trigram table to match `enabled`; a no-op when
 * it already does. Runs at open, in one write transaction.
 */
export function syncTrigramTable(db: Db, enabled: boolean): void {
  const inSync = () => {
    const row = db.prepare(`SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = '${TRIGRAM_TABLE}'`).get() as { sql: string } | undefined;
    // A table of the earlier form (positions kept) is rebuilt in this one.
    const current = row !== undefined && /detail\s*=\s*none/.test(row.sql);
    return { row, done: current === enabled && (row !== undefined) === enabled };
  };
  // Checked first without a lock: a table in sync takes no write lock when the store opens.
  if (inSync().done) return;
  db.transaction(() => {
    const { row, done } = inSync();
    if (done) return;
    if (row) db.exec(`DROP TABLE ${TRIGRAM_TABLE}`);
    if (!enabled) return;
    db.exec(CREATE);
    const rows = new TrigramRows(new Statements(db));
    const read = db.prepare(`SELECT c.rowid, ${chunkTitle('c')} AS title, ${chunkText('c')} AS text FROM chunks c WHERE c.workspace_id IS NULL AND c.rowid > ? ORDER BY c.rowid LIMIT ?`);
    for (let after = 0; ; ) {
      const legacy = read.all(after, REBUILD_BATCH) as ChunkText[];
      if (legacy.length === 0) break;
      rows.insert(legacy);
      after = legacy.at(-1)!.rowid;
    }
    for (const { tenantId, workspaceId } of workspacesLargerThanScan(db)) rows.insertWorkspace(tenantId, workspaceId);
  }).immediate();
}

/** Workspaces whose chunks, with their tenant's legacy ones, are more than a scan reads. */
function workspacesLargerThanScan(db: Db): { tenantId: string; workspaceId: string }[] {
  const legacy = new Map(
    (db.prepare('SELECT tenant_id, count(*) AS n FROM chunks WHERE workspace_id IS NULL GROUP BY tenant_id').all() as { tenant_id: string; n: number }[]).map((r) => [r.tenant_id, r.n]),
  );
  const counts = db.prepare('SELECT tenant_id, workspace_id, count(*) AS n FROM chunks WHERE workspace_id IS NOT NULL GROUP BY tenant_id, workspace_id').all() as { tenant_id: string; workspace_id: string; n: number }[];
  return counts.filter((c) => c.n + (legacy.get(c.tenant_id) ?? 0) > TRIGRAM_SCAN_CHUNKS).map((c) => ({ tenantId: c.tenant_id, workspaceId: c.workspace_id }));
}

/** A chunk as the table indexes it. */
export interface ChunkText {
  rowid: number;
  title: string;
  text: string;
}

/** The table's rows, kept by every chunk write inside its transaction (see the rule above). */
export class TrigramRows {
  constructor(private readonly sql: Statements) {}

  /** Whether the table exists now (another process may have created or dropped it). */
  exists(): boolean {
    return this.sql.get(TRIGRAM_TABLE_EXISTS).get() !== undefined;
  }

  /** Whether the workspace's chunks are in the table: all or none, so its first one tells. */
  held(tenantId: string, workspaceId: string): boolean {
    const first = this.sql.get('SELECT rowid FROM chunks WHERE tenant_id = ? AND workspace_id = ? LIMIT 1').get(tenantId, workspaceId) as { rowid: number } | undefined;
    return first !== undefined && this.sql.get(`SELECT 1 FROM ${TRIGRAM_TABLE} WHERE rowid = ?`).get(BigInt(first.rowid)) !== undefined;
  }

  /** After `written` chunks joined the workspace, whose earlier chunks were in the table or not (`heldBefore`). */
  wrote(tenantId: string, workspaceId: string, written: readonly ChunkText[], heldBefore: boolean): void {
    if (heldBefore) this.insert(written);
    else if (this.largerThanScan(tenantId, workspaceId)) this.insertWorkspace(tenantId, workspaceId);
  }

  /** A legacy chunk is always in the table; it counts in every workspace of its tenant, so those it makes larger than a scan join. */
  wroteLegacy(tenantId: string, written: readonly ChunkText[]): void {
    this.insert(written);
    const workspaces = this.sql.get('SELECT DISTINCT workspace_id FROM chunks WHERE tenant_id = ? AND workspace_id IS NOT NULL').all(tenantId) as { workspace_id: string }[];
    for (const { workspace_id: workspaceId } of workspaces) {
      if (!this.held(tenantId, workspaceId) && this.largerThanScan(tenantId, workspaceId)) this.insertWorkspace(tenantId, workspaceId);
    }
  }

  /** A legacy chunk moved into a workspace (`heldBefore`: the workspace's chunks before it) leaves the table if the workspace's chunks are not in it. */
  adopted(rowid: number, tenantId: string, workspaceId: string, heldBefore: boolean): void {
    if (!heldBefore && !this.largerThanScan(tenantId, workspaceId)) this.remove(rowid);
  }

  remove(rowid: number): void {
    this.sql.get(`DELETE FROM ${TRIGRAM_TABLE} WHERE rowid = ?`).run(BigInt(rowid));
  }

  insert(chunks: readonly ChunkText[]): void {
    const insert = this.sql.get(`INSERT INTO ${TRIGRAM_TABLE} (rowid, text) VALUES (?, ?)`);
    for (const c of chunks) insert.run(BigInt(c.rowid), fragmentText(c.title, c.text));
  }

  /** Every chunk of the workspace (none of which is in the table yet). */
  insertWorkspace(tenantId: string, workspaceId: string): void {
    this.insert(this.sql.get(`SELECT c.rowid, ${chunkTitle('c')} AS title, ${chunkText('c')} AS text FROM chunks c WHERE c.tenant_id = ? AND c.workspace_id = ?`).all(tenantId, workspaceId) as ChunkText[]);
  }

  private largerThanScan(tenantId: string, workspaceId: string): boolean {
    return (this.sql.get(SCOPE_CHUNKS_UP_TO_SCAN).get(tenantId, workspaceId) as { n: number }).n > TRIGRAM_SCAN_CHUNKS;
  }
}
