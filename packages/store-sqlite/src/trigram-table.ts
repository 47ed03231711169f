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
 * A table written before (with positions) is rebuilt in this form at the next open.
 */
import { fragmentText } from '@panya/core';
import type { Db } from './database.js';

export const TRIGRAM_TABLE = 'chunks_trigram';

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
    const read = db.prepare('SELECT rowid, title, text FROM chunks WHERE rowid > ? ORDER BY rowid LIMIT ?');
    const insert = db.prepare(`INSERT INTO ${TRIGRAM_TABLE} (rowid, text) VALUES (?, ?)`);
    for (let after = 0; ; ) {
      const rows = read.all(after, REBUILD_BATCH) as { rowid: number; title: string; text: string }[];
      if (rows.length === 0) break;
      for (const r of rows) insert.run(BigInt(r.rowid), fragmentText(r.title, r.text));
      after = rows.at(-1)!.rowid;
    }
  }).immediate();
}
