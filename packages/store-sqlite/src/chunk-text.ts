/**
 * How the SQLite store keeps a chunk's text. Every read of it goes through `chunkText`.
 *
 * A chunk that is its document's whole source keeps no copy of it. Most help-center articles are
 * one chunk whose text is the source itself (4,745 of a sample of 5,000 at the tenants benchmark's
 * scale), which the store would otherwise hold twice. Such a chunk's `text` is an empty BLOB
 * (SOURCE_TEXT) and it reads its document's source, stored as any source is (packed when worth it,
 * see source-text.ts). Triggers on documents (SOURCE_TEXT_TRIGGERS) give such a chunk its text back
 * before the source changes or its document goes, in the same statement: a chunk always reads the
 * text it was indexed with, until ingest replaces it.
 *
 * Any other chunk keeps its own text, packed as a source would be (a non-empty BLOB): inflating it
 * costs a search ~13 µs a result (packed.ts).
 *
 * A chunk's title is its document's title (ingest titles every chunk so): it is stored as '' and
 * read from the document (`chunkTitle`), ~100 bytes a chunk otherwise held twice. The same triggers
 * give it back before the document's title changes or the document goes.
 */
import { readSource, SOURCE_TEXT_FN, storedSource } from './source-text.js';
import type { Statements } from './database.js';

/** The stored `text` of a chunk whose text is its document's source. */
export const SOURCE_TEXT = Buffer.alloc(0);

/** The document row of chunk `c` in SQL: its alias `d` when the statement joins it, a lookup otherwise. */
const documentColumn = (c: string, column: string, d?: string) =>
  d ? `${d}.${column}` : `(SELECT s.${column} FROM documents s WHERE s.id = ${c}.document_id AND s.tenant_id = ${c}.tenant_id)`;

/** A chunk's text in SQL, for chunk alias `c` (and its document's alias `d`, joined by the statement). */
export const chunkText = (c: string, d?: string) =>
  `CASE WHEN typeof(${c}.text) = 'text' THEN ${c}.text WHEN length(${c}.text) > 0 THEN ${SOURCE_TEXT_FN}(${c}.text) ELSE ${SOURCE_TEXT_FN}(${documentColumn(c, 'content_md', d)}) END`;

/** A chunk's title in SQL, for chunk alias `c` (and its document's alias `d`, joined by the statement). */
export const chunkTitle = (c: string, d?: string) => `CASE WHEN ${c}.title <> '' THEN ${c}.title ELSE coalesce(${documentColumn(c, 'title', d)}, '') END`;

const RESTORE_TEXT = `UPDATE chunks SET text = ${SOURCE_TEXT_FN}(OLD.content_md) WHERE tenant_id = OLD.tenant_id AND document_id = OLD.id AND typeof(text) = 'blob' AND length(text) = 0;`;
const RESTORE_TITLE = `UPDATE chunks SET title = OLD.title WHERE tenant_id = OLD.tenant_id AND document_id = OLD.id AND title = '';`;

export const SOURCE_TEXT_TRIGGERS = `
  CREATE TRIGGER IF NOT EXISTS documents_source_update BEFORE UPDATE OF content_md ON documents BEGIN
    ${RESTORE_TEXT}
  END;
  CREATE TRIGGER IF NOT EXISTS documents_title_update BEFORE UPDATE OF title ON documents WHEN OLD.title IS NOT NEW.title BEGIN
    ${RESTORE_TITLE}
  END;
  CREATE TRIGGER IF NOT EXISTS documents_source_delete BEFORE DELETE ON documents BEGIN
    ${RESTORE_TEXT}
    ${RESTORE_TITLE}
  END;
`;

/**
 * What to store as the title and text of a document's chunks about to be written (its earlier ones
 * deleted): '' for a title equal to the document's (a document's title is never empty); SOURCE_TEXT
 * for a single chunk equal to the source, otherwise each chunk's own text, packed when worth it.
 */
export function storedChunkFields(
  sql: Statements,
  tenantId: string,
  documentId: string,
  chunks: readonly { title: string; text: string }[],
): readonly { title: string; text: string | Buffer }[] {
  // The source only when a single chunk may be it: a long document's is read for nothing otherwise (overflow pages).
  const source = chunks.length === 1 ? 'content_md' : 'NULL AS content_md';
  const doc = sql.get(`SELECT title, ${source} FROM documents WHERE id = ? AND tenant_id = ?`).get(documentId, tenantId) as { title: string; content_md: unknown } | undefined;
  const title = (t: string) => (doc && t !== '' && t === doc.title ? '' : t);
  if (chunks.length === 1 && doc && readSource(doc.content_md) === chunks[0]!.text) return [{ title: title(chunks[0]!.title), text: SOURCE_TEXT }];
  return chunks.map((c) => ({ title: title(c.title), text: storedSource(c.text) }));
}
