/**
 * In-memory BM25 over one workspace's chunks: the lexical ranking every store shares.
 *
 * Postings are kept per term (and per adjacent term pair, for the proximity boost) as packed
 * arrays of document numbers and column-weighted term frequencies. A query scores term at a time
 * into a dense accumulator, so its cost is the length of the query terms' postings — what
 * matching costs — and every statistic (document count, average length, document frequency)
 * comes from this workspace's chunks alone.
 */
import type { LexicalQuery, RankedHit } from '../ports/search-index.js';
import { unspacedTrigrams } from '../text/char-grams.js';

/** One chunk's index terms (core-tokenized, space-joined), as stored beside the chunk. */
export interface LexicalDoc {
  id: string;
  title: string;
  body: string;
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

const K1 = 1.2;
const B = 0.75;

interface Postings {
  docs: number[];
  tf: number[];
}

/** Pairs share the term map under a key no term can produce (terms never contain a space). */
const pairKey = (a: string, b: string) => `${a} ${b}`;

export class LexicalIndex {
  private readonly postings = new Map<string, Postings>();
  private readonly ids: string[] = [];
  private readonly lengths: number[] = [];
  private readonly live: boolean[] = [];
  private readonly numberOf = new Map<string, number>();
  private liveCount = 0;
  private liveLength = 0;
  private scores = new Float64Array(0);
  private seen = new Uint8Array(0);

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

  has(id: string): boolean {
    return this.numberOf.has(id);
  }

  /** Adds a chunk, replacing any earlier version of it. */
  upsert(doc: LexicalDoc): void {
    this.remove(doc.id);
    const n = this.ids.length;
    this.ids.push(doc.id);
    this.live.push(true);
    this.numberOf.set(doc.id, n);
    const tf = new Map<string, number>();
    let length = 0;
    for (const [text, weight] of [
      [doc.title, this.weights.title],
      [doc.body, this.weights.body],
    ] as const) {
      let previous: string | null = null;
      const terms = text.split(' ');
      if (this.weights.grams > 0) for (const gram of unspacedTrigrams(terms)) tf.set(gram, (tf.get(gram) ?? 0) + weight);
      for (const term of terms) {
        if (term.length === 0) continue;
        length++;
        tf.set(term, (tf.get(term) ?? 0) + weight);
        // A pair never spans the title and the body (as FTS5 phrases never span columns).
        if (previous !== null) {
          const key = pairKey(previous, term);
          tf.set(key, (tf.get(key) ?? 0) + weight);
        }
        previous = term;
      }
    }
    for (const [term, f] of tf) {
      let p = this.postings.get(term);
      if (!p) this.postings.set(term, (p = { docs: [], tf: [] }));
      p.docs.push(n);
      p.tf.push(f);
    }
    // One token more than the terms: the length FTS5 gave chunks (its scope column), kept so the
    // rankings measured with FTS5 stay as they were.
    this.lengths.push(length + 1);
    this.liveCount++;
    this.liveLength += length + 1;
  }

  remove(id: string): void {
    const n = this.numberOf.get(id);
    if (n === undefined) return;
    this.numberOf.delete(id);
    this.live[n] = false;
    this.liveCount--;
    this.liveLength -= this.lengths[n]!;
  }

  /**
   * Okapi BM25 (k1 1.2, b 0.75, FTS5's IDF) of the query terms, plus the proximity weight times the
   * BM25 of the adjacent pairs. A term repeated in the query counts
   * each time (as in FTS5). Ties break by chunk id.
   */
  search(query: Pick<LexicalQuery, 'terms' | 'pairs' | 'grams'>, limit: number): RankedHit[] {
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

    const add = (key: string, weight: number, onlyMatched: boolean) => {
      const p = this.postings.get(key);
      if (!p) return;
      let df = 0;
      for (let i = 0; i < p.docs.length; i++) if (this.live[p.docs[i]!]) df++;
      if (df === 0) return;
      const idf = Math.max(Math.log((this.liveCount - df + 0.5) / (df + 0.5)), 1e-6) * weight;
      for (let i = 0; i < p.docs.length; i++) {
        const d = p.docs[i]!;
        if (!this.live[d] || (onlyMatched && seen[d] === 0)) continue;
        const f = p.tf[i]!;
        if (seen[d] === 0) {
          seen[d] = 1;
          touched.push(d);
        }
        scores[d]! += (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * this.lengths[d]!) / avgdl));
      }
    };

    for (const term of query.terms) add(term, 1, false);
    if (this.weights.grams > 0) for (const gram of query.grams ?? []) add(gram, this.weights.grams, false);
    if (this.weights.proximity > 0) {
      // Every chunk holding a pair holds its terms, so pairs only add to chunks already matched.
      for (const key of new Set(query.pairs.map(([a, b]) => pairKey(a, b)))) add(key, this.weights.proximity, true);
    }

    const hits = topK(touched, scores, this.ids, limit).map((d) => ({ chunkId: this.ids[d]!, score: scores[d]! }));
    for (const d of touched) {
      scores[d] = 0;
      seen[d] = 0;
    }
    return hits;
  }
}

/** The `limit` best of `candidates` by score (then id), best first, through a bounded min-heap. */
function topK(candidates: number[], scores: Float64Array, ids: readonly string[], limit: number): number[] {
  const worse = (a: number, b: number) => scores[a]! < scores[b]! || (scores[a] === scores[b] && ids[a]! > ids[b]!);
  const heap: number[] = [];
  const siftDown = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && worse(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && worse(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  for (const d of candidates) {
    if (heap.length < limit) {
      heap.push(d);
      for (let i = heap.length - 1; i > 0; ) {
        const parent = (i - 1) >> 1;
        if (!worse(heap[i]!, heap[parent]!)) break;
        [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
        i = parent;
      }
    } else if (worse(heap[0]!, d)) {
      heap[0] = d;
      siftDown(0);
    }
  }
  return heap.sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
}
