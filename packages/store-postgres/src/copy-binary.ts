/**
 * Rows of `COPY (…) TO STDOUT (FORMAT binary)`. A large `bytea` read through an ordinary query
 * arrives as text that the driver decodes to a string and the store decodes again (base64 or hex);
 * through COPY it arrives as its bytes. Every field is returned as a Buffer or null: text columns
 * are their UTF-8 bytes; select other types `::text`.
 *
 * The stream is read as the chunks it arrived in: a field inside one chunk is a view of it, and
 * only a field spanning chunks is copied, once, into a buffer of its own size (a large segment
 * is not copied again into one buffer of the whole stream first).
 */
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

class ChunkReader {
  private chunk = 0;
  private at = 0;

  constructor(private readonly chunks: readonly Buffer[]) {}

  /** The next `n` bytes: a view when they lie in one chunk, else a copy. */
  take(n: number): Buffer {
    while (this.chunk < this.chunks.length && this.at === this.chunks[this.chunk]!.length) (this.chunk++, (this.at = 0));
    const current = this.chunks[this.chunk];
    if (current && this.at + n <= current.length) return current.subarray(this.at, (this.at += n));
    const out = Buffer.allocUnsafe(n);
    for (let filled = 0; filled < n; ) {
      const from = this.chunks[this.chunk];
      if (!from) throw new Error('A binary COPY stream ended inside a field.');
      const copied = from.copy(out, filled, this.at, Math.min(from.length, this.at + n - filled));
      filled += copied;
      this.at += copied;
      if (this.at === from.length) (this.chunk++, (this.at = 0));
    }
    return out;
  }
}

export function parseCopyBinary(chunks: readonly Buffer[]): (Buffer | null)[][] {
  const reader = new ChunkReader(chunks);
  if (!reader.take(SIGNATURE.length).equals(SIGNATURE)) throw new Error('Not a binary COPY stream.');
  // Flags, then the header extension's length and the extension.
  reader.take(4);
  reader.take(reader.take(4).readUInt32BE(0));
  const rows: (Buffer | null)[][] = [];
  for (;;) {
    const fields = reader.take(2).readInt16BE(0);
    if (fields === -1) return rows;
    const row: (Buffer | null)[] = [];
    for (let i = 0; i < fields; i++) {
      const length = reader.take(4).readInt32BE(0);
      row.push(length === -1 ? null : reader.take(length));
    }
    rows.push(row);
  }
}
