/** Timing helpers: every figure is a median of several runs, reported with the pooled p99. */

export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[idx]!;
}

export const median = (xs: readonly number[]) => quantile([...xs].sort((a, b) => a - b), 0.5);

export interface LatencySummary {
  /** Median over runs of each run's median latency (ms). */
  p50: number;
  /** p99 over every sample of every run (ms). */
  p99: number;
  mean: number;
  /** Each run's median, to show run-to-run spread. */
  runP50s: number[];
  samples: number;
}

export function summarize(runs: number[][]): LatencySummary {
  const all = runs.flat().sort((a, b) => a - b);
  const runP50s = runs.map((r) => round(quantile([...r].sort((a, b) => a - b), 0.5)));
  return {
    p50: round(median(runP50s)),
    p99: round(quantile(all, 0.99)),
    mean: round(all.reduce((s, x) => s + x, 0) / Math.max(1, all.length)),
    runP50s,
    samples: all.length,
  };
}

export const round = (x: number, digits = 3) => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

export const ratio = (a: number, b: number) => (b > 0 ? round(a / b, 2) : NaN);

export function forceGc(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    gc();
    gc();
  }
}

export function memorySnapshot() {
  forceGc();
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers };
}

export const mb = (bytes: number) => round(bytes / 1024 / 1024, 1);
