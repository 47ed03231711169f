import { constants as buffers } from 'node:buffer';
import { constants, inflateSync } from 'node:zlib';

/**
 * Bytes the Flate streams of a PDF inflate to, counted before pdf.js reads it, stopping once past
 * `max` (then the result is `max + 1`). Images are left out: text extraction never decodes them.
 * A stream is taken from its `stream` keyword to the next `endstream` (its `/Length` may be an
 * indirect reference); a damaged one counts what inflates before the damage.
 */
export function inflatedPdfBytes(bytes: Uint8Array, max: number): number {
  const pdf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let total = 0;
  for (let at = pdf.indexOf('stream', 0, 'latin1'); at >= 0; at = pdf.indexOf('stream', at + 6, 'latin1')) {
    if (at >= 3 && pdf.toString('latin1', at - 3, at) === 'end') continue;
    const dictionary = pdf.toString('latin1', Math.max(0, at - 4096, pdf.lastIndexOf('obj', at, 'latin1')), at);
    let start = at + 6;
    if (pdf[start] === 0x0d) start++;
    if (pdf[start] === 0x0a) start++;
    const end = pdf.indexOf('endstream', start, 'latin1');
    if (end < 0) break;
    if (!/\/FlateDecode\b|\/Fl\b/.test(dictionary) || /\/Subtype\s*\/Image\b/.test(dictionary)) continue;
    total += inflatedLength(pdf.subarray(start, end), max - total + 1);
    if (total > max) return max + 1;
    at = end;
  }
  return total;
}

/** What one zlib stream inflates to, at most `limit` bytes. */
function inflatedLength(data: Buffer, limit: number): number {
  try {
    return inflateSync(data, { maxOutputLength: Math.min(limit, buffers.MAX_LENGTH), finishFlush: constants.Z_SYNC_FLUSH }).length;
  } catch (error) {
    // Past the limit: zlib refuses to produce more.
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return limit;
    return 0;
  }
}
