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
 * costs a search about a microsecond a result.
 */
import { readSource, SOURCE_TEXT_FN, storedSource } from './source-text.js';
import type { Statements } from './database.js';

/** The stored `text` of a chunk whose text is its document's source. */
export const SOURCE_TEXT = Buffer.alloc(0);

/** A chunk's text in SQL, for chunk alias `c`. */
export const chunkText = (c: string) =>
  `CASE WHEN typeof(${c}.text) = 'text' THEN ${c}.text WHEN length(${c}.text) > 0 THEN ${SOURCE_TEXT_FN}(${c}.text) ELSE ${SOURCE_TEXT_FN}((SELECT s.content_md FROM documents s WHERE s.id = ${c}.document_id AND s.tenant_id = ${c}.tenant_id)) END`;

const RESTORE = `UPDATE chunks SET text = ${SOURCE_TEXT_FN}(OLD.content_md) WHERE tenant_id = OLD.tenant_id AND document_id = OLD.id AND typeof(text) = 'blob' AND length(text) = 0;`;

export const SOURCE_TEXT_TRIGGERS = `
  CREATE TRIGGER IF NOT EXISTS documents_source_update BEFORE UPDATE OF content_md ON documents BEGIN
    ${RESTORE}
  END;
  CREATE TRIGGER IF NOT EXISTS documents_source_delete BEFORE DELETE ON documents BEGIN
    ${RESTORE}
  END;
`;

/**
 * What to store as the text of a document's chunks about to be written (its earlier ones deleted):
 * SOURCE_TEXT for a single chunk equal to the source; otherwise each chunk's own text, packed when worth it.
 */
export function storedChunkTexts(sql: Statements, tenantId: string, documentId: string, texts: readonly string[]): readonly (string | Buffer)[] {
  if (texts.length === 1) {
    const row = sql.get('SELECT content_md FROM documents WHERE id = ? AND tenant_id = ?').get(documentId, tenantId) as { content_md: unknown } | undefined;
    if (row && readSource(row.content_md) === texts[0]) return [SOURCE_TEXT];
  }
  return texts.map(storedSource);
}
