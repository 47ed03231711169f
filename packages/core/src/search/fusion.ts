/**
 * Reciprocal rank fusion: score(d) = Σ_channels weight / (k + rank_channel(d)), ranks from 1.
 * Rank-based, so channels with incomparable scores (BM25, cosine) fuse without calibration.
 */
export const RRF_K = 60;

export interface FusedHit {
  chunkId: string;
  score: number;
  /** 1-based rank in each channel that returned the chunk. */
  ranks: Record<string, number>;
}

export function reciprocalRankFusion(
  channels: Record<string, readonly { chunkId: string }[]>,
  weights: { readonly [channel: string]: number | undefined } = {},
  k = RRF_K,
): FusedHit[] {
  const fused = new Map<string, FusedHit>();
  for (const [name, hits] of Object.entries(channels)) {
    const weight = weights[name] ?? 1;
    if (weight <= 0) continue;
    hits.forEach((hit, i) => {
      let entry = fused.get(hit.chunkId);
      if (!entry) {
        entry = { chunkId: hit.chunkId, score: 0, ranks: {} };
        fused.set(hit.chunkId, entry);
      }
      if (entry.ranks[name] === undefined) {
        entry.ranks[name] = i + 1;
        entry.score += weight / (k + i + 1);
      }
    });
  }
  // Ties break by chunk id so results are deterministic.
  return [...fused.values()].sort((a, b) => b.score - a.score || (a.chunkId < b.chunkId ? -1 : 1));
}
