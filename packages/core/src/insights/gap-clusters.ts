/**
 * Groups questions into content gaps by lexical similarity, no model: each question becomes the
 * set of its index terms (the core tokenizer: English stems, Thai dictionary words, Thai
 * function words dropped) and joins the cluster whose term profile it is closest to (cosine),
 * or starts one. Candidates come from an inverted index over the clusters' terms, bounded per
 * question, so the cost of one question does not grow with the number of clusters.
 *
 * With a question's vector (a configured embedder), the question joins the cluster whose
 * centroid is closest by cosine instead, which also groups paraphrases sharing no word
 * ("refund" / "money back"); the terms still label the cluster. Vector candidates are the
 * lexical ones, the largest clusters and the newest ones, so this too is bounded per question.
 */
import { THAI_FUNCTION_WORDS } from '../text/query.js';
import { tokenize } from '../text/tokenizer.js';

/** Least cosine between a question and a cluster profile for the question to join it (measured on the gap benchmark). */
export const GAP_SIMILARITY = 0.45;
/** Terms of one question kept (the longest, as the most selective). */
const MAX_TERMS = 24;
/** Clusters looked at per term, and clusters compared in full per question. */
const POSTING_SCAN = 256;
const CANDIDATES = 32;
export const GAP_EXAMPLES = 3;
/**
 * Least cosine between a question's vector and a cluster centroid (the normalised mean of its
 * questions' vectors) for the question to join it. Sentence-embedding models score paraphrases
 * about 0.85 and more and unrelated questions of one domain 0.7 to 0.8 (e5 family) or lower
 * (OpenAI models), so 0.8 keeps unrelated questions of one shop apart on either.
 */
export const GAP_VECTOR_SIMILARITY = 0.8;
/** Largest clusters, and newest clusters, compared per question by vector (besides the lexical candidates). */
const VECTOR_LEADERS = 64;
const VECTOR_NEWEST = 64;

export type GapReason = 'refused' | 'low_evidence' | 'thumbs_down' | 'handed_off';

export interface GapQuestion {
  question: string;
  createdAt: string;
  reasons: readonly GapReason[];
  /** The question's L2-normalised vector; absent: the lexical rule places it. */
  vector?: Float32Array;
}

interface Cluster {
  id: number;
  terms: Map<string, number>;
  /** Σ count² of `terms`, kept current for the cosine. */
  norm2: number;
  size: number;
  previous: number;
  /** The latest distinct questions, newest last. */
  examples: { question: string; createdAt: string }[];
  reasons: Record<GapReason, number>;
  lastAt: string;
  /** Σ of its questions' vectors, and its squared length; absent until a question with a vector joins. */
  sum?: Float32Array;
  sum2: number;
  leader: boolean;
}

export interface GapCluster {
  /** The most frequent terms of the cluster (index form). */
  terms: string[];
  count: number;
  previousCount: number;
  examples: string[];
  reasons: Record<GapReason, number>;
  lastAskedAt: string;
}

/** Question framing that says nothing about the topic ("how", "can I", Thai question particles). */
const FRAMING = new Set(['how', 'what', 'why', 'when', 'where', 'which', 'can', 'pleas', 'ไหม', 'มั้ย', 'ค่ะ', 'คะ', 'ครับ', 'ยัง', 'ไง', 'อยาก', 'วิธี', 'ได้', 'หรือ', 'เปล่า', 'บ้าง', 'อะไร', 'ทำไม']);

/** What `maskPersonalData` left in place of personal data: not a topic. */
const MASK_MARKERS = /\[(?:EMAIL|CARD|THAI_ID|PHONE)\]/g;

/** Distinct index terms of a question, at most MAX_TERMS (the longest first). */
export function questionTerms(question: string): string[] {
  const terms = [...new Set(tokenize(question.replace(MASK_MARKERS, ' ')))].filter((t) => !THAI_FUNCTION_WORDS.has(t) && !FRAMING.has(t) && !/^\d+$/.test(t));
  if (terms.length <= MAX_TERMS) return terms;
  return terms.sort((a, b) => [...b].length - [...a].length).slice(0, MAX_TERMS);
}

/** Distinct question texts whose terms are kept per computation (support traffic repeats itself). */
const TERMS_CACHED = 50_000;

export class GapClusterer {
  private readonly clusters: Cluster[] = [];
  private readonly postings = new Map<string, number[]>();
  /** Segmenting is most of the cost of a question: a text asked again is segmented once. */
  private readonly termsOf = new Map<string, string[]>();
  /** The VECTOR_LEADERS largest clusters (sizes grow by one, so this stays exact up to ties). */
  private readonly leaders: Cluster[] = [];

  constructor(
    private readonly threshold = GAP_SIMILARITY,
    private readonly vectorThreshold = GAP_VECTOR_SIMILARITY,
  ) {}

  get size(): number {
    return this.clusters.length;
  }

  /** Adds a question of the period being analysed. */
  add(q: GapQuestion): void {
    const terms = this.terms(q.question);
    if (terms.length === 0) return;
    const best = q.vector ? this.closestByVector(terms, q.vector) : this.closest(terms);
    const cluster = best ?? this.open();
    if (q.vector) this.addVector(cluster, q.vector);
    for (const term of terms) {
      const count = cluster.terms.get(term) ?? 0;
      if (count === 0) this.post(term, cluster.id);
      cluster.terms.set(term, count + 1);
      cluster.norm2 += 2 * count + 1;
    }
    cluster.size++;
    this.rank(cluster);
    for (const reason of q.reasons) cluster.reasons[reason]++;
    if (q.createdAt > cluster.lastAt) cluster.lastAt = q.createdAt;
    const text = q.question.replace(/\s+/g, ' ').trim();
    const known = cluster.examples.findIndex((e) => e.question.toLowerCase() === text.toLowerCase());
    if (known >= 0) cluster.examples.splice(known, 1);
    cluster.examples.push({ question: text, createdAt: q.createdAt });
    if (cluster.examples.length > GAP_EXAMPLES) cluster.examples.shift();
  }

  /** Counts a question of the previous period against the clusters found (it opens none). */
  countPrevious(question: string, vector?: Float32Array): void {
    const terms = this.terms(question);
    if (terms.length === 0) return;
    const best = vector ? this.closestByVector(terms, vector) : this.closest(terms);
    if (best) best.previous++;
  }

  /** The largest clusters, most questions first (ties: most recent). */
  top(limit: number): GapCluster[] {
    return [...this.clusters]
      .sort((a, b) => b.size - a.size || b.lastAt.localeCompare(a.lastAt))
      .slice(0, limit)
      .map((c) => ({
        terms: [...c.terms].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 5).map(([t]) => t),
        count: c.size,
        previousCount: c.previous,
        examples: c.examples.map((e) => e.question).reverse(),
        reasons: { ...c.reasons },
        lastAskedAt: c.lastAt,
      }));
  }

  private terms(question: string): string[] {
    const key = question.trim().toLowerCase();
    let terms = this.termsOf.get(key);
    if (!terms) {
      terms = questionTerms(question);
      if (this.termsOf.size < TERMS_CACHED) this.termsOf.set(key, terms);
    }
    return terms;
  }

  private open(): Cluster {
    const cluster: Cluster = { id: this.clusters.length, terms: new Map(), norm2: 0, size: 0, previous: 0, examples: [], reasons: { refused: 0, low_evidence: 0, thumbs_down: 0, handed_off: 0 }, lastAt: '', sum2: 0, leader: false };
    this.clusters.push(cluster);
    return cluster;
  }

  private post(term: string, id: number): void {
    const list = this.postings.get(term);
    if (list) list.push(id);
    else this.postings.set(term, [id]);
  }

  /** Keeps `leaders` the largest clusters after `cluster` grew by one. */
  private rank(cluster: Cluster): void {
    if (cluster.leader) return;
    if (this.leaders.length < VECTOR_LEADERS) {
      cluster.leader = true;
      this.leaders.push(cluster);
      return;
    }
    let min = 0;
    for (let i = 1; i < this.leaders.length; i++) if (this.leaders[i]!.size < this.leaders[min]!.size) min = i;
    if (this.leaders[min]!.size >= cluster.size) return;
    this.leaders[min]!.leader = false;
    cluster.leader = true;
    this.leaders[min] = cluster;
  }

  private addVector(cluster: Cluster, vector: Float32Array): void {
    if (!cluster.sum) cluster.sum = new Float32Array(vector.length);
    const sum = cluster.sum;
    let dot = 0;
    let self = 0;
    for (let i = 0; i < vector.length; i++) {
      dot += vector[i]! * sum[i]!;
      self += vector[i]! * vector[i]!;
      sum[i]! += vector[i]!;
    }
    cluster.sum2 += 2 * dot + self;
  }

  /** The cluster whose centroid is closest to `vector`, at least `vectorThreshold`, among a bounded candidate set. */
  private closestByVector(terms: readonly string[], vector: Float32Array): Cluster | null {
    const candidates = new Set<Cluster>(this.lexicalCandidates(terms).map(([id]) => this.clusters[id]!));
    for (const cluster of this.leaders) candidates.add(cluster);
    for (let i = Math.max(0, this.clusters.length - VECTOR_NEWEST); i < this.clusters.length; i++) candidates.add(this.clusters[i]!);
    let best: Cluster | null = null;
    let bestScore = this.vectorThreshold;
    for (const cluster of candidates) {
      const sum = cluster.sum;
      if (!sum || cluster.sum2 <= 0 || sum.length !== vector.length) continue;
      let dot = 0;
      for (let i = 0; i < vector.length; i++) dot += vector[i]! * sum[i]!;
      const cosine = dot / Math.sqrt(cluster.sum2);
      if (cosine >= bestScore) {
        best = cluster;
        bestScore = cosine;
      }
    }
    return best;
  }

  /** Clusters sharing the most terms with the question, bounded. */
  private lexicalCandidates(terms: readonly string[]): [number, number][] {
    const shared = new Map<number, number>();
    for (const term of terms) {
      const list = this.postings.get(term);
      if (!list) continue;
      // The newest clusters of a very common term: bounded work per question.
      for (let i = list.length - 1, seen = 0; i >= 0 && seen < POSTING_SCAN; i--, seen++) shared.set(list[i]!, (shared.get(list[i]!) ?? 0) + 1);
    }
    return [...shared].sort((a, b) => b[1] - a[1]).slice(0, CANDIDATES);
  }

  private closest(terms: readonly string[]): Cluster | null {
    const candidates = this.lexicalCandidates(terms);
    if (candidates.length === 0) return null;
    let best: Cluster | null = null;
    let bestScore = this.threshold;
    for (const [id] of candidates) {
      const cluster = this.clusters[id]!;
      let dot = 0;
      for (const term of terms) dot += cluster.terms.get(term) ?? 0;
      const cosine = dot / Math.sqrt(terms.length * cluster.norm2);
      if (cosine >= bestScore) {
        best = cluster;
        bestScore = cosine;
      }
    }
    return best;
  }
}
