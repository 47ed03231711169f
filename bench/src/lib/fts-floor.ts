/**
 * The FTS5 table the SQLite store kept until ranking moved to core (migrations 2–17): one scope
 * token per workspace (per tenant for legacy chunks) beside the stored index terms. The benchmarks
 * rebuild it as a TEMP table on their own connection from the chunks' index terms (tokenized from their text) as
 * the reference floor for matching and ranking; nothing is written to the database file.
 */
import { createHash } from 'node:crypto';
import { lexicalFields } from '@panya/core';
import { chunkText, chunkTitle, type SqliteStore } from '@panya/store-sqlite';

export const ftsToken = (kind: string, id: string) => kind + createHash('sha256').update(id).digest('hex').slice(0, 24);

export function createFtsFloor(db: SqliteStore['db']): void {
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.chunks_fts USING fts5(
    scope, title, body, content = '', contentless_delete = 1,
    tokenize = "unicode61 remove_diacritics 0 categories 'L* N* Co M*'")`);
  const insert = db.prepare('INSERT INTO temp.chunks_fts (rowid, scope, title, body) VALUES (?, ?, ?, ?)');
  const rows = db.prepare(`SELECT c.rowid, c.tenant_id, c.workspace_id, ${chunkTitle('c')} AS title, c.heading_path, ${chunkText('c')} AS text FROM chunks c`).all() as {
    rowid: number;
    tenant_id: string;
    workspace_id: string | null;
    title: string;
    heading_path: string;
    text: string;
  }[];
  db.transaction(() => {
    for (const r of rows) {
      const { lexicalTitle, lexicalBody } = lexicalFields(r.title, JSON.parse(r.heading_path) as string[], r.text);
      insert.run(r.rowid, r.workspace_id ? ftsToken('w', `${r.tenant_id}/${r.workspace_id}`) : ftsToken('l', r.tenant_id), lexicalTitle, lexicalBody);
    }
  })();
}
