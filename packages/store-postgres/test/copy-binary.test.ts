import { describe, expect, it } from 'vitest';
import { parseCopyBinary } from '../src/copy-binary.js';

/** A binary COPY stream as PostgreSQL writes it: signature, flags, header extension, tuples, trailer. */
function stream(rows: (Buffer | null)[][], extension = Buffer.alloc(0)): Buffer {
  const parts: Buffer[] = [Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(4), Buffer.alloc(4), extension];
  parts[2]!.writeUInt32BE(extension.length);
  for (const row of rows) {
    const count = Buffer.alloc(2);
    count.writeInt16BE(row.length);
    parts.push(count);
    for (const field of row) {
      const length = Buffer.alloc(4);
      length.writeInt32BE(field === null ? -1 : field.length);
      parts.push(length, ...(field === null ? [] : [field]));
    }
  }
  const trailer = Buffer.alloc(2);
  trailer.writeInt16BE(-1);
  return Buffer.concat([...parts, trailer]);
}

/** The stream as it might arrive: cut every `size` bytes. */
const cut = (data: Buffer, size: number) => Array.from({ length: Math.ceil(data.length / size) }, (_, i) => data.subarray(i * size, (i + 1) * size));

describe('parseCopyBinary', () => {
  const bytes = Buffer.from([0, 255, 10, 13, 0, ...Buffer.from('a segment long enough to span several chunks')]);
  const whole = stream([[Buffer.from('s'), Buffer.from('42'), bytes], [Buffer.from('d'), null, Buffer.alloc(0)]], Buffer.from('ext!'));

  it('reads fields as bytes and nulls as null, after a header extension, however the stream was cut', () => {
    for (const size of [1, 3, 7, 64, whole.length]) {
      const rows = parseCopyBinary(cut(whole, size));
      expect(rows.map((r) => r.map((f) => f && f.toString('latin1')))).toEqual([
        ['s', '42', bytes.toString('latin1')],
        ['d', null, ''],
      ]);
    }
  });

  it('reads an empty result', () => {
    expect(parseCopyBinary([stream([])])).toEqual([]);
  });

  it('refuses what is not a binary COPY stream, or one cut short', () => {
    expect(() => parseCopyBinary([Buffer.from('s\t42\n and more text')])).toThrow(/Not a binary COPY/);
    expect(() => parseCopyBinary(cut(whole.subarray(0, whole.length - 8), 5))).toThrow(/ended inside a field/);
  });
});
