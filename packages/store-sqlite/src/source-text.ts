/**
 * Document sources as the SQLite store keeps them. Sources are a third of a small tenant's file:
 * one of SOURCE_BYTES.min to .max UTF-8 bytes is stored packed (packed.ts) when that saves a tenth;
 * the column's TEXT affinity leaves a BLOB as it is, so earlier rows (text) read as before. Longer
 * sources stay text: an ingest claim sizes a source by its length (SOURCE_SIZE) without reading a long one.
 */
import { pack, packedLength, unpack } from './packed.js';

const SOURCE_BYTES = { min: 256, max: 64 * 1024 };

export function storedSource(text: string): string | Buffer {
  // UTF-8 takes 1 to 3 bytes per UTF-16 unit: most texts are decided by their length alone.
  if (text.length < SOURCE_BYTES.min / 3 || text.length > SOURCE_BYTES.max) return text;
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length < SOURCE_BYTES.min || bytes.length > SOURCE_BYTES.max) return text;
  return pack(bytes, 0.1) ?? text;
}

export const readSource = (value: unknown): string => (typeof value === 'string' ? value : unpack(value as Uint8Array).toString('utf8'));

/** SQL function: a stored source's length in UTF-8 bytes, from a packed one's header. */
export const SOURCE_LENGTH_FN = 'panya_source_length';
export const sourceLength = (value: unknown) => (value instanceof Uint8Array ? packedLength(value) : null);

/** SQL function: a stored source's text (a packed one inflated), for SQL that reads sources as text. */
export const SOURCE_TEXT_FN = 'panya_source';
export const sourceText = (value: unknown) => (value instanceof Uint8Array ? readSource(value) : value);

/**
 * A source's length in UTF-8 bytes in SQL, without reading a text one (`octet_length` reads the row's
 * header); only a packed one, at most SOURCE_BYTES.max before packing, is read for its header.
 */
export const SOURCE_SIZE = (column: string) => `CASE WHEN typeof(${column}) = 'blob' THEN ${SOURCE_LENGTH_FN}(${column}) ELSE octet_length(${column}) END`;
