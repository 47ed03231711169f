/**
 * The FTS5 trigram table behind the trigram fallback channel (substring matches for fragments the
 * segmenter cannot split: codes, partial words). It is the largest part of the file at scale (about
 * a third at 100k chunks), so a store can be opened without it: its presence in the database is the
 * setting every connection follows. Writers maintain it whenever it exists (so a process opened
 * without it never leaves it incomplete), and opening with it on after a time without it rebuilds it
 * from the chunks.
 */
import type { Db } from './database.js';

export const TRIGRAM_TABLE = 'chunks_trigram';

/** The text a chunk is matched on: title and text, folded as the fallback's fragments are. */
export const trigramText = (title: string, text: string) => `${title}\n${text}`.toLowerCase();

const REBUILD_BATCH = 2_000;

/** Whether the table exists now (the schema as this connection reads it). */
export const TRIGRAM_TABLE_EXISTS = `SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = '${TRIGRAM_TABLE}'`;

/**
 * Creates (and fills from the chunks) or drops the trigram table to match `enabled`; a no-op when
 * it already does. Runs at open, in one write transaction.
 */
export function syncTrigramTable(db: Db, enabled: boolean): void {
  db.transaction(() => {
    const present = db.prepare(TRIGRAM_TABLE_EXISTS).get() !== undefined;
    if (present === enabled) return;
    if (!enabled) {
      db.exec(`DROP TABLE ${TRIGRAM_TABLE}`);
      return;
    }
    db.exec(`CREATE VIRTUAL TABLE ${TRIGRAM_TABLE} USING fts5(text, content = '', contentless_delete = 1, tokenize = 'trigram')`);
    const read = db.prepare('SELECT rowid, title, text FROM chunks WHERE rowid > ? ORDER BY rowid LIMIT ?');
    const insert = db.prepare(`INSERT INTO ${TRIGRAM_TABLE} (rowid, text) VALUES (?, ?)`);
    for (let after = 0; ; ) {
      const rows = read.all(after, REBUILD_BATCH) as { rowid: number; title: string; text: string }[];
      if (rows.length === 0) break;
      for (const r of rows) insert.run(BigInt(r.rowid), trigramText(r.title, r.text));
      after = rows.at(-1)!.rowid;
    }
  }).immediate();
}
