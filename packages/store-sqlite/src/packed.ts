/**
 * Bytes the SQLite store keeps deflated (SQLite compresses nothing itself): their length (4 bytes,
 * little-endian), then a raw deflate stream. Knowing the length, a short one is inflated straight
 * into a buffer of that size by fflate (about 1.5 µs for an abstract, where node:zlib's one-shot call
 * spends ~14 µs setting up its stream), so a search can afford to inflate the text of every result;
 * past a few KiB node:zlib's native inflate is the faster (twice fflate's speed at 12 KiB).
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { inflateSync } from 'fflate';

const LENGTH_BYTES = 4;
const FFLATE_MAX_BYTES = 4096;

/** `bytes` packed, or null when that would not save `saving` of them (a fraction). */
export function pack(bytes: Uint8Array, saving = 0): Buffer | null {
  const deflated = deflateRawSync(bytes);
  if (LENGTH_BYTES + deflated.length > bytes.length * (1 - saving)) return null;
  const packed = Buffer.allocUnsafe(LENGTH_BYTES + deflated.length);
  packed.writeUInt32LE(bytes.length, 0);
  deflated.copy(packed, LENGTH_BYTES);
  return packed;
}

/** The length of what `packed` holds, from its header. */
export const packedLength = (packed: Uint8Array) => new DataView(packed.buffer, packed.byteOffset, LENGTH_BYTES).getUint32(0, true);

/** What `packed` holds. */
export function unpack(packed: Uint8Array): Buffer {
  const length = packedLength(packed);
  if (length > FFLATE_MAX_BYTES) return inflateRawSync(packed.subarray(LENGTH_BYTES));
  const out = Buffer.allocUnsafe(length);
  inflateSync(packed.subarray(LENGTH_BYTES), { out });
  return out;
}
