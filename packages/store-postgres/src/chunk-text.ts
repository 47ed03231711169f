/**
 * A chunk that is its document's whole source keeps no copy of it. Most help-center articles are
 * one chunk whose text is the source itself, which the database would otherwise hold twice, in the
 * chunk and in the document. Such a chunk's `text` is NULL and every read of a chunk's text goes
 * through `chunkText`. Only chunks outside the trigram index take this form: the index's expression
 * reads the chunk's own row, so a workspace's chunks get their text back as they enter it.
 *
 * Triggers on documents (sourceTextTriggers) give such a chunk its text back before the source
 * changes or its document goes, in the same statement: a chunk always reads the text it was indexed
 * with, until ingest replaces it.
 */
import type { Conn, Names } from './database.js';

/** A chunk's text in SQL, for chunk alias `c` (and its document's alias `d`, when the statement joins it). */
export const chunkText = (n: Names, c: string, d?: string) =>
  d ? `COALESCE(${c}.text, ${d}.content_md)` : `COALESCE(${c}.text, (SELECT s.content_md FROM ${n.t('documents')} s WHERE s.id = ${c}.document_id AND s.tenant_id = ${c}.tenant_id))`;

export const sourceTextTriggers = (n: Names) => `
  CREATE FUNCTION ${n.t('documents_source_kept')}() RETURNS trigger LANGUAGE plpgsql AS $fn$
  BEGIN
    UPDATE ${n.t('chunks')} SET text = OLD.content_md WHERE tenant_id = OLD.tenant_id AND document_id = OLD.id AND text IS NULL;
    IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
    RETURN NEW;
  END
  $fn$;
  CREATE TRIGGER documents_source_update BEFORE UPDATE OF content_md ON ${n.t('documents')}
    FOR EACH ROW WHEN (OLD.content_md IS DISTINCT FROM NEW.content_md) EXECUTE FUNCTION ${n.t('documents_source_kept')}();
  CREATE TRIGGER documents_source_delete BEFORE DELETE ON ${n.t('documents')}
    FOR EACH ROW EXECUTE FUNCTION ${n.t('documents_source_kept')}();
`;

/**
 * The texts to store for a document's chunks about to be written outside the trigram index (its
 * earlier chunks deleted): NULL for a single chunk equal to the source, otherwise each chunk's own.
 */
export async function storedChunkTexts(tx: Conn, n: Names, tenantId: string, documentId: string, texts: readonly string[]): Promise<readonly (string | null)[]> {
  if (texts.length !== 1) return texts;
  const { rows } = await tx.query<{ source: string }>(`SELECT content_md AS source FROM ${n.t('documents')} WHERE id = $1 AND tenant_id = $2`, [documentId, tenantId]);
  return rows[0]?.source === texts[0] ? [null] : texts;
}
