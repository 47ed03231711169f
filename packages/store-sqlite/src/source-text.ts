/**
 * Document sources as the SQLite store keeps them. SQLite compresses nothing itself, and sources are
 * a third of a small tenant's file: one of SOURCE_BYTES.min to .max UTF-8 bytes is stored deflated
 * when that saves a tenth, as a BLOB of its length (4 bytes, little-endian) and a raw deflate stream;
 * the column's TEXT affinity leaves a BLOB as it is, so earlier rows (text) read as before. Longer
 * sources stay text: an ingest claim sizes a source by its length (SOURCE_SIZE) without reading a long one.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';

const SOURCE_BYTES = { min: 256, max: 64 * 1024 };
const LENGTH_BYTES = 4;

export function storedSource(text: string): string | Buffer {
  // UTF-8 takes 1 to 3 bytes per UTF-16 unit: most texts are decided by their length alone.
  if (text.length < SOURCE_BYTES.min / 3 || text.length > SOURCE_BYTES.max) return text;
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length < SOURCE_BYTES.min || bytes.length > SOURCE_BYTES.max) return text;
  const packed = deflateRawSync(bytes);
  if (LENGTH_BYTES + packed.length > bytes.length * 0.9) return text;
  const stored = Buffer.allocUnsafe(LENGTH_BYTES + packed.length);
  stored.writeUInt32LE(bytes.length, 0);
  packed.copy(stored, LENGTH_BYTES);
  return stored;
}

export const readSource = (value: unknown): string => (typeof value === 'string' ? value : inflateRawSync((value as Uint8Array).subarray(LENGTH_BYTES)).toString('utf8'));

/** SQL function: a stored source's length in UTF-8 bytes, from a compressed one's header. */
export const SOURCE_LENGTH_FN = 'panya_source_length';
export const sourceLength = (value: unknown) => (value instanceof Uint8Array ? Buffer.from(value.buffer, value.byteOffset, value.byteLength).readUInt32LE(0) : null);

/**
 * A source's length in UTF-8 bytes in SQL, without reading a text one (`octet_length` reads the row's
 * header); only a compressed one, at most SOURCE_BYTES.max before compression, is read for its header.
 */
export const SOURCE_SIZE = (column: string) => `CASE WHEN typeof(${column}) = 'blob' THEN ${SOURCE_LENGTH_FN}(${column}) ELSE octet_length(${column}) END`;
