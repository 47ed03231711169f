import { LexicalSegment } from '@panya/core';
import { pack, unpack } from './packed.js';

/**
 * A small workspace's segments are stored packed (packed.ts): most of them are its dictionary, and
 * they deflate to 0.62 of their size, which a first search inflates in ~0.1 ms (12 KiB). Larger ones
 * stay plain: they deflate less (0.7), and inflating a 1,000-chunk workspace's would add ~5 ms to its
 * first search (inflate runs at ~200 MB/s here). A plain segment starts with its format's magic
 * (`LexicalSegment.tagged`), which a packed one's length header would match only past 1.3 GB.
 */
const PACKED_SEGMENT_MAX_BYTES = 64 * 1024;

export const storedSegment = (bytes: Uint8Array) =>
  (bytes.length <= PACKED_SEGMENT_MAX_BYTES ? pack(bytes, 0.1) : null) ?? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
export const segmentBytes = (stored: Buffer) => (LexicalSegment.tagged(stored) ? stored : unpack(stored));
