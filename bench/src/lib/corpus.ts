/**
 * Synthetic search corpus with realistic structure: topics are clusters in vector space
 * (vector = normalised subtopic centroid + noise, subtopics around a topic centroid) and in text
 * (each topic draws from its own vocabulary with Zipfian frequencies, mixed with a shared
 * Zipfian background vocabulary that includes real English function words). Every chunk and
 * query is generated from its own seed, so any part can be regenerated on demand (streaming).
 */
import { Rng, Zipf } from './prng.js';

const FUNCTION_WORDS = 'the of and to in a is for on with that by this be are as it or from at an can your you not if when will which how more was all their has one may use'.split(' ');
const ONSETS = ['b', 'c', 'd', 'f', 'g', 'h', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'w', 'z', 'br', 'cl', 'dr', 'fl', 'gr', 'pl', 'pr', 'sk', 'st', 'tr', 'sh', 'ch', 'th'];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'a', 'e', 'i', 'o', 'ea', 'ou', 'y'];
const CODAS = ['', '', '', 'n', 'r', 's', 'l', 'x', 'm', 'nt', 'st', 'rk'];

export const DIM = 384;
const BACKGROUND = 1500;
const TOPIC_VOCAB = 400;
const SUBTOPICS = 8;

export interface CorpusChunk {
  i: number;
  topic: number;
  /** Workspace when the corpus is split over 10 workspaces (topic mod 10). */
  ws: number;
  title: string;
  text: string;
}

export interface CorpusQuery {
  id: number;
  /** The chunk the query was written from. */
  target: number;
  ws: number;
  text: string;
  vector: Float32Array;
}

function unitNoise(rng: Rng, out: Float32Array, scale: number): void {
  const s = scale / Math.sqrt(out.length);
  for (let k = 0; k < out.length; k++) out[k] = rng.normal() * s;
}

export function normalize(v: Float32Array): Float32Array {
  let n = 0;
  for (let k = 0; k < v.length; k++) n += v[k]! * v[k]!;
  n = Math.sqrt(n) || 1;
  for (let k = 0; k < v.length; k++) v[k]! /= n;
  return v;
}

export class SearchCorpus {
  readonly topics: number;
  readonly vocab: string[];
  private readonly topicWords: string[][];
  private readonly subCentroids: Float32Array[][];
  private readonly bgZipf = new Zipf(BACKGROUND, 1.07);
  private readonly topicZipf = new Zipf(TOPIC_VOCAB, 1.0);

  constructor(readonly n: number, readonly seed = 'panya-bench-v1', readonly dim = DIM) {
    this.topics = Math.max(20, Math.round(n / 500));
    const rng = new Rng(`${seed}/vocab`);
    const words = new Set<string>(FUNCTION_WORDS);
    while (words.size < 40_000) {
      let w = '';
      const syllables = rng.int(1, 3);
      for (let s = 0; s < syllables; s++) w += rng.pick(ONSETS) + rng.pick(VOWELS);
      w += rng.pick(CODAS);
      if (w.length >= 3) words.add(w);
    }
    this.vocab = [...words];
    const pool = this.vocab.slice(BACKGROUND);
    this.topicWords = [];
    this.subCentroids = [];
    for (let t = 0; t < this.topics; t++) {
      const trng = new Rng(`${seed}/topic/${t}`);
      const own: string[] = [];
      const seen = new Set<string>();
      while (own.length < TOPIC_VOCAB) {
        const w = trng.pick(pool);
        if (!seen.has(w)) (seen.add(w), own.push(w));
      }
      this.topicWords.push(own);
      const centroid = new Float32Array(dim);
      unitNoise(trng, centroid, 1);
      normalize(centroid);
      const subs: Float32Array[] = [];
      for (let j = 0; j < SUBTOPICS; j++) {
        const sub = new Float32Array(dim);
        unitNoise(trng, sub, 0.6);
        for (let k = 0; k < dim; k++) sub[k]! += centroid[k]!;
        subs.push(normalize(sub));
      }
      this.subCentroids.push(subs);
    }
  }

  topicOf(i: number) {
    return i % this.topics;
  }

  wsOf(i: number) {
    return this.topicOf(i) % 10;
  }

  private word(rng: Rng, topic: number, topicShare = 0.5): string {
    return rng.next() < topicShare ? this.topicWords[topic]![this.topicZipf.sample(rng)]! : this.vocab[this.bgZipf.sample(rng)]!;
  }

  chunk(i: number): CorpusChunk {
    const rng = new Rng(`${this.seed}/chunk/${i}`);
    const topic = this.topicOf(i);
    const titleWords = Array.from({ length: rng.int(3, 6) }, () => this.word(rng, topic, 0.8));
    const title = titleWords.map((w, k) => (k === 0 ? w[0]!.toUpperCase() + w.slice(1) : w)).join(' ');
    const length = rng.int(60, 220);
    const sentences: string[] = [];
    let left = length;
    while (left > 0) {
      const len = Math.min(left, rng.int(8, 16));
      const ws = Array.from({ length: len }, () => this.word(rng, topic));
      ws[0] = ws[0]![0]!.toUpperCase() + ws[0]!.slice(1);
      sentences.push(ws.join(' ') + '.');
      left -= len;
    }
    return { i, topic, ws: topic % 10, title, text: sentences.join(' ') };
  }

  private sentence(rng: Rng, topic: number, lo: number, hi: number, end = '.'): string {
    const ws = Array.from({ length: rng.int(lo, hi) }, () => this.word(rng, topic));
    ws[0] = ws[0]![0]!.toUpperCase() + ws[0]!.slice(1);
    return ws.join(' ') + end;
  }

  private paragraph(rng: Rng, topic: number, sentences: number): string {
    return Array.from({ length: sentences }, () => this.sentence(rng, topic, 8, 16)).join(' ');
  }

  /**
   * A help-center style markdown article (for the ingest benchmark): H1 title, intro, H2/H3
   * sections with paragraphs, a bullet list and a table; roughly 250–700 words.
   */
  markdown(i: number): { title: string; contentMd: string } {
    const rng = new Rng(`${this.seed}/md/${i}`);
    const topic = this.topicOf(i);
    const title = this.sentence(rng, topic, 3, 6, '');
    const parts = [`# ${title}`, this.paragraph(rng, topic, rng.int(2, 4))];
    const sections = rng.int(2, 4);
    for (let s = 0; s < sections; s++) {
      parts.push(`## ${this.sentence(rng, topic, 2, 4, '')}`, this.paragraph(rng, topic, rng.int(2, 5)));
      if (s === 0) parts.push(Array.from({ length: rng.int(3, 6) }, () => `- ${this.sentence(rng, topic, 4, 10)}`).join('\n'));
      if (s === 1) {
        const rows = Array.from({ length: rng.int(3, 6) }, () => `| ${this.word(rng, topic, 0.9)} | ${rng.int(1, 500)} | ${this.sentence(rng, topic, 2, 5, '')} |`);
        parts.push(['| Item | Value | Notes |', '|---|---|---|', ...rows].join('\n'));
      }
      if (rng.next() < 0.5) parts.push(`### ${this.sentence(rng, topic, 2, 4, '')}`, this.paragraph(rng, topic, rng.int(1, 3)));
    }
    return { title, contentMd: parts.join('\n\n') + '\n' };
  }

  /** Writes chunk i's vector into out (length dim). */
  vector(i: number, out: Float32Array = new Float32Array(this.dim)): Float32Array {
    const rng = new Rng(`${this.seed}/vec/${i}`);
    const sub = this.subCentroids[this.topicOf(i)]![rng.int(0, SUBTOPICS - 1)]!;
    unitNoise(rng, out, 0.55);
    for (let k = 0; k < this.dim; k++) out[k]! += sub[k]!;
    return normalize(out);
  }

  /** All vectors as one row-major Float32Array (n × dim). */
  allVectors(): Float32Array {
    const all = new Float32Array(this.n * this.dim);
    for (let i = 0; i < this.n; i++) this.vector(i, all.subarray(i * this.dim, (i + 1) * this.dim));
    return all;
  }

  /**
   * Queries written from a target chunk: 2 words of the chunk's topical text plus 1–2 more words
   * of its topic; the query vector is the target's vector plus noise. `ws` restricts targets to
   * one workspace of the 10-way split.
   */
  queries(count: number, ws: number | null = null, salt = 'q'): CorpusQuery[] {
    const rng = new Rng(`${this.seed}/${salt}/${ws ?? 'all'}`);
    const out: CorpusQuery[] = [];
    while (out.length < count) {
      const target = rng.int(0, this.n - 1);
      if (ws !== null && this.wsOf(target) !== ws) continue;
      const chunk = this.chunk(target);
      const bodyWords = chunk.text.toLowerCase().replace(/\./g, '').split(' ');
      const topical = bodyWords.filter((w) => this.vocab.indexOf(w) >= BACKGROUND || !this.isBackground(w));
      const words = new Set<string>();
      while (words.size < 2 && topical.length > 0) words.add(rng.pick(topical));
      const extra = rng.int(1, 2);
      for (let k = 0; k < extra; k++) words.add(this.topicWords[chunk.topic]![this.topicZipf.sample(rng)]!);
      const vector = this.vector(target);
      const noise = new Float32Array(this.dim);
      unitNoise(rng, noise, 0.6);
      for (let k = 0; k < this.dim; k++) vector[k]! += noise[k]!;
      normalize(vector);
      const list = rng.shuffle([...words]);
      if (rng.next() < 0.3) list.unshift(rng.pick(['how', 'what', 'why', 'can']));
      out.push({ id: out.length, target, ws: chunk.ws, text: list.join(' '), vector });
    }
    return out;
  }

  private bgSet: Set<string> | null = null;
  private isBackground(w: string): boolean {
    this.bgSet ??= new Set(this.vocab.slice(0, BACKGROUND));
    return this.bgSet.has(w);
  }
}
