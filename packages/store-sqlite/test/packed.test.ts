import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { pack, packedLength, unpack } from '../src/packed.js';

/** Text that deflates (a source, a segment's dictionary), of `n` bytes. */
const text = (n: number) => Buffer.from('Refunds arrive within seven days of the return. '.repeat(Math.ceil(n / 48)).slice(0, n));

describe('packed bytes', () => {
  it('unpack what was packed, at every size from a few bytes to 64 KiB and at zlib chunk edges', () => {
    for (const n of [1, 63, 64, 65, 255, 256, 1400, 4095, 4096, 4097, 16_383, 16_384, 16_385, 65_536]) {
      const bytes = text(n);
      // Packed whatever it saves (a few bytes do not deflate smaller).
      const packed = pack(bytes, -100)!;
      expect(packedLength(packed)).toBe(n);
      expect(unpack(packed).equals(bytes)).toBe(true);
    }
    // Bytes that do not deflate round-trip too.
    const noise = randomBytes(3000);
    const forced = pack(noise, -100)!;
    expect(unpack(forced).equals(noise)).toBe(true);
  });

  it("inflate a short text into Node's buffer pool rather than a buffer of its own", () => {
    // An abstract: what a search inflates for each result.
    const out = unpack(pack(text(1400))!);
    expect(out.length).toBe(1400);
    expect(out.buffer.byteLength).toBe(Buffer.poolSize);
  });
});
