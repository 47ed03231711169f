/**
 * Bytes the SQLite store keeps deflated (SQLite compresses nothing itself): their length (4 bytes,
 * little-endian), then a raw deflate stream. node:zlib inflates an abstract (~0.7 KB packed) in
 * ~13 µs, most of it setting up its stream; `fflate`, a JavaScript inflate told the output's
 * length, took ~24 µs for the same rows (docs/decisions.md, "Packed bytes are inflated by node:zlib").
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';

const LENGTH_BYTES = 4;

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

/**
 * Room past the known length in the one output buffer an inflate is given (zlib's smallest chunk),
 * so that it holds all of the output.
 */
const OUTPUT_SLACK = 64;

/**
 * What `packed` holds. The output buffer is sized from the header, where zlib would start with
 * 16 KiB: a short text's then comes from Node's buffer pool instead of a buffer of its own, and a
 * search inflates each result's text, every such buffer one more for the young generation's
 * collections to sweep (in a busy server, where no core is free to sweep them beside it, 139 → 85 ms
 * of their pauses in 10 s of the tenants benchmark's traffic).
 */
export const unpack = (packed: Uint8Array): Buffer => inflateRawSync(packed.subarray(LENGTH_BYTES), { chunkSize: packedLength(packed) + OUTPUT_SLACK });
