/**
 * Immutable lexical segments: the postings of a set of chunks (terms, Thai trigrams, adjacent
 * term pairs) serialized into one byte array that is written beside the chunks at ingest and
 * read back as typed-array views, so a search never tokenizes or indexes stored chunks.
 *
 * A workspace's index is its segments (each with the chunks masked by later deletions) ranked as
 * one: document frequencies, the document count and the average length are summed over the live
 * chunks of every segment, and each chunk's score adds its terms in the order LexicalIndex does,
 * so rankings equal those of one LexicalIndex over the same chunks.
 *
 * Each chunk carries its document's audiences as a group number into a small table of audience
 * lists (documents share a few), so a restricted reader is filtered inside the ranking. A later
 * change of a document's audiences is an override (chunk, seq, audiences) read beside the
 * segments, as deletions are, until a merge rewrites the chunk with them.
 */
import type { LexicalQuery, LexicalSourceDoc, RankedHit } from './ports/search-index.js';
import { unspacedTrigrams } from '../text/char-grams.js';
import { DEFAULT_LEXICAL_WEIGHTS, topK, type LexicalWeights } from './lexical-index.js';

/**
 * "PLS3": compact postings (varints, deltas, a table of the segment's distinct frequencies).
 * "PLS2" segments (fixed-width arrays, 2.5–3× larger) are still read, converted as they load, and
 * rewritten by the next merge; "PLS1" segments did not carry audiences and are rebuilt.
 */
const MAGIC = 0x504c5333;
const MAGIC_V2 = 0x504c5332;
const K1 = 1.2;
const B = 0.75;
const HEADER_INTS = 12;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Byte order of UTF-8 strings (the dictionary's sort order). */
function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** What a segment's stored frequencies depend on: segments built with other weights are rebuilt. */
const weightsTag = (w: LexicalWeights) => `${w.title}/${w.body}/${w.grams > 0 ? 1 : 0}`;

interface Postings {
  docs: number[];
  tfs: number[];
}

/** The key of an audience list (order and repeats do not matter), as LexicalIndex groups them. */
const groupKey = (audiences: readonly string[]) => [...new Set(audiences)].sort().join('\u0000');

/** Numbers chunks' audience lists: `of` a list gives its group, `lists` the table to store. */
class AudienceGroups {
  readonly lists: string[][] = [];
  private readonly numbers = new Map<string, number>();
  of(audiences: readonly string[]): number {
    const key = groupKey(audiences);
    let g = this.numbers.get(key);
    if (g === undefined) {
      this.numbers.set(key, (g = this.lists.length));
      this.lists.push(key === '' ? [] : key.split('\u0000'));
    }
    return g;
  }
}

/**
 * Serializes the postings of `docs` (their stored index terms, as LexicalIndex.upsert reads them).
 * `docs` may come from the chunks just written (ingest) or from other segments (a merge).
 */
export function encodeSegment(docs: readonly LexicalSourceDoc[], weights: LexicalWeights = DEFAULT_LEXICAL_WEIGHTS): Uint8Array {
  const byName = new Map<string, Postings>();
  const lengths: number[] = [];
  const groups = new AudienceGroups();
  const group: number[] = [];
  docs.forEach((doc, n) => {
    // Absent: internal only (never read by a restricted reader), as in LexicalIndex.
    group.push(groups.of(doc.audiences ?? []));
    if (doc.id.includes('\n')) throw new Error(`A chunk id cannot hold a line break: ${JSON.stringify(doc.id)}.`);
    // Frequencies by key name: terms and trigrams share names (as in LexicalIndex), a pair is "a b".
    const tf = new Map<string, number>();
    const count = (name: string, weight: number) => tf.set(name, (tf.get(name) ?? 0) + weight);
    let length = 0;
    for (const [text, weight] of [
      [doc.title, weights.title],
      [doc.body, weights.body],
    ] as const) {
      let previous: string | null = null;
      const terms = text.split(' ');
      if (weights.grams > 0) for (const gram of unspacedTrigrams(terms)) count(gram, weight);
      for (const term of terms) {
        if (term.length === 0) continue;
        length++;
        count(term, weight);
        // A pair never spans the title and the body.
        if (previous !== null) count(`${previous} ${term}`, weight);
        previous = term;
      }
    }
    for (const [name, f] of tf) {
      let postings = byName.get(name);
      if (!postings) byName.set(name, (postings = { docs: [], tfs: [] }));
      postings.docs.push(n);
      postings.tfs.push(f);
    }
    // One token more than the terms, as LexicalIndex counts (FTS5's scope column).
    lengths.push(length + 1);
  });
  return encodePostings(
    docs.map((d) => d.id),
    lengths,
    group,
    groups.lists,
    byName,
    weightsTag(weights),
  );
}

/** Appends unsigned varints (7 bits a byte, low first) to a growing byte buffer. */
class ByteWriter {
  private buf = new Uint8Array(1024);
  length = 0;
  private room(n: number) {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }
  varint(v: number) {
    this.room(10);
    // Arithmetic rather than shifts: a value may pass 2^31.
    while (v >= 0x80) {
      this.buf[this.length++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[this.length++] = v;
  }
  bytes(b: Uint8Array) {
    this.room(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }
  float32(f: number) {
    this.room(4);
    new DataView(this.buf.buffer).setFloat32(this.length, f, true);
    this.length += 4;
  }
  done(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

/**
 * Reads `count` varints of `data` from `at` into `out` from `into` (as running totals with `sum`,
 * each added to the one before); returns the position after them. Values fit 32 bits here.
 */
function readVarints(data: Uint8Array, at: number, out: Uint32Array, into: number, count: number, sum: boolean): number {
  let total = sum && into > 0 ? out[into - 1]! : 0;
  for (let i = 0; i < count; i++) {
    let b = data[at++]!;
    let v = b & 0x7f;
    for (let shift = 7; b >= 0x80; shift += 7) {
      b = data[at++]!;
      v += (b & 0x7f) * 2 ** shift;
    }
    if (sum) out[into + i] = total += v;
    else out[into + i] = v;
  }
  return at;
}

/** Keys (and terms) per entry of a segment's block indexes: a lookup reads at most this many varints to its entry. */
const BLOCK = 64;
const blocks = (n: number) => Math.floor(n / BLOCK) + 1;
/** Terms per entry of the pair index a segment reads at its first pair lookup (see readPairSteps). */
const PAIR_STEP = 8;

/** A segment's per-chunk varints as it loads, reused: a buffer of their own would be garbage at each load. */
let perDocScratch = new Uint32Array(2048);
const scratch = (length: number) => (perDocScratch.length >= length ? perDocScratch : (perDocScratch = new Uint32Array(Math.max(length, 2 * perDocScratch.length))));

/** Where the last `varintAt` ended. */
let varintEnd = 0;

/** The varint of `data` at `at` (its end in `varintEnd`). */
function varintAt(data: Uint8Array, at: number): number {
  let b = data[at++]!;
  let v = b & 0x7f;
  for (let scale = 0x80; b >= 0x80; scale *= 0x80) {
    b = data[at++]!;
    v += (b & 0x7f) * scale;
  }
  varintEnd = at;
  return v;
}

/** Reads what ByteWriter wrote, from `at`. */
class ByteReader {
  constructor(
    private readonly data: Uint8Array,
    public at: number,
  ) {}
  varint(): number {
    const d = this.data;
    let b = d[this.at++]!;
    if (b < 0x80) return b;
    let v = b & 0x7f;
    let scale = 0x80;
    do {
      b = d[this.at++]!;
      v += (b & 0x7f) * scale;
      scale *= 0x80;
    } while (b >= 0x80);
    return v;
  }
  take(n: number): Uint8Array {
    const out = this.data.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }
}

/**
 * A segment read back. PLS3 layout: the magic, then varints (chunks, terms T, pairs P, distinct
 * frequencies F, and the byte lengths of the ids, the dictionary, the weights tag, the audience
 * table, the postings and the three varint runs below), then the tag, the ids, the audience table,
 * F float32 frequencies (most used first), each chunk's length and audience group, each term's byte
 * length and the dictionary (terms in byte order), three varint runs — each term's count of pairs it
 * starts, the pairs' second terms (gaps within a first term), each key's postings length — then the
 * block indexes into them (every BLOCK terms, every BLOCK keys), and the postings: per posting one
 * varint, (chunk gap − 1) × F + frequency number. Only the dictionary's offsets and the block
 * indexes are decoded as a segment loads; a lookup reads at most a block of varints.
 */
export class LexicalSegment {
  readonly ids: string[];
  readonly lengths: Int32Array;
  readonly size: number;
  readonly bytes: number;
  readonly weightsTag: string;
  /** Per chunk: its audience group, an index into `groups`. */
  readonly group: Int32Array;
  readonly groups: string[][];
  /** The distinct frequencies a posting's varint numbers. */
  readonly tfs: Float32Array;
  readonly postings: Uint8Array;
  private readonly termOffsets: Uint32Array;
  private readonly termBytes: Uint8Array;
  /** Per term: how many pairs it starts (varints). */
  private readonly pairCounts: Uint8Array;
  /** The pairs' second terms, gaps within a first term (varints). */
  private readonly pairGaps: Uint8Array;
  /** Per key: its postings' byte length (varints). */
  private readonly postingLengths: Uint8Array;
  /** Per BLOCK terms: the pair number, pairCounts offset and pairGaps offset before the block. */
  private readonly pairBlocks: Uint32Array;
  /** Per BLOCK keys: the postings offset and postingLengths offset before the block. */
  private readonly keyBlocks: Uint32Array;
  private readonly pairs: number;
  private readonly terms: number;
  /** Where keyRange found a key's postings. */
  private from = 0;
  private to = 0;
  private numbers: Map<string, number> | null = null;
  /** The pair index, filled at the first pair lookup (readPairSteps). */
  private readonly pairSteps: Uint32Array;
  private pairStepsRead = false;

  /** Whether `data` is of the format segments are written in now (older readable ones are rewritten by a merge). */
  static current(data: Uint8Array): boolean {
    return data.byteLength >= 4 && new DataView(data.buffer, data.byteOffset, 4).getInt32(0, true) === MAGIC;
  }

  /** Whether `data` starts as a segment of any version ("PLS" and a version byte), readable or not: what a store that wraps segments tells them apart by. */
  static tagged(data: Uint8Array): boolean {
    return data.byteLength >= 4 && new DataView(data.buffer, data.byteOffset, 4).getUint32(0, true) >>> 8 === MAGIC >>> 8;
  }

  /** Whether `data` is a segment this version reads (older ones are rebuilt, not read). */
  static readable(data: Uint8Array): boolean {
    if (data.byteLength < 8) return false;
    const magic = new DataView(data.buffer, data.byteOffset, 4).getInt32(0, true);
    return magic === MAGIC || (magic === MAGIC_V2 && data.byteLength >= 4 * HEADER_INTS);
  }

  constructor(stored: Uint8Array) {
    const magic = stored.byteLength >= 4 ? new DataView(stored.buffer, stored.byteOffset, 4).getInt32(0, true) : 0;
    // A PLS2 segment is converted as it loads (the merge that next takes it writes PLS3).
    const given = magic === MAGIC_V2 ? upgradeV2(stored) : stored;
    if (magic !== MAGIC && magic !== MAGIC_V2) throw new Error('Not a lexical segment of this version.');
    let r = new ByteReader(given, 4);
    const [docs, T, P, F, idLength, termLength, tagLength, groupLength, postingLength, pairCountLength, pairGapLength, postingLengthsLength] = Array.from({ length: 12 }, () => r.varint()) as number[];
    this.weightsTag = decoder.decode(r.take(tagLength!));
    const idText = r.take(idLength!);
    this.ids = docs === 0 ? [] : decoder.decode(idText).split('\n');
    this.groups = JSON.parse(decoder.decode(r.take(groupLength!))) as string[][];
    // Every array decoded here shares one ArrayBuffer with a copy of the segment's bytes (the read's
    // own buffer is then garbage): a collector's pause sweeps each buffer a process holds, and a
    // server keeps thousands of segments loaded.
    const stepCount = 3 * (Math.floor(T! / PAIR_STEP) + 1);
    const sizes = [F!, docs!, docs!, T! + 1, 3 * blocks(T!), 2 * blocks(T! + P!), stepCount];
    const intBytes = 4 * sizes.reduce((a, b) => a + b, 0);
    const arena = new ArrayBuffer(intBytes + given.byteLength);
    const data = new Uint8Array(arena, intBytes, given.byteLength);
    data.set(given);
    r = new ByteReader(data, r.at);
    let next = 0;
    const view = <A>(make: new (buffer: ArrayBuffer, offset: number, length: number) => A, i: number): A => {
      const array = new make(arena, 4 * next, sizes[i]!);
      next += sizes[i]!;
      return array;
    };
    this.tfs = view(Float32Array, 0);
    const tfBytes = r.take(4 * F!);
    const tfView = new DataView(tfBytes.buffer, tfBytes.byteOffset, tfBytes.byteLength);
    for (let i = 0; i < F!; i++) this.tfs[i] = tfView.getFloat32(4 * i, true);
    // The varint runs are read in tight loops (a 1,000-chunk segment holds ~130k of them).
    const perDoc = scratch(2 * docs!);
    r.at = readVarints(data, r.at, perDoc, 0, 2 * docs!, false);
    this.lengths = view(Int32Array, 1);
    this.group = view(Int32Array, 2);
    for (let d = 0; d < docs!; d++) {
      this.lengths[d] = perDoc[2 * d]!;
      this.group[d] = perDoc[2 * d + 1]!;
    }
    this.termOffsets = view(Uint32Array, 3);
    r.at = readVarints(data, r.at, this.termOffsets, 1, T!, true);
    this.termBytes = r.take(termLength!);
    this.pairCounts = r.take(pairCountLength!);
    this.pairGaps = r.take(pairGapLength!);
    this.postingLengths = r.take(postingLengthsLength!);
    this.pairBlocks = view(Uint32Array, 4);
    r.at = readVarints(data, r.at, this.pairBlocks, 0, this.pairBlocks.length, false);
    this.keyBlocks = view(Uint32Array, 5);
    r.at = readVarints(data, r.at, this.keyBlocks, 0, this.keyBlocks.length, false);
    this.pairSteps = view(Uint32Array, 6);
    this.postings = r.take(postingLength!);
    this.pairs = P!;
    this.terms = T!;
    this.size = docs!;
    // With the pair index (readPairSteps), read at the first pair lookup: most segments are searched with pairs.
    this.bytes = arena.byteLength + this.ids.reduce((s, id) => s + 2 * id.length + 40, 0);
  }

  /** The number of a chunk in this segment (its position), or undefined. */
  numberOf(id: string): number | undefined {
    this.numbers ??= new Map(this.ids.map((x, i) => [x, i]));
    return this.numbers.get(id);
  }

  /** The term's key (its dictionary position), or -1. */
  term(utf8: Uint8Array): number {
    let lo = 0;
    let hi = this.terms - 1;
    const offsets = this.termOffsets;
    const dict = this.termBytes;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const from = offsets[mid]!;
      const n = offsets[mid + 1]! - from;
      let c = 0;
      const m = Math.min(n, utf8.length);
      for (let i = 0; i < m && c === 0; i++) c = dict[from + i]! - utf8[i]!;
      if (c === 0) c = n - utf8.length;
      if (c === 0) return mid;
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** The key of the adjacent pair of term keys a, b, or -1. */
  pair(a: number, b: number): number {
    if (!this.pairStepsRead) {
      this.readPairSteps(this.pairSteps);
      this.pairStepsRead = true;
    }
    const steps = this.pairSteps;
    const step = Math.floor(a / PAIR_STEP);
    let pair = steps[3 * step]!;
    const counts = this.pairCounts;
    const gaps = this.pairGaps;
    let c = steps[3 * step + 1]!;
    let g = steps[3 * step + 2]!;
    // Skip the step's terms before a, and their pairs.
    for (let t = step * PAIR_STEP; t < a; t++) {
      const n = varintAt(counts, c);
      c = varintEnd;
      pair += n;
      for (let i = 0; i < n; i++) while (gaps[g++]! >= 0x80);
    }
    const n = varintAt(counts, c);
    let second = -1;
    for (let i = 0; i < n; i++) {
      second += varintAt(gaps, g) + 1;
      g = varintEnd;
      if (second === b) return this.terms + pair + i;
      if (second > b) return -1;
    }
    return -1;
  }

  /**
   * The pair number, pairCounts offset and pairGaps offset before every PAIR_STEP terms: the
   * stored block index spans BLOCK terms, whose pairs (hundreds, thousands for common terms) a
   * lookup would otherwise skip one by one. Read at the first pair lookup, from the stored runs.
   */
  private readPairSteps(steps: Uint32Array): void {
    const counts = this.pairCounts;
    const gaps = this.pairGaps;
    let pair = 0;
    let c = 0;
    let g = 0;
    for (let t = 0; t <= this.terms; t++) {
      if (t % PAIR_STEP === 0) {
        const at = 3 * (t / PAIR_STEP);
        steps[at] = pair;
        steps[at + 1] = c;
        steps[at + 2] = g;
      }
      if (t === this.terms) break;
      const n = varintAt(counts, c);
      c = varintEnd;
      pair += n;
      for (let i = 0; i < n; i++) while (gaps[g++]! >= 0x80);
    }
  }

  /** Sets `from` and `to` to the byte range of the key's postings. */
  private keyRange(key: number): void {
    const block = Math.floor(key / BLOCK);
    let from = this.keyBlocks[2 * block]!;
    let at = this.keyBlocks[2 * block + 1]!;
    const lengths = this.postingLengths;
    for (let k = block * BLOCK; k < key; k++) {
      from += varintAt(lengths, at);
      at = varintEnd;
    }
    this.from = from;
    this.to = from + varintAt(lengths, at);
  }

  termName(k: number): string {
    return decoder.decode(this.termBytes.subarray(this.termOffsets[k], this.termOffsets[k + 1]));
  }

  get termCount(): number {
    return this.terms;
  }

  get pairCount(): number {
    return this.pairs;
  }

  /** Calls `visit` with each pair's key and its terms' keys, in key order. */
  forEachPair(visit: (key: number, a: number, b: number) => void): void {
    let c = 0;
    let g = 0;
    let key = this.terms;
    for (let a = 0; a < this.terms; a++) {
      const n = varintAt(this.pairCounts, c);
      c = varintEnd;
      let second = -1;
      for (let i = 0; i < n; i++) {
        second += varintAt(this.pairGaps, g) + 1;
        g = varintEnd;
        visit(key++, a, second);
      }
    }
  }

  /**
   * Decodes the postings of `key` whose chunk is live into `docs` (the chunk's number plus `base`)
   * and `tfs` from position `n`; returns the position after them. The varint loop is written out
   * here and in `forEachPosting` rather than shared: this one runs for every term of every query.
   */
  decodeLive(key: number, live: Uint8Array, base: number, docs: Int32Array, tfs: Float64Array, n: number): number {
    const { postings } = this;
    const table = this.tfs;
    const F = table.length;
    let doc = -1;
    this.keyRange(key);
    for (let e = this.from, end = this.to; e < end; ) {
      let v = postings[e++]!;
      if (v >= 0x80) {
        v &= 0x7f;
        let scale = 0x80;
        let b: number;
        do {
          b = postings[e++]!;
          v += (b & 0x7f) * scale;
          scale *= 0x80;
        } while (b >= 0x80);
      }
      const gap = Math.floor(v / F);
      doc += gap + 1;
      if (!live[doc]) continue;
      docs[n] = base + doc;
      tfs[n++] = table[v - gap * F]!;
    }
    return n;
  }

  /** Calls `visit` with each posting of `key`: the chunk's number and its frequency. */
  forEachPosting(key: number, visit: (doc: number, tf: number) => void): void {
    const { postings, tfs } = this;
    const F = tfs.length;
    let doc = -1;
    this.keyRange(key);
    for (let e = this.from, end = this.to; e < end; ) {
      let v = postings[e++]!;
      if (v >= 0x80) {
        v &= 0x7f;
        let scale = 0x80;
        let b: number;
        do {
          b = postings[e++]!;
          v += (b & 0x7f) * scale;
          scale *= 0x80;
        } while (b >= 0x80);
      }
      const gap = Math.floor(v / F);
      doc += gap + 1;
      visit(doc, tfs[v - gap * F]!);
    }
  }
}

/** A PLS2 segment's contents re-encoded as PLS3 (its fixed-width arrays read in place). */
function upgradeV2(data: Uint8Array): Uint8Array {
  const bytes = data.byteOffset % 4 === 0 ? data : data.slice();
  const buffer = bytes.buffer;
  const base = bytes.byteOffset;
  const header = new Int32Array(buffer, base, HEADER_INTS);
  const [, docs, T, P, postings, idLength, termLength, tagLength, groupLength] = header as unknown as number[];
  const pad = (n: number) => (n + 3) & ~3;
  let at = base + 4 * HEADER_INTS;
  const tag = decoder.decode(new Uint8Array(buffer, at, tagLength!));
  at += pad(tagLength!);
  const lengths = new Int32Array(buffer, at, docs!);
  at += 4 * docs!;
  const group = new Int32Array(buffer, at, docs!);
  at += 4 * docs!;
  const termOffsets = new Uint32Array(buffer, at, T! + 1);
  at += 4 * (T! + 1);
  const pairA = new Int32Array(buffer, at, P!);
  at += 4 * P!;
  const pairB = new Int32Array(buffer, at, P!);
  at += 4 * P!;
  const start = new Uint32Array(buffer, at, T! + P! + 1);
  at += 4 * (T! + P! + 1);
  const doc = new Int32Array(buffer, at, postings!);
  at += 4 * postings!;
  const tf = new Float32Array(buffer, at, postings!);
  at += 4 * postings!;
  const ids = docs === 0 ? [] : decoder.decode(new Uint8Array(buffer, at, idLength!)).split('\n');
  at += pad(idLength!);
  const termBytes = new Uint8Array(buffer, at, termLength!);
  at += pad(termLength!);
  const groups = JSON.parse(decoder.decode(new Uint8Array(buffer, at, groupLength!))) as string[][];
  const names: string[] = [];
  for (let k = 0; k < T!; k++) names.push(decoder.decode(termBytes.subarray(termOffsets[k], termOffsets[k + 1])));
  const byName = new Map<string, Postings>();
  const collect = (key: number, name: string) => {
    const p: Postings = { docs: [], tfs: [] };
    for (let e = start[key]!; e < start[key + 1]!; e++) {
      p.docs.push(doc[e]!);
      p.tfs.push(tf[e]!);
    }
    byName.set(name, p);
  };
  for (let k = 0; k < T!; k++) collect(k, names[k]!);
  for (let p = 0; p < P!; p++) collect(T! + p, `${names[pairA[p]!]} ${names[pairB[p]!]}`);
  return encodePostings(ids, Array.from(lengths), Array.from(group), groups, byName, tag);
}

/**
 * One segment of a workspace as searched: its chunks still live (1) or masked by a later change
 * (0), and the audiences of chunks whose document's audiences changed after it was written.
 */
export interface SegmentPart {
  segment: LexicalSegment;
  live: Uint8Array;
  audiences?: ReadonlyMap<number, readonly string[]>;
}

/** A change of a chunk's audiences (its document's), recorded at `seq`. */
export interface AudienceChange {
  chunkId: string;
  seq: number;
  audiences: readonly string[];
}

/** The audiences of a segment's chunks changed after it (higher seq): the latest change of each, by chunk number. */
export function audienceOverrides(segment: LexicalSegment, seq: number, changes: readonly AudienceChange[]): Map<number, readonly string[]> {
  const latest = new Map<number, AudienceChange>();
  for (const c of changes) {
    if (c.seq <= seq) continue;
    const n = segment.numberOf(c.chunkId);
    if (n !== undefined && (latest.get(n)?.seq ?? -1) < c.seq) latest.set(n, c);
  }
  return new Map([...latest].map(([n, c]) => [n, c.audiences]));
}

/** The audiences a part's chunk `d` is read with now. */
const audiencesOf = (part: SegmentPart, d: number): readonly string[] => part.audiences?.get(d) ?? part.segment.groups[part.segment.group[d]!]!;

/** Live flags of a segment's chunks: a deletion recorded after the segment (higher seq) masks its chunk. */
export function liveMask(segment: LexicalSegment, seq: number, deletions: readonly { chunkId: string; seq: number }[]): Uint8Array {
  const live = new Uint8Array(segment.size).fill(1);
  for (const d of deletions) {
    if (d.seq <= seq) continue;
    const n = segment.numberOf(d.chunkId);
    if (n !== undefined) live[n] = 0;
  }
  return live;
}

/**
 * Merges segments' live chunks into one segment, posting by posting (no chunk text or terms
 * needed): the keys are joined by name, the chunks renumbered in input order.
 */
export function mergeSegments(parts: readonly SegmentPart[], weights: LexicalWeights = DEFAULT_LEXICAL_WEIGHTS): Uint8Array {
  const tag = weightsTag(weights);
  // Postings by key name: terms by their text, pairs by their terms' texts joined by a space (terms hold none).
  const byName = new Map<string, Postings>();
  const ids: string[] = [];
  const lengths: number[] = [];
  const groups = new AudienceGroups();
  const group: number[] = [];
  for (const part of parts) {
    const { segment, live } = part;
    if (segment.weightsTag !== tag) throw new Error(`A segment built for weights ${segment.weightsTag} cannot merge into ${tag}.`);
    const renumber = new Int32Array(segment.size).fill(-1);
    for (let d = 0; d < segment.size; d++) {
      if (!live[d]) continue;
      renumber[d] = ids.length;
      ids.push(segment.ids[d]!);
      lengths.push(segment.lengths[d]!);
      group.push(groups.of(audiencesOf(part, d)));
    }
    const names: string[] = [];
    for (let k = 0; k < segment.termCount; k++) names.push(segment.termName(k));
    const collect = (key: number, name: string) => {
      let target: Postings | undefined;
      segment.forEachPosting(key, (doc, tf) => {
        const d = renumber[doc]!;
        if (d === -1) return;
        if (!target) {
          target = byName.get(name);
          if (!target) byName.set(name, (target = { docs: [], tfs: [] }));
        }
        target.docs.push(d);
        target.tfs.push(tf);
      });
    };
    for (let k = 0; k < segment.termCount; k++) collect(k, names[k]!);
    segment.forEachPair((key, a, b) => collect(key, `${names[a]} ${names[b]}`));
  }
  return encodePostings(ids, lengths, group, groups.lists, byName, tag);
}

/** Serializes named postings (terms, and pairs named "a b") in the layout LexicalSegment reads (PLS3). */
function encodePostings(ids: string[], lengths: number[], group: number[], groups: string[][], byName: Map<string, Postings>, tag: string): Uint8Array {
  const termNames: string[] = [];
  const pairNames: string[] = [];
  for (const name of byName.keys()) (name.includes(' ') ? pairNames : termNames).push(name);
  const encoded = new Map(termNames.map((t) => [t, encoder.encode(t)]));
  termNames.sort((a, b) => compareBytes(encoded.get(a)!, encoded.get(b)!));
  const rank = new Map(termNames.map((t, i) => [t, i]));
  const pairs = pairNames
    .map((name) => {
      const space = name.indexOf(' ');
      return [rank.get(name.slice(0, space))!, rank.get(name.slice(space + 1))!, name] as const;
    })
    .sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  // The distinct frequencies (as float32, what a search reads), the most used first: their numbers stay small.
  const f32 = new Float32Array(1);
  const uses = new Map<number, number>();
  for (const p of byName.values())
    for (const tf of p.tfs) {
      f32[0] = tf;
      uses.set(f32[0], (uses.get(f32[0]) ?? 0) + 1);
    }
  const table = [...uses].sort((x, y) => y[1] - x[1] || x[0] - y[0]).map(([tf]) => tf);
  const numberOf = new Map(table.map((tf, i) => [tf, i]));
  const F = Math.max(table.length, 1);
  const keys = [...termNames.map((n) => byName.get(n)!), ...pairs.map(([, , n]) => byName.get(n)!)];
  const postings = new ByteWriter();
  const postingLengths: number[] = [];
  for (const p of keys) {
    const from = postings.length;
    let previous = -1;
    for (let i = 0; i < p.docs.length; i++) {
      f32[0] = p.tfs[i]!;
      postings.varint((p.docs[i]! - previous - 1) * F + numberOf.get(f32[0])!);
      previous = p.docs[i]!;
    }
    postingLengths.push(postings.length - from);
  }
  const postingBytes = postings.done();
  const idText = encoder.encode(ids.join('\n'));
  const tagBytes = encoder.encode(tag);
  const groupText = encoder.encode(JSON.stringify(groups));
  const termBytes = termNames.reduce((s, t) => s + encoded.get(t)!.length, 0);
  const out = new ByteWriter();
  out.bytes(new Uint8Array(new Int32Array([MAGIC]).buffer));
  // The pairs each term starts, their second terms, and each key's postings length, with a block index over each.
  const startsBy = new Array<number>(termNames.length).fill(0);
  for (const [a] of pairs) startsBy[a]!++;
  const counts = new ByteWriter();
  const gaps = new ByteWriter();
  const pairBlocks: number[] = [];
  for (let a = 0, p = 0; a <= termNames.length; a++) {
    if (a % BLOCK === 0) pairBlocks.push(p, counts.length, gaps.length);
    if (a === termNames.length) break;
    counts.varint(startsBy[a]!);
    for (let b = -1, end = p + startsBy[a]!; p < end; p++) {
      gaps.varint(pairs[p]![1] - b - 1);
      b = pairs[p]![1];
    }
  }
  const lengthsOut = new ByteWriter();
  const keyBlocks: number[] = [];
  for (let k = 0, offset = 0; k <= postingLengths.length; k++) {
    if (k % BLOCK === 0) keyBlocks.push(offset, lengthsOut.length);
    if (k === postingLengths.length) break;
    lengthsOut.varint(postingLengths[k]!);
    offset += postingLengths[k]!;
  }
  const [countBytes, gapBytes, lengthBytes] = [counts.done(), gaps.done(), lengthsOut.done()];
  for (const v of [ids.length, termNames.length, pairs.length, table.length, idText.length, termBytes, tagBytes.length, groupText.length, postingBytes.length, countBytes.length, gapBytes.length, lengthBytes.length]) out.varint(v);
  out.bytes(tagBytes);
  out.bytes(idText);
  out.bytes(groupText);
  for (const tf of table) out.float32(tf);
  for (let d = 0; d < ids.length; d++) {
    out.varint(lengths[d]!);
    out.varint(group[d]!);
  }
  for (const name of termNames) out.varint(encoded.get(name)!.length);
  for (const name of termNames) out.bytes(encoded.get(name)!);
  out.bytes(countBytes);
  out.bytes(gapBytes);
  out.bytes(lengthBytes);
  for (const v of pairBlocks) out.varint(v);
  for (const v of keyBlocks) out.varint(v);
  out.bytes(postingBytes);
  return out.done();
}

/** Restricted readers' views one index keeps (a help center reads as a few audience sets). */
const AUDIENCE_VIEWS_KEPT = 4;

/**
 * A workspace's segments ranked as one index (Okapi BM25 over their live chunks, as LexicalIndex).
 */
export class SegmentedIndex {
  private readonly ids: string[] = [];
  private readonly bases: number[] = [];
  private readonly liveCount: number;
  private readonly liveLength: number;
  private readonly scores: Float64Array;
  private readonly seen: Uint8Array;
  /** The chunks a query scored so far (the first `touchedCount`), to rank and then reset. */
  private readonly touched: Int32Array;
  private touchedCount = 0;
  /**
   * Per chunk (as numbered in `ids`): BM25's length normalisation K1 × (1 − B + B × length / avgdl),
   * the same for every query of an immutable index, so computed once rather than per posting.
   */
  private readonly norms: Float64Array;
  /** Scratch for one key's decoded postings (a chunk holds a key once, so `ids.length` suffice). */
  private readonly docs: Int32Array;
  private readonly tfs: Float64Array;
  /** Per chunk (as numbered in `ids`): its audience group now, an index into `groups`. */
  private readonly group: Int32Array;
  private readonly groups = new AudienceGroups();
  /** Restricted readers' views, by audience set (see visibleParts). */
  private readonly views = new Map<string, readonly SegmentPart[]>();
  /** Includes room for the audience views it keeps. */
  readonly bytes: number;

  constructor(
    readonly parts: readonly SegmentPart[],
    private readonly weights: LexicalWeights = DEFAULT_LEXICAL_WEIGHTS,
  ) {
    let count = 0;
    let length = 0;
    let bytes = 0;
    const group: number[] = [];
    for (const part of parts) {
      const { segment, live } = part;
      this.bases.push(this.ids.length);
      const renumbered = segment.groups.map((list) => this.groups.of(list));
      for (let d = 0; d < segment.size; d++) {
        this.ids.push(segment.ids[d]!);
        const changed = part.audiences?.get(d);
        group.push(changed ? this.groups.of(changed) : renumbered[segment.group[d]!]!);
        if (live[d]) {
          count++;
          length += segment.lengths[d]!;
        }
      }
      bytes += segment.bytes + live.byteLength;
    }
    this.liveCount = count;
    this.liveLength = length;
    // One ArrayBuffer for the index's per-chunk arrays (a collector's pause sweeps each buffer):
    // three of 8-byte numbers, three of 4-byte ones, one of bytes, in that order for alignment.
    const n = this.ids.length;
    const arena = new ArrayBuffer(37 * n);
    this.scores = new Float64Array(arena, 0, n);
    this.norms = new Float64Array(arena, 8 * n, n);
    this.tfs = new Float64Array(arena, 16 * n, n);
    this.touched = new Int32Array(arena, 24 * n, n);
    this.docs = new Int32Array(arena, 28 * n, n);
    this.group = new Int32Array(arena, 32 * n, n);
    this.group.set(group);
    this.seen = new Uint8Array(arena, 36 * n, n);
    const avgdl = count > 0 ? Math.max(length / count, 1) : 1;
    parts.forEach((part, s) => {
      const lengths = part.segment.lengths;
      for (let d = 0, at = this.bases[s]!; d < lengths.length; d++, at++) this.norms[at] = K1 * (1 - B + (B * lengths[d]!) / avgdl);
    });
    this.bytes = bytes + this.scores.byteLength + this.seen.byteLength + this.touched.byteLength + this.group.byteLength + this.norms.byteLength + this.docs.byteLength + this.tfs.byteLength + 8 * this.ids.length + AUDIENCE_VIEWS_KEPT * this.ids.length;
  }

  get size(): number {
    return this.liveCount;
  }

  /**
   * The parts as a restricted reader sees them (live and of a document naming one of `audiences`),
   * kept for the audience sets searched last: the index is immutable, so a reader's view of it is
   * built once, not on every query.
   */
  private visibleParts(audiences: readonly string[]): readonly SegmentPart[] {
    const key = groupKey(audiences);
    const cached = this.views.get(key);
    if (cached) {
      // Most recently used last.
      this.views.delete(key);
      this.views.set(key, cached);
      return cached;
    }
    const allowed = this.groups.lists.map((g) => g.some((a) => audiences.includes(a)));
    const group = this.group;
    const parts = this.parts.map((part, s) => {
      const base = this.bases[s]!;
      const visible = new Uint8Array(part.segment.size);
      for (let d = 0; d < visible.length; d++) visible[d] = part.live[d]! && allowed[group[base + d]!] ? 1 : 0;
      return { segment: part.segment, live: visible };
    });
    if (this.views.size >= AUDIENCE_VIEWS_KEPT) this.views.delete(this.views.keys().next().value!);
    this.views.set(key, parts);
    return parts;
  }

  /**
   * The same scores as LexicalIndex.search over the live chunks (see there). With `audiences`,
   * chunks of documents naming none of them are not candidates (nor counted in document frequencies).
   */
  search(query: Pick<LexicalQuery, 'terms' | 'pairs' | 'grams'>, limit: number, audiences: readonly string[] | null = null): RankedHit[] {
    if (this.liveCount === 0 || limit <= 0) return [];
    const parts = audiences === null ? this.parts : this.visibleParts(audiences);
    const termKeys = new Map<string, Int32Array>();
    const keysOf = (term: string) => {
      let keys = termKeys.get(term);
      if (!keys) {
        const utf8 = encoder.encode(term);
        keys = new Int32Array(parts.length);
        for (let s = 0; s < parts.length; s++) keys[s] = parts[s]!.segment.term(utf8);
        termKeys.set(term, keys);
      }
      return keys;
    };

    this.touchedCount = 0;
    for (const term of query.terms) this.add(parts, keysOf(term), 1, false);
    if (this.weights.grams > 0) for (const gram of query.grams ?? []) this.add(parts, keysOf(gram), this.weights.grams, false);
    if (this.weights.proximity > 0) {
      // As LexicalIndex: each distinct pair once, in order of first appearance.
      const pairs = new Map<string, Int32Array>();
      for (const [a, b] of query.pairs) {
        const name = `${a} ${b}`;
        if (pairs.has(name)) continue;
        const first = keysOf(a);
        const second = keysOf(b);
        const keys = new Int32Array(parts.length);
        let found = false;
        for (let s = 0; s < parts.length; s++) {
          keys[s] = first[s] === -1 || second[s] === -1 ? -1 : parts[s]!.segment.pair(first[s]!, second[s]!);
          if (keys[s] !== -1) found = true;
        }
        if (found) pairs.set(name, keys);
      }
      for (const keys of pairs.values()) this.add(parts, keys, this.weights.proximity, true);
    }

    const { scores, seen, touched, touchedCount, ids } = this;
    const best = topK(touched, touchedCount, scores, ids, limit);
    const hits: RankedHit[] = new Array(best.length);
    for (let i = 0; i < best.length; i++) hits[i] = { chunkId: ids[best[i]!]!, score: scores[best[i]!]! };
    for (let i = 0; i < touchedCount; i++) {
      const d = touched[i]!;
      scores[d] = 0;
      seen[d] = 0;
    }
    return hits;
  }

  /**
   * Adds one key's BM25 (times `weight`) to the chunks holding it; `onlyMatched`: to chunks a term
   * matched already. The live postings of every part are decoded once: their count is the
   * document frequency.
   */
  private add(parts: readonly SegmentPart[], keys: Int32Array, weight: number, onlyMatched: boolean): void {
    const { docs, tfs, scores, seen, touched, norms, bases } = this;
    let df = 0;
    for (let s = 0; s < parts.length; s++) {
      const key = keys[s]!;
      if (key !== -1) df = parts[s]!.segment.decodeLive(key, parts[s]!.live, bases[s]!, docs, tfs, df);
    }
    if (df === 0) return;
    const idf = Math.max(Math.log((this.liveCount - df + 0.5) / (df + 0.5)), 1e-6) * weight;
    let count = this.touchedCount;
    for (let i = 0; i < df; i++) {
      const d = docs[i]!;
      if (seen[d] === 0) {
        if (onlyMatched) continue;
        seen[d] = 1;
        touched[count++] = d;
      }
      const f = tfs[i]!;
      scores[d]! += (idf * f * (K1 + 1)) / (f + norms[d]!);
    }
    this.touchedCount = count;
  }
}

export { weightsTag as segmentWeightsTag };

/** Segments of one size tier merged at once (a tier spans a factor of this many chunks). */
export const SEGMENT_MERGE_FACTOR = 10;

/**
 * The tiered merge policy: segments fall in tiers by live chunks (1–9, 10–99, …); the smallest
 * tier holding `factor` segments merges into one of the next tier, so a chunk is rewritten about
 * once per tier and a workspace holds at most factor − 1 segments per tier. Otherwise the segment
 * masking the largest share of its chunks, once that passes half, is rewritten without them;
 * else a segment of an older format is rewritten in the current one.
 * Returns the ids to merge (none: nothing to do).
 */
export function planSegmentMerge(segments: readonly { id: number; chunks: number; dead: number; outdated?: boolean }[], factor = SEGMENT_MERGE_FACTOR): number[] {
  const tier = (n: number) => Math.floor(Math.log(Math.max(n, 1)) / Math.log(factor) + 1e-9);
  const tiers = new Map<number, number[]>();
  for (const s of segments) {
    const t = tier(s.chunks - s.dead);
    tiers.set(t, [...(tiers.get(t) ?? []), s.id]);
  }
  for (const t of [...tiers.keys()].sort((a, b) => a - b)) if (tiers.get(t)!.length >= factor) return tiers.get(t)!;
  const worst = segments.filter((s) => s.dead * 2 > s.chunks).sort((a, b) => b.dead / b.chunks - a.dead / a.chunks)[0];
  if (worst) return [worst.id];
  const outdated = segments.find((s) => s.outdated);
  return outdated ? [outdated.id] : [];
}
