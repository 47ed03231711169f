/**
 * Vectors in a plain table, a row per chunk (keyed by its rowid) under its partition: a workspace
 * costs only its rows. sqlite-vec's vec0 table allocated a block of 1,024 vectors per partition
 * as soon as it held one (4 MB at 1,024 dimensions for a workspace of one chunk); its scan was
 * exact as this one is, and large workspaces answer from their graph (vector-index.ts).
 */
export const COMPACT_VECTOR_TABLE = `CREATE TABLE chunk_vectors (id INTEGER PRIMARY KEY, part TEXT NOT NULL, embedding BLOB NOT NULL);
  CREATE INDEX chunk_vectors_part ON chunk_vectors(part);`;

export const vectorBlob = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
