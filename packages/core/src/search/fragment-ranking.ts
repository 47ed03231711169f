import { canRead } from '../audiences/rules.js';
import type { Audiences, RankedHit } from './ports/search-index.js';

/** BM25 constants of the trigram fallback's ranking (every store's, FTS5's defaults). */
export const FRAGMENT_BM25 = { k1: 1.2, b: 0.75 } as const;

/**
 * A workspace of at most this many chunks (with its tenant's legacy ones) answers the trigram
 * fallback by reading its own chunks; a store's trigram index holds only larger workspaces' chunks.
 */
export const TRIGRAM_SCAN_CHUNKS = 1000;

/** A chunk's text as the trigram fallback matches it: title and text, case folded. */
export const fragmentText = (title: string, text: string) => `${title}\n${text}`.toLowerCase();

/** A chunk as a store reads it for the trigram scan: its document's audiences null when it has no document (unrestricted readers only). */
export interface ScanChunk {
  id: string;
  title: string;
  text: string;
  audiences: readonly string[] | null;
}

/**
 * A small workspace's chunks as the trigram scan keeps them between searches: their
 * `fragmentText`s in one UTF-8 buffer outside the JS heap, so the thousands of workspaces a server
 * keeps are neither copied nor compacted by the garbage collector (whose pauses are a busy
 * server's slowest requests), and a fragment is found in all of a workspace's chunks by one native
 * search (1.4× faster than one search per chunk's string, SciFact's 20-chunk workspaces).
 *
 * `rank` is `rankFragments` over the chunks the reader may read, to the same scores: UTF-8 bytes
 * match where the string does (a fragment's first byte is never a continuation byte), and a
 * match never spans two chunks.
 */
export class ScanTexts {
  private constructor(
    private readonly ids: readonly string[],
    private readonly audiences: readonly (readonly string[] | null)[],
    /** Chunk i's bytes are `text[starts[i], starts[i + 1])`. */
    private readonly text: Buffer,
    private readonly starts: Int32Array,
    /** Each chunk's length in code points, as SQL counts it. */
    private readonly lengths: Int32Array,
  ) {}

  static of(chunks: readonly ScanChunk[]): ScanTexts {
    const n = chunks.length;
    const bodies = chunks.map((c) => fragmentText(c.title, c.text));
    const textBytes = bodies.reduce((sum, body) => sum + Buffer.byteLength(body), 0);
    // One ArrayBuffer for the offsets, lengths and text (a collector's pause sweeps each buffer a
    // process holds), and its own memory, not a slice of Node's shared pool.
    const arena = new ArrayBuffer(4 * (2 * n + 1) + textBytes);
    const starts = new Int32Array(arena, 0, n + 1);
    const lengths = new Int32Array(arena, 4 * (n + 1), n);
    const text = Buffer.from(arena, 4 * (2 * n + 1), textBytes);
    bodies.forEach((body, i) => {
      starts[i + 1] = starts[i]! + text.write(body, starts[i]!);
      lengths[i] = codePoints(body);
    });
    return new ScanTexts(
      chunks.map((c) => c.id),
      chunks.map((c) => c.audiences),
      text,
      starts,
      lengths,
    );
  }

  /** About how much memory it holds, for the index cache's budget. */
  get bytes(): number {
    return this.text.buffer.byteLength + this.ids.reduce((n, id) => n + 2 * id.length + 48, 64);
  }

  /** The chunks holding folded `fragments` that a reader of `audiences` may read (null: every chunk), ranked as `rankFragments` ranks them. */
  rank(fragments: readonly string[], limit: number, audiences: Audiences): RankedHit[] {
    const n = this.ids.length;
    const f = fragments.length;
    // occurrences[i * f + j]: fragment j's non-overlapping occurrences in chunk i.
    const occurrences = counts(n * f);
    fragments.forEach((fragment, j) => {
      const needle = Buffer.from(fragment);
      if (needle.length === 0) return;
      let chunk = 0;
      for (let at = this.text.indexOf(needle); at >= 0; ) {
        while (this.starts[chunk + 1]! <= at) chunk++;
        const end = this.starts[chunk + 1]!;
        if (at + needle.length <= end) {
          occurrences[chunk * f + j]!++;
          at = this.text.indexOf(needle, at + needle.length);
        } else {
          // Runs into the next chunk: so would any later start in this one.
          at = this.text.indexOf(needle, end);
        }
      }
    });
    const readable = (i: number) => audiences === null || (this.audiences[i] !== null && canRead(audiences, this.audiences[i]!));
    return rankOccurrences(n, f, (i) => this.ids[i]!, (i) => this.lengths[i]!, (i, j) => (occurrences[i * f + j]! > 0 && readable(i) ? occurrences[i * f + j]! : 0), limit);
  }
}

/** Zeroed counts for one `rank`, in a buffer reused across calls (one of its own would be garbage at every search). */
let countScratch = new Int32Array(4096);
function counts(length: number): Int32Array {
  if (countScratch.length < length) countScratch = new Int32Array(Math.max(length, 2 * countScratch.length));
  return countScratch.fill(0, 0, length);
}

/**
 * The trigram fallback's ranking of chunks the caller read (their `fragmentText`), for folded
 * fragments: each fragment's non-overlapping occurrences in a chunk, scored by BM25 over the
 * lengths of the matching (chunk, fragment) pairs, summed per chunk; best first, then by id.
 *
 * The stores rank the same way in SQL where the candidates come from their trigram index. This
 * is the arithmetic of SQLite's statement step for step (lengths in code points, the average of
 * integer lengths, a compensated sum per chunk in fragment order), so a workspace scanned here
 * and one ranked in SQL give the same scores.
 */
export function rankFragments(chunks: readonly { id: string; body: string }[], fragments: readonly string[], limit: number): RankedHit[] {
  const lengths = chunks.map((c) => codePoints(c.body));
  return rankOccurrences(chunks.length, fragments.length, (i) => chunks[i]!.id, (i) => lengths[i]!, (i, j) => occurrences(chunks[i]!.body, fragments[j]!), limit);
}

/**
 * The scoring of `rankFragments` from each chunk's occurrences of each fragment (`occ(i, j)`, 0:
 * none or not readable): pairs in chunk then fragment order, as the statement's rows come.
 */
function rankOccurrences(chunks: number, fragments: number, id: (i: number) => string, length: (i: number) => number, occ: (i: number, j: number) => number, limit: number): RankedHit[] {
  const { k1, b } = FRAGMENT_BM25;
  const pairs: { id: string; len: number; occ: number }[] = [];
  let lengths = 0;
  for (let i = 0; i < chunks; i++) {
    for (let j = 0; j < fragments; j++) {
      const o = occ(i, j);
      if (o === 0) continue;
      const len = length(i);
      pairs.push({ id: id(i), len, occ: o });
      lengths += len;
    }
  }
  if (pairs.length === 0) return [];
  const avglen = lengths / pairs.length;
  const sums = new Map<string, CompensatedSum>();
  for (const { id, len, occ } of pairs) {
    let sum = sums.get(id);
    if (!sum) sums.set(id, (sum = new CompensatedSum()));
    sum.add((occ * (k1 + 1)) / (occ + k1 * (1 - b + (b * len) / Math.max(avglen, 1))));
  }
  return [...sums]
    .map(([chunkId, sum]) => ({ chunkId, score: sum.value() }))
    .sort((x, y) => y.score - x.score || (x.chunkId < y.chunkId ? -1 : x.chunkId > y.chunkId ? 1 : 0))
    .slice(0, limit);
}

/** Non-overlapping occurrences, left to right (SQL's `replace` counts the same ones). */
function occurrences(body: string, fragment: string): number {
  let n = 0;
  for (let at = body.indexOf(fragment); at >= 0; at = body.indexOf(fragment, at + fragment.length)) n++;
  return n;
}

/** Length in code points, as SQL counts a text's characters. */
function codePoints(text: string): number {
  let pairs = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) (pairs++, i++);
    }
  }
  return text.length - pairs;
}

/** Kahan–Babuška–Neumaier summation, as SQLite's `sum()` adds floating-point values. */
class CompensatedSum {
  private sum = 0;
  private error = 0;

  add(r: number) {
    const s = this.sum;
    const t = s + r;
    this.error += Math.abs(s) > Math.abs(r) ? s - t + r : r - t + s;
    this.sum = t;
  }

  value() {
    return Number.isFinite(this.error) ? this.sum + this.error : this.sum;
  }
}
