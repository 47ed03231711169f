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
import type { LexicalQuery, LexicalSourceDoc, RankedHit } from '../ports/search-index.js';
import { unspacedTrigrams } from '../text/char-grams.js';
import { DEFAULT_LEXICAL_WEIGHTS, topK, type LexicalWeights } from './lexical-index.js';

/** "PLS2": segments carry each chunk's audiences ("PLS1" segments did not and are rebuilt). */
const MAGIC = 0x504c5332;
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

/** A segment read back: views over its bytes (nothing is parsed but the chunk ids). */
export class LexicalSegment {
  readonly ids: string[];
  readonly lengths: Int32Array;
  readonly size: number;
  readonly bytes: number;
  readonly weightsTag: string;
  /** Per chunk: its audience group, an index into `groups`. */
  readonly group: Int32Array;
  readonly groups: string[][];
  private readonly termOffsets: Uint32Array;
  private readonly termBytes: Uint8Array;
  private readonly pairA: Int32Array;
  private readonly pairB: Int32Array;
  readonly start: Uint32Array;
  readonly doc: Int32Array;
  readonly tf: Float32Array;
  private readonly terms: number;
  private numbers: Map<string, number> | null = null;

  /** Whether `data` is a segment of the current format (older ones are rebuilt, not read). */
  static readable(data: Uint8Array): boolean {
    return data.byteLength >= 4 * HEADER_INTS && new DataView(data.buffer, data.byteOffset, 4).getInt32(0, true) === MAGIC;
  }

  constructor(data: Uint8Array) {
    // Typed-array views need 4-byte alignment: a buffer read from a driver may sit anywhere in its pool.
    const bytes = data.byteOffset % 4 === 0 ? data : data.slice();
    const buffer = bytes.buffer;
    const base = bytes.byteOffset;
    const header = new Int32Array(buffer, base, HEADER_INTS);
    if (header[0] !== MAGIC) throw new Error('Not a lexical segment of this version.');
    const [, docs, T, P, postings, idLength, termLength, tagLength, groupLength] = header as unknown as number[];
    const pad = (n: number) => (n + 3) & ~3;
    let at = base + 4 * HEADER_INTS;
    this.weightsTag = decoder.decode(new Uint8Array(buffer, at, tagLength!));
    at += pad(tagLength!);
    this.lengths = new Int32Array(buffer, at, docs!);
    at += 4 * docs!;
    this.group = new Int32Array(buffer, at, docs!);
    at += 4 * docs!;
    this.termOffsets = new Uint32Array(buffer, at, T! + 1);
    at += 4 * (T! + 1);
    this.pairA = new Int32Array(buffer, at, P!);
    at += 4 * P!;
    this.pairB = new Int32Array(buffer, at, P!);
    at += 4 * P!;
    this.start = new Uint32Array(buffer, at, T! + P! + 1);
    at += 4 * (T! + P! + 1);
    this.doc = new Int32Array(buffer, at, postings!);
    at += 4 * postings!;
    this.tf = new Float32Array(buffer, at, postings!);
    at += 4 * postings!;
    this.ids = docs === 0 ? [] : decoder.decode(new Uint8Array(buffer, at, idLength!)).split('\n');
    at += pad(idLength!);
    this.termBytes = new Uint8Array(buffer, at, termLength!);
    at += pad(termLength!);
    this.groups = JSON.parse(decoder.decode(new Uint8Array(buffer, at, groupLength!))) as string[][];
    this.terms = T!;
    this.size = docs!;
    this.bytes = bytes.byteLength + this.ids.reduce((s, id) => s + 2 * id.length + 40, 0);
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
    let lo = 0;
    let hi = this.pairA.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const c = this.pairA[mid]! - a || this.pairB[mid]! - b;
      if (c === 0) return this.terms + mid;
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  termName(k: number): string {
    return decoder.decode(this.termBytes.subarray(this.termOffsets[k], this.termOffsets[k + 1]));
  }

  get termCount(): number {
    return this.terms;
  }

  get pairCount(): number {
    return this.pairA.length;
  }

  pairAt(p: number): [number, number] {
    return [this.pairA[p]!, this.pairB[p]!];
  }
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
      for (let e = segment.start[key]!; e < segment.start[key + 1]!; e++) {
        const d = renumber[segment.doc[e]!]!;
        if (d === -1) continue;
        if (!target) {
          target = byName.get(name);
          if (!target) byName.set(name, (target = { docs: [], tfs: [] }));
        }
        target.docs.push(d);
        target.tfs.push(segment.tf[e]!);
      }
    };
    for (let k = 0; k < segment.termCount; k++) collect(k, names[k]!);
    for (let p = 0; p < segment.pairCount; p++) {
      const [a, b] = segment.pairAt(p);
      collect(segment.termCount + p, `${names[a]} ${names[b]}`);
    }
  }
  return encodePostings(ids, lengths, group, groups.lists, byName, tag);
}

/** Serializes named postings (terms, and pairs named "a b") in the layout `encodeSegment` writes. */
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
  const T = termNames.length;
  const P = pairs.length;
  let postingCount = 0;
  for (const p of byName.values()) postingCount += p.docs.length;
  const termBytes = termNames.reduce((s, t) => s + encoded.get(t)!.length, 0);
  const idText = encoder.encode(ids.join('\n'));
  const tagBytes = encoder.encode(tag);
  const groupText = encoder.encode(JSON.stringify(groups));
  const pad = (n: number) => (n + 3) & ~3;
  const size = 4 * HEADER_INTS + pad(tagBytes.length) + 8 * ids.length + 4 * (T + 1) + 8 * P + 4 * (T + P + 1) + 8 * postingCount + pad(idText.length) + pad(termBytes) + pad(groupText.length);
  const out = new Uint8Array(size);
  new Int32Array(out.buffer, 0, HEADER_INTS).set([MAGIC, ids.length, T, P, postingCount, idText.length, termBytes, tagBytes.length, groupText.length]);
  let at = 4 * HEADER_INTS;
  out.set(tagBytes, at);
  at += pad(tagBytes.length);
  new Int32Array(out.buffer, at, ids.length).set(lengths);
  at += 4 * ids.length;
  new Int32Array(out.buffer, at, ids.length).set(group);
  at += 4 * ids.length;
  const termOffsets = new Uint32Array(out.buffer, at, T + 1);
  at += 4 * (T + 1);
  const pairA = new Int32Array(out.buffer, at, P);
  at += 4 * P;
  const pairB = new Int32Array(out.buffer, at, P);
  at += 4 * P;
  const start = new Uint32Array(out.buffer, at, T + P + 1);
  at += 4 * (T + P + 1);
  const doc = new Int32Array(out.buffer, at, postingCount);
  at += 4 * postingCount;
  const tf = new Float32Array(out.buffer, at, postingCount);
  at += 4 * postingCount;
  out.set(idText, at);
  at += pad(idText.length);
  let e = 0;
  let byte = 0;
  const put = (p: Postings) => {
    for (let i = 0; i < p.docs.length; i++, e++) {
      doc[e] = p.docs[i]!;
      tf[e] = p.tfs[i]!;
    }
  };
  termNames.forEach((name, i) => {
    const bytes = encoded.get(name)!;
    termOffsets[i] = byte;
    out.set(bytes, at + byte);
    byte += bytes.length;
    start[i] = e;
    put(byName.get(name)!);
  });
  termOffsets[T] = byte;
  pairs.forEach(([a, b, name], i) => {
    pairA[i] = a;
    pairB[i] = b;
    start[T + i] = e;
    put(byName.get(name)!);
  });
  start[T + P] = e;
  out.set(groupText, at + pad(termBytes));
  return out;
}

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
  /** Per chunk (as numbered in `ids`): its audience group now, an index into `groups`. */
  private readonly group: Int32Array;
  private readonly groups = new AudienceGroups();
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
    this.scores = new Float64Array(this.ids.length);
    this.seen = new Uint8Array(this.ids.length);
    this.group = Int32Array.from(group);
    this.bytes = bytes + this.scores.byteLength + this.seen.byteLength + this.group.byteLength + 8 * this.ids.length;
  }

  get size(): number {
    return this.liveCount;
  }

  /**
   * The same scores as LexicalIndex.search over the live chunks (see there). With `audiences`,
   * chunks of documents naming none of them are not candidates (nor counted in document frequencies).
   */
  search(query: Pick<LexicalQuery, 'terms' | 'pairs' | 'grams'>, limit: number, audiences: readonly string[] | null = null): RankedHit[] {
    if (this.liveCount === 0 || limit <= 0) return [];
    const { scores, seen, bases } = this;
    let parts = this.parts;
    if (audiences !== null) {
      const allowed = this.groups.lists.map((g) => g.some((a) => audiences.includes(a)));
      const group = this.group;
      parts = parts.map((part, s) => {
        const base = bases[s]!;
        const visible = new Uint8Array(part.segment.size);
        for (let d = 0; d < visible.length; d++) visible[d] = part.live[d]! && allowed[group[base + d]!] ? 1 : 0;
        return { segment: part.segment, live: visible };
      });
    }
    const touched: number[] = [];
    const avgdl = Math.max(this.liveLength / this.liveCount, 1);
    const termKeys = new Map<string, Int32Array>();
    const keysOf = (term: string) => {
      let keys = termKeys.get(term);
      if (!keys) {
        const utf8 = encoder.encode(term);
        keys = Int32Array.from(parts, (p) => p.segment.term(utf8));
        termKeys.set(term, keys);
      }
      return keys;
    };

    const add = (keys: Int32Array, weight: number, onlyMatched: boolean) => {
      let df = 0;
      for (let s = 0; s < parts.length; s++) {
        const key = keys[s]!;
        if (key === -1) continue;
        const { segment, live } = parts[s]!;
        for (let e = segment.start[key]!, end = segment.start[key + 1]!; e < end; e++) if (live[segment.doc[e]!]) df++;
      }
      if (df === 0) return;
      const idf = Math.max(Math.log((this.liveCount - df + 0.5) / (df + 0.5)), 1e-6) * weight;
      for (let s = 0; s < parts.length; s++) {
        const key = keys[s]!;
        if (key === -1) continue;
        const { segment, live } = parts[s]!;
        const base = bases[s]!;
        const { doc, tf, lengths } = segment;
        for (let e = segment.start[key]!, end = segment.start[key + 1]!; e < end; e++) {
          const local = doc[e]!;
          const d = base + local;
          if (!live[local] || (onlyMatched && seen[d] === 0)) continue;
          const f = tf[e]!;
          if (seen[d] === 0) {
            seen[d] = 1;
            touched.push(d);
          }
          scores[d]! += (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * lengths[local]!) / avgdl));
        }
      }
    };

    for (const term of query.terms) add(keysOf(term), 1, false);
    if (this.weights.grams > 0) for (const gram of query.grams ?? []) add(keysOf(gram), this.weights.grams, false);
    if (this.weights.proximity > 0) {
      // As LexicalIndex: each distinct pair once, in order of first appearance.
      const pairs = new Map<string, Int32Array>();
      for (const [a, b] of query.pairs) {
        const name = `${a} ${b}`;
        if (pairs.has(name)) continue;
        const first = keysOf(a);
        const second = keysOf(b);
        const keys = Int32Array.from(parts, (p, s) => (first[s] === -1 || second[s] === -1 ? -1 : p.segment.pair(first[s]!, second[s]!)));
        if (keys.some((k) => k !== -1)) pairs.set(name, keys);
      }
      for (const keys of pairs.values()) add(keys, this.weights.proximity, true);
    }

    const hits = topK(touched, scores, this.ids, limit).map((d) => ({ chunkId: this.ids[d]!, score: scores[d]! }));
    for (const d of touched) {
      scores[d] = 0;
      seen[d] = 0;
    }
    return hits;
  }
}

export { weightsTag as segmentWeightsTag };

/** Segments of one size tier merged at once (a tier spans a factor of this many chunks). */
export const SEGMENT_MERGE_FACTOR = 10;

/**
 * The tiered merge policy: segments fall in tiers by live chunks (1–9, 10–99, …); the smallest
 * tier holding `factor` segments merges into one of the next tier, so a chunk is rewritten about
 * once per tier and a workspace holds at most factor − 1 segments per tier. Otherwise the segment
 * masking the largest share of its chunks, once that passes half, is rewritten without them.
 * Returns the ids to merge (none: nothing to do).
 */
export function planSegmentMerge(segments: readonly { id: number; chunks: number; dead: number }[], factor = SEGMENT_MERGE_FACTOR): number[] {
  const tier = (n: number) => Math.floor(Math.log(Math.max(n, 1)) / Math.log(factor) + 1e-9);
  const tiers = new Map<number, number[]>();
  for (const s of segments) {
    const t = tier(s.chunks - s.dead);
    tiers.set(t, [...(tiers.get(t) ?? []), s.id]);
  }
  for (const t of [...tiers.keys()].sort((a, b) => a - b)) if (tiers.get(t)!.length >= factor) return tiers.get(t)!;
  const worst = segments.filter((s) => s.dead * 2 > s.chunks).sort((a, b) => b.dead / b.chunks - a.dead / a.chunks)[0];
  return worst ? [worst.id] : [];
}
