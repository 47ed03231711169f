/**
 * Ingest throughput: 10k synthetic markdown articles (headings, a list, a table) through
 * `engine.documents.bulk` (1,000 per call) and `engine.ingest.drain()` into a SQLite file,
 * with the built-in `hash` embedder or with embedding excluded (an embedder handing out
 * precomputed vectors of the same dimension). One run per process, so peak RSS is the run's own.
 * argv: <hash|precomputed> [docs]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, HashEmbedder, type Embedder } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { emit, log } from './lib/child.js';
import { SearchCorpus, normalize } from './lib/corpus.js';
import { Rng } from './lib/prng.js';

const variant = process.argv[2] === 'precomputed' ? 'precomputed' : 'hash';
const count = Number(process.argv[3] ?? 10_000);

/** Embedding excluded: hands out vectors from a precomputed pool (same dimension as `hash`). */
class PrecomputedEmbedder implements Embedder {
  readonly specificationVersion = 'v1';
  readonly id = 'precomputed-1024';
  readonly dimension = new HashEmbedder().dimension;
  readonly maxBatch = 256;
  private readonly pool: Float32Array[];
  private at = 0;
  constructor() {
    const rng = new Rng('precomputed');
    this.pool = Array.from({ length: 1024 }, () => normalize(Float32Array.from({ length: this.dimension }, () => rng.normal())));
  }
  async embedDocuments(texts: readonly string[]) {
    return { embeddings: texts.map(() => this.pool[this.at++ % this.pool.length]!) };
  }
  async embedQuery() {
    return this.pool[0]!;
  }
}

const corpus = new SearchCorpus(count, 'panya-bench-ingest-v1');
const docs = Array.from({ length: count }, (_, i) => corpus.markdown(i));
const words = docs.reduce((s, d) => s + d.contentMd.split(/\s+/).length, 0);
const dir = mkdtempSync(join(tmpdir(), 'panya-bench-ingest-'));
const path = join(dir, 'ingest.db');
const embedder = variant === 'hash' ? new HashEmbedder() : new PrecomputedEmbedder();
const engine = createEngine({ store: openSqliteStore({ path }), embedder });
(await engine.tenancy.createTenant({ slug: 'bench', plan: 'enterprise' }))._unsafeUnwrap();
const ctx = (await engine.access.system('bench'))._unsafeUnwrap();
const rssBefore = process.memoryUsage().rss;

const t0 = performance.now();
for (let at = 0; at < count; at += 1000) {
  const res = await engine.documents.bulk(ctx, { create: docs.slice(at, at + 1000) });
  if (res.isErr()) throw new Error(res.error.message);
}
const t1 = performance.now();
const indexed = await engine.ingest.drain();
const t2 = performance.now();
const chunks = await engine.search.countChunks(ctx.scope);
const peakRssBytes = process.resourceUsage().maxRSS * 1024;
await engine.close();
const fileBytes = statSync(path).size;
rmSync(dir, { recursive: true, force: true });
if (indexed !== count) throw new Error(`indexed ${indexed} of ${count}`);

const seconds = (t2 - t0) / 1000;
const result = {
  variant,
  embedder: embedder.id,
  docs: count,
  chunks,
  avgWordsPerDoc: Math.round(words / count),
  bulkSeconds: (t1 - t0) / 1000,
  drainSeconds: (t2 - t1) / 1000,
  totalSeconds: seconds,
  docsPerSec: count / seconds,
  chunksPerSec: chunks / seconds,
  peakRssBytes,
  rssBeforeBytes: rssBefore,
  fileBytes,
};
log(`  ingest ${variant}: ${count} docs → ${chunks} chunks in ${seconds.toFixed(1)} s (${result.docsPerSec.toFixed(0)} docs/s), peak RSS ${(peakRssBytes / 2 ** 20).toFixed(0)} MB`);
emit(result);
