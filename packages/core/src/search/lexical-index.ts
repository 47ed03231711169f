/**
 * In-memory BM25 over one workspace's chunks: the lexical ranking every store shares.
 *
 * Postings are kept per term (and per adjacent term pair, for the proximity boost) as chunk
 * numbers and column-weighted term frequencies in one pool of typed arrays (see PostingPool). A query scores term at a time
 * into a dense accumulator, so its cost is the length of the query terms' postings — what
 * matching costs — and every statistic (document count, average length, document frequency)
 * comes from this workspace's chunks alone.
 */
import type { LexicalQuery, RankedHit } from './ports/search-index.js';
import { unspacedTrigrams } from '../text/char-grams.js';

/** One chunk's index terms (core-tokenized, space-joined), as stored beside the chunk. */
export interface LexicalDoc {
  id: string;
  title: string;
  body: string;
  /** Its document's audiences; absent: `internal` only (never read by a restricted reader). */
  audiences?: readonly string[];
}

/**
 * Column weights of term frequency (title includes the heading path) and the weight of the
 * proximity boost: the BM25 of the query's adjacent term pairs found adjacent in a chunk, added
 * to the term score. Tuned on SciFact's train split.
 */
export interface LexicalWeights {
  title: number;
  body: number;
  proximity: number;
  /** Weight of the character trigrams of Thai (and other unspaced-script) runs, beside their words. */
  grams: number;
}

/**
 * `grams` is not tuned on labelled data (there is no Thai training split): about the inverse of a
 * Thai word's length in characters (4–5), so the trigrams of a matching word weigh about what the
 * word does (measurements in docs/decisions.md).
 */
export const DEFAULT_LEXICAL_WEIGHTS: LexicalWeights = { title: 3, body: 1, proximity: 0.15, grams: 0.2 };

/**
 * Chunks the process has tokenized (their stored text into index terms) and indexed into an
 * in-memory LexicalIndex: ingest does both; a search over stored segments does neither, which
 * tests and `/metrics` can read here.
 */
export const lexicalWork = { chunksTokenized: 0, chunksIndexed: 0 };

const K1 = 1.2;
const B = 0.75;

/** Grows a typed array to hold at least `size` items (by half again, so slack stays bounded). */
function grown<T extends Int32Array | Float32Array | Uint8Array>(array: T, size: number): T {
  if (size <= array.length) return array;
  const next = new (array.constructor as new (n: number) => T)(Math.max(size, Math.ceil(array.length * 1.5), 64));
  next.set(array);
  return next;
}

/** A typed array cut to its used length (after a bulk build). */
const trimmed = <T extends Int32Array | Float32Array | Uint8Array>(array: T, size: number): T => (array.length === size ? array : (array.slice(0, size) as T));

/**
 * Adjacent term pairs → key numbers, in an open-addressing table of typed arrays: a workspace
 * holds millions of distinct pairs, most of them in one chunk, and a Map entry with a string key
 * per pair cost ~10× more.
 */
class PairKeys {
  private first = new Int32Array(1 << 10).fill(-1);
  private second = new Int32Array(1 << 10);
  private keys = new Int32Array(1 << 10);
  private used = 0;

  get bytes(): number {
    return this.first.byteLength + this.second.byteLength + this.keys.byteLength;
  }

  private slot(a: number, b: number): number {
    const mask = this.first.length - 1;
    // Both numbers mixed into every bit (murmur3's finalizer), so sequential key numbers spread.
    let h = Math.imul(a, 0x9e3779b1) ^ b;
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    let i = (h ^ (h >>> 16)) & mask;
    while (this.first[i] !== -1 && (this.first[i] !== a || this.second[i] !== b)) i = (i + 1) & mask;
    return i;
  }

  get(a: number, b: number): number | undefined {
    const i = this.slot(a, b);
    return this.first[i] === -1 ? undefined : this.keys[i];
  }

  /** The pair's key, made by `make` when new. */
  getOrAdd(a: number, b: number, make: () => number): number {
    let i = this.slot(a, b);
    if (this.first[i] !== -1) return this.keys[i]!;
    // Filled up to three quarters: linear probing stays short, and the table is most of the index's size.
    if ((this.used + 1) * 4 > this.first.length * 3) {
      this.grow();
      i = this.slot(a, b);
    }
    this.first[i] = a;
    this.second[i] = b;
    this.used++;
    return (this.keys[i] = make());
  }

  private grow() {
    const [first, second, keys] = [this.first, this.second, this.keys];
    this.first = new Int32Array(first.length * 2).fill(-1);
    this.second = new Int32Array(first.length * 2);
    this.keys = new Int32Array(first.length * 2);
    for (let i = 0; i < first.length; i++) {
      if (first[i] === -1) continue;
      const j = this.slot(first[i]!, second[i]!);
      this.first[j] = first[i]!;
      this.second[j] = second[i]!;
      this.keys[j] = keys[i]!;
    }
  }
}

/**
 * Postings of every key (term, Thai trigram, adjacent pair) in one pool of typed arrays: entry e is
 * chunk number `doc[e]` with column-weighted frequency `tf[e]`, and `next[e]` the key's following
 * entry (-1 at the end), so appending a chunk never moves a list and an entry costs 12 bytes.
 */
class PostingPool {
  doc = new Int32Array(0);
  tf = new Float32Array(0);
  next = new Int32Array(0);
  size = 0;
  /** Per key: first and last entry (-1: none). */
  head = new Int32Array(0);
  tail = new Int32Array(0);
  keys = 0;

  get bytes(): number {
    return this.doc.byteLength + this.tf.byteLength + this.next.byteLength + this.head.byteLength + this.tail.byteLength;
  }

  newKey(): number {
    if (this.keys === this.head.length) {
      this.head = grown(this.head, this.keys + 1);
      this.tail = grown(this.tail, this.keys + 1);
    }
    this.head[this.keys] = -1;
    this.tail[this.keys] = -1;
    return this.keys++;
  }

  append(key: number, doc: number, tf: number): void {
    const e = this.size++;
    if (e === this.doc.length) {
      this.doc = grown(this.doc, e + 1);
      this.tf = grown(this.tf, e + 1);
      this.next = grown(this.next, e + 1);
    }
    this.doc[e] = doc;
    this.tf[e] = tf;
    this.next[e] = -1;
    if (this.tail[key] === -1) this.head[key] = e;
    else this.next[this.tail[key]!] = e;
    this.tail[key] = e;
  }

  /**
   * Lays each key's entries out next to each other, in key order, in arrays of exactly the used size
   * (after a bulk build, whose appends interleave every key): a long list is then read sequentially.
   * Yields every `step` entries moved so a caller can spread the work; later appends link on as before.
   */
  /** Yields every `step` postings copied (2^15: about 10 ms on a slow core). */
  *compact(step = 1 << 15): Generator<void> {
    const doc = new Int32Array(this.size);
    const tf = new Float32Array(this.size);
    const next = new Int32Array(this.size);
    let at = 0;
    let budget = step;
    for (let key = 0; key < this.keys; key++) {
      const start = at;
      for (let e = this.head[key]!; e !== -1; e = this.next[e]!) {
        doc[at] = this.doc[e]!;
        tf[at] = this.tf[e]!;
        next[at] = at + 1;
        at++;
      }
      if (at > start) {
        next[at - 1] = -1;
        this.head[key] = start;
        this.tail[key] = at - 1;
      }
      if (at >= budget) {
        budget = at + step;
        yield;
      }
    }
    this.doc = doc;
    this.tf = tf;
    this.next = next;
    this.head = trimmed(this.head, this.keys);
    this.tail = trimmed(this.tail, this.keys);
  }
}

export class LexicalIndex {
  /** Terms and Thai trigram keys → key numbers; pairs of term keys in `pairs`. */
  private readonly terms = new Map<string, number>();
  private readonly pairs = new PairKeys();
  private readonly pool = new PostingPool();
  private readonly ids: string[] = [];
  private lengths = new Int32Array(0);
  private live = new Uint8Array(0);
  /** Per chunk: its audience group, an index into `groups` (documents share a few audience lists). */
  private group = new Int32Array(0);
  private readonly groups: string[][] = [];
  private readonly groupOf = new Map<string, number>();
  private readonly numberOf = new Map<string, number>();
  private liveCount = 0;
  private liveLength = 0;
  private scores = new Float64Array(0);
  private seen = new Uint8Array(0);
  /** Estimated heap of the strings and map entries (terms, chunk ids), kept as they are added. */
  private stringBytes = 0;

  private readonly weights: LexicalWeights;

  /** Weights left out keep their defaults. */
  constructor(weights: Partial<LexicalWeights> = {}) {
    this.weights = { ...DEFAULT_LEXICAL_WEIGHTS, ...weights };
  }

  get size(): number {
    return this.liveCount;
  }

  /** Slots held by removed chunks: their postings stay until the index is rebuilt. */
  get dead(): number {
    return this.ids.length - this.liveCount;
  }

  /** Memory the index holds, estimated: its typed arrays exactly, its strings and map entries roughly. */
  get bytes(): number {
    return this.stringBytes + this.pairs.bytes + this.pool.bytes + this.lengths.byteLength + this.live.byteLength + this.group.byteLength + this.scores.byteLength + this.seen.byteLength;
  }

  has(id: string): boolean {
    return this.numberOf.has(id);
  }

  private termKey(term: string): number {
    let key = this.terms.get(term);
    if (key === undefined) {
      this.terms.set(term, (key = this.pool.newKey()));
      this.stringBytes += 2 * term.length + 64;
    }
    return key;
  }

  private groupNumber(audiences: readonly string[]): number {
    const key = [...audiences].sort().join('\u0000');
    let g = this.groupOf.get(key);
    if (g === undefined) {
      this.groupOf.set(key, (g = this.groups.length));
      this.groups.push(key === '' ? [] : key.split('\u0000'));
    }
    return g;
  }

  /** Adds a chunk, replacing any earlier version of it. */
  upsert(doc: LexicalDoc): void {
    lexicalWork.chunksIndexed++;
    this.remove(doc.id);
    const n = this.ids.length;
    this.ids.push(doc.id);
    this.stringBytes += 2 * doc.id.length + 120;
    this.live = grown(this.live, n + 1);
    this.lengths = grown(this.lengths, n + 1);
    this.group = grown(this.group, n + 1);
    this.group[n] = this.groupNumber(doc.audiences ?? []);
    this.live[n] = 1;
    this.numberOf.set(doc.id, n);
    const tf = new Map<number, number>();
    let length = 0;
    for (const [text, weight] of [
      [doc.title, this.weights.title],
      [doc.body, this.weights.body],
    ] as const) {
      let previous = -1;
      const terms = text.split(' ');
      if (this.weights.grams > 0) for (const gram of unspacedTrigrams(terms)) {
        const key = this.termKey(gram);
        tf.set(key, (tf.get(key) ?? 0) + weight);
      }
      for (const term of terms) {
        if (term.length === 0) continue;
        length++;
        const key = this.termKey(term);
        tf.set(key, (tf.get(key) ?? 0) + weight);
        // A pair never spans the title and the body (as FTS5 phrases never span columns).
        if (previous !== -1) {
          const pair = this.pairs.getOrAdd(previous, key, () => this.pool.newKey());
          tf.set(pair, (tf.get(pair) ?? 0) + weight);
        }
        previous = key;
      }
    }
    for (const [key, f] of tf) this.pool.append(key, n, f);
    // One token more than the terms: the length FTS5 gave chunks (its scope column), kept so the
    // rankings measured with FTS5 stay as they were.
    this.lengths[n] = length + 1;
    this.liveCount++;
    this.liveLength += length + 1;
  }

  remove(id: string): void {
    const n = this.numberOf.get(id);
    if (n === undefined) return;
    this.numberOf.delete(id);
    this.live[n] = 0;
    this.liveCount--;
    this.liveLength -= this.lengths[n]!;
  }

  /**
   * Packs the postings after a bulk build: each key's entries contiguous, no growth slack (later
   * upserts grow the arrays again). A generator, yielding between slices of work: searching or
   * changing the index before it is done is not allowed.
   */
  *compact(): Generator<void> {
    yield* this.pool.compact();
    this.lengths = trimmed(this.lengths, this.ids.length);
    this.live = trimmed(this.live, this.ids.length);
    this.group = trimmed(this.group, this.ids.length);
  }

  /**
   * Okapi BM25 (k1 1.2, b 0.75, FTS5's IDF) of the query terms, plus the proximity weight times the
   * BM25 of the adjacent pairs. A term repeated in the query counts
   * each time (as in FTS5). Ties break by chunk id. With `audiences`, chunks of documents naming
   * none of them are not candidates at all (nor counted in document frequencies).
   */
  search(query: Pick<LexicalQuery, 'terms' | 'pairs' | 'grams'>, limit: number, audiences: readonly string[] | null = null): RankedHit[] {
    if (this.liveCount === 0 || limit <= 0) return [];
    const size = this.ids.length;
    if (this.scores.length < size) {
      this.scores = new Float64Array(Math.max(size, this.scores.length * 2));
      this.seen = new Uint8Array(this.scores.length);
    }
    const scores = this.scores;
    const seen = this.seen;
    const touched: number[] = [];
    const avgdl = Math.max(this.liveLength / this.liveCount, 1);
    const { doc, tf, next, head } = this.pool;
    const lengths = this.lengths;
    // A restricted reader sees a chunk only when its audience group names one of the reader's audiences.
    let live = this.live;
    if (audiences !== null) {
      const allowed = this.groups.map((g) => g.some((a) => audiences.includes(a)));
      const group = this.group;
      live = new Uint8Array(this.live.length);
      for (let d = 0; d < size; d++) live[d] = this.live[d]! && allowed[group[d]!] ? 1 : 0;
    }

    const add = (key: number | undefined, weight: number, onlyMatched: boolean) => {
      if (key === undefined) return;
      let df = 0;
      for (let e = head[key]!; e !== -1; e = next[e]!) if (live[doc[e]!]) df++;
      if (df === 0) return;
      const idf = Math.max(Math.log((this.liveCount - df + 0.5) / (df + 0.5)), 1e-6) * weight;
      for (let e = head[key]!; e !== -1; e = next[e]!) {
        const d = doc[e]!;
        if (!live[d] || (onlyMatched && seen[d] === 0)) continue;
        const f = tf[e]!;
        if (seen[d] === 0) {
          seen[d] = 1;
          touched.push(d);
        }
        scores[d]! += (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * lengths[d]!) / avgdl));
      }
    };

    for (const term of query.terms) add(this.terms.get(term), 1, false);
    if (this.weights.grams > 0) for (const gram of query.grams ?? []) add(this.terms.get(gram), this.weights.grams, false);
    if (this.weights.proximity > 0) {
      // Every chunk holding a pair holds its terms, so pairs only add to chunks already matched.
      const pairs = new Set<number>();
      for (const [a, b] of query.pairs) {
        const first = this.terms.get(a);
        const second = this.terms.get(b);
        const key = first === undefined || second === undefined ? undefined : this.pairs.get(first, second);
        if (key !== undefined) pairs.add(key);
      }
      for (const key of pairs) add(key, this.weights.proximity, true);
    }

    const hits = topK(touched, touched.length, scores, this.ids, limit).map((d) => ({ chunkId: this.ids[d]!, score: scores[d]! }));
    for (const d of touched) {
      scores[d] = 0;
      seen[d] = 0;
    }
    return hits;
  }
}

/** Scratch for topK's scores (grown as needed; a search runs to its end before another starts). */
let selectScratch = new Float64Array(1024);

/**
 * The `limit` best of the first `count` `candidates` by score (then id), best first. The
 * `limit`-th best score is selected in linear time (quickselect over a copy of the scores); only
 * the candidates scoring at least that are then sorted.
 */
export function topK(candidates: ArrayLike<number>, count: number, scores: Float64Array, ids: readonly string[], limit: number): number[] {
  const better = (a: number, b: number) => (scores[a] === scores[b] ? (ids[a]! < ids[b]! ? -1 : 1) : scores[b]! - scores[a]!);
  if (count <= 0 || limit <= 0) return [];
  if (count <= limit) return Array.from({ length: count }, (_, i) => candidates[i]!).sort(better);
  if (selectScratch.length < count) selectScratch = new Float64Array(Math.max(count, 2 * selectScratch.length));
  const values = selectScratch;
  for (let i = 0; i < count; i++) values[i] = scores[candidates[i]!]!;
  const kth = kthLargest(values, count, limit - 1);
  const best: number[] = [];
  const tied: number[] = [];
  for (let i = 0; i < count; i++) {
    const d = candidates[i]!;
    const score = scores[d]!;
    if (score > kth) best.push(d);
    else if (score === kth) tied.push(d);
  }
  // Of the chunks scoring exactly the cut, the lowest ids fill the places left.
  if (best.length + tied.length > limit) tied.sort(better).length = limit - best.length;
  for (const d of tied) best.push(d);
  return best.sort(better);
}

/** The `k`-th largest (from 0) of the first `n` values; reorders them (Hoare's selection). */
function kthLargest(values: Float64Array, n: number, k: number): number {
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >>> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i]! > pivot) i++;
      while (values[j]! < pivot) j--;
      if (i <= j) {
        const t = values[i]!;
        values[i++] = values[j]!;
        values[j--] = t;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return values[k]!;
  }
  return values[k]!;
}
