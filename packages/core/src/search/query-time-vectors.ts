/**
 * The vector channel of a query-time embedder (`Embedder.queryTime`, the built-in `hash` one with
 * no model): no vectors are stored, so a search that weighs the channel embeds the best keyword
 * candidates and ranks them by cosine to the query. A chunk's text never changes under its id (an
 * edit writes new chunks), so computed vectors are kept in a bounded cache. Embedding costs about
 * 0.6 ms per abstract-sized chunk on one core, hence the cap (measurements in docs/decisions.md);
 * a workspace that never asks for the channel pays nothing for it, on disk or at ingest.
 */
import { LRUCache } from 'lru-cache';
import { embedInBatches } from './embedder-batches.js';
import type { Embedder } from './ports/embedder.js';
import type { ChunkRecord, RankedHit } from './ports/search-index.js';
import { embeddingText } from './embedding-text.js';

/** Keyword candidates a search embeds at most: RRF gives ranks beyond this little weight anyway. */
export const QUERY_TIME_CANDIDATES = 32;
/** Memory for computed candidate vectors per process. */
const CACHE_BYTES = 16 * 1024 * 1024;

/** Cosine of two L2-normalised vectors. */
function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

export function createQueryTimeVectors(embedder: Embedder) {
  const cache = new LRUCache<string, Float32Array>({ maxSize: CACHE_BYTES, sizeCalculation: (v) => v.byteLength + 100 });

  return {
    /** The candidates by cosine to the query (best first, ties by chunk id), at most `limit`. */
    async rank(query: string, candidates: readonly ChunkRecord[], limit: number): Promise<RankedHit[]> {
      if (candidates.length === 0 || limit <= 0) return [];
      const missing = candidates.filter((c) => !cache.has(c.id));
      const [vector, { embeddings }] = await Promise.all([
        embedder.embedQuery(query),
        missing.length > 0 ? embedInBatches(embedder, missing.map((c) => embeddingText(c.title, c.headingPath, c.text))) : { embeddings: [] },
      ]);
      missing.forEach((c, i) => cache.set(c.id, embeddings[i]!));
      const ranked: RankedHit[] = [];
      for (const c of candidates) {
        const v = cache.get(c.id);
        if (v) ranked.push({ chunkId: c.id, score: dot(vector, v) });
      }
      return ranked.sort((a, b) => b.score - a.score || (a.chunkId < b.chunkId ? -1 : a.chunkId > b.chunkId ? 1 : 0)).slice(0, limit);
    },
  };
}
