/**
 * Deterministic, model-free "embedder": signed feature hashing of word unigrams, word bigrams and
 * character n-grams into a fixed-size L2-normalised vector. Cosine between two such vectors is a
 * TF-weighted lexical overlap with fuzzy matching via character n-grams (morphology, spelling,
 * imperfect Thai segmentation). It has no corpus statistics (no IDF), so it is a weak ranker alone;
 * its value is as a second, differently-biased channel in rank fusion.
 *
 * Same input → same vector on every machine (pure JS hash, no randomness). Depends only on the
 * shared tokenizer, so ingest and query stay consistent.
 */
import type { Embedder, EmbedOptions, EmbedResult } from './ports/embedder.js';
import { checkBatchSize } from './embedder-batches.js';
import { segmentWords, termOf } from '../text/tokenizer.js';

export interface HashEmbedderOptions {
  /** Vector length. Collisions grow as features/dimension; see REPORT.md for the trade-off. */
  dimension?: number;
  /** Character n-gram range over each word padded as `<word>`. */
  minN?: number;
  maxN?: number;
  /** Feature-group weights. A word's char n-grams share `charWeight` between them. */
  wordWeight?: number;
  bigramWeight?: number;
  charWeight?: number;
  /** Texts per `embedDocuments` call (core batches larger inputs). Default 256. */
  maxBatch?: number;
  /**
   * Computed over a search's candidates instead of stored (see `Embedder.queryTime`): what the
   * engine uses when no model is configured. Default false (vectors stored like a model's).
   */
  queryTime?: boolean;
}

const DEFAULTS: Required<HashEmbedderOptions> = {
  dimension: 1024, minN: 3, maxN: 5, wordWeight: 1, bigramWeight: 0.5, charWeight: 1, maxBatch: 256, queryTime: false,
};

/** FNV-1a over UTF-16 code units, then murmur3's fmix32 to spread the low bits. */
function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export class HashEmbedder implements Embedder {
  readonly specificationVersion = 'v1';
  readonly id: string;
  readonly dimension: number;
  readonly maxBatch: number;
  readonly queryTime: boolean;
  private readonly o: Required<HashEmbedderOptions>;

  constructor(options: HashEmbedderOptions = {}) {
    this.o = { ...DEFAULTS, ...options };
    const o = this.o;
    if (!Number.isInteger(o.dimension) || o.dimension < 8) throw new RangeError('dimension must be an integer >= 8');
    if (o.minN < 1 || o.maxN < o.minN) throw new RangeError('need 1 <= minN <= maxN');
    if (!Number.isInteger(o.maxBatch) || o.maxBatch < 1) throw new RangeError('maxBatch must be a positive integer');
    this.dimension = o.dimension;
    this.maxBatch = o.maxBatch;
    this.queryTime = o.queryTime;
    this.id = `hash-v1-d${o.dimension}-n${o.minN}${o.maxN}-w${o.wordWeight}-b${o.bigramWeight}-c${o.charWeight}`;
  }

  async embedDocuments(texts: readonly string[], options?: EmbedOptions): Promise<EmbedResult> {
    checkBatchSize(this, texts.length);
    const embeddings: Float32Array[] = [];
    for (const t of texts) {
      options?.signal?.throwIfAborted();
      embeddings.push(this.embed(t));
    }
    // No model, no tokens: nothing to report.
    return { embeddings };
  }

  async embedQuery(text: string, options?: EmbedOptions): Promise<Float32Array> {
    options?.signal?.throwIfAborted();
    return this.embed(text);
  }

  /** Synchronous core, exposed for batch jobs that do not need the async interface. */
  embed(text: string): Float32Array {
    const o = this.o;
    const features = new Map<string, number>();
    const add = (key: string, w: number): void => { features.set(key, (features.get(key) ?? 0) + w); };

    let prev: string | null = null;
    for (const word of segmentWords(text)) {
      const term = termOf(word);
      if (term === null) { prev = null; continue; } // stopwords: no features, and they break bigrams
      if (o.wordWeight > 0) add('w\u0001' + term, o.wordWeight);
      if (o.bigramWeight > 0 && prev !== null) add('b\u0001' + prev + '\u0001' + term, o.bigramWeight);
      prev = term;
      if (o.charWeight > 0) {
        const chars = Array.from(`<${word}>`); // code points, so Thai/emoji are not split mid-char
        const grams: string[] = [];
        for (let n = o.minN; n <= o.maxN; n++) {
          for (let i = 0; i + n <= chars.length; i++) grams.push(chars.slice(i, i + n).join(''));
        }
        if (grams.length === 0) grams.push(chars.join('')); // very short word: the whole padded word
        const w = o.charWeight / grams.length;
        for (const g of grams) add('c\u0001' + g, w);
      }
    }

    const v = new Float32Array(o.dimension);
    for (const [key, mass] of features) {
      const h = hash32(key);
      // Sublinear tf: mass already includes the group weight; log damps repeated features.
      const value = Math.log1p(mass);
      v[h % o.dimension]! += (h & 0x80000000) !== 0 ? -value : value;
    }
    let norm = 0;
    for (const x of v) norm += x * x;
    if (norm > 0) {
      const inv = 1 / Math.sqrt(norm);
      for (let i = 0; i < v.length; i++) v[i]! *= inv;
    }
    return v;
  }
}
