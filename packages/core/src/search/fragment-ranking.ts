import type { RankedHit } from './ports/search-index.js';

/** BM25 constants of the trigram fallback's ranking (every store's, FTS5's defaults). */
export const FRAGMENT_BM25 = { k1: 1.2, b: 0.75 } as const;

/**
 * A workspace of at most this many chunks (with its tenant's legacy ones) answers the trigram
 * fallback by reading its own chunks; a store's trigram index holds only larger workspaces' chunks.
 */
export const TRIGRAM_SCAN_CHUNKS = 1000;

/** A chunk's text as the trigram fallback matches it: title and text, case folded. */
export const fragmentText = (title: string, text: string) => `${title}\n${text}`.toLowerCase();

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
  const { k1, b } = FRAGMENT_BM25;
  const pairs: { id: string; len: number; occ: number }[] = [];
  let lengths = 0;
  for (const chunk of chunks) {
    let len = -1;
    for (const fragment of fragments) {
      const occ = occurrences(chunk.body, fragment);
      if (occ === 0) continue;
      if (len < 0) len = codePoints(chunk.body);
      pairs.push({ id: chunk.id, len, occ });
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
