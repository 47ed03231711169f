/**
 * What one long query costs in-process on the SciFact corpus (5,183 abstracts through the real
 * ingest path, default hash embedder): 280-word queries made of the corpus's commonest words next
 * to the dataset's ordinary test queries, measured in the same process. The query bounds
 * (MAX_QUERY_TERMS, MAX_QUERY_PAIRS) are what keep the first close to the second.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine, segmentWords, type RequestContext } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { emit, log } from './lib/child.js';
import { CACHE_ROOT, sourceHash } from './lib/panya.js';
import { round, summarize } from './lib/stats.js';

const EVAL_DIR = process.env.PANYA_EVAL_DIR ?? fileURLToPath(new URL('../../../shared/eval', import.meta.url));
const DIR = join(EVAL_DIR, 'scifact');
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const LONG_WORDS = 280;

const jsonl = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** The SciFact corpus in a SQLite file built through the ingest path, cached per source hash. */
export async function scifactDb(): Promise<string> {
  const dir = join(CACHE_ROOT, `scifact-${sourceHash()}`);
  const path = join(dir, 'panya.db');
  if (existsSync(path)) return path;
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const engine = createEngine({ store: openSqliteStore({ path: join(tmp, 'panya.db') }), ingest: { batchSize: 128 } });
  const created = (await engine.tenancy.createTenant({ slug: 'bench', plan: 'enterprise' }))._unsafeUnwrap();
  const ctx = (await engine.access.system(created.tenant.slug))._unsafeUnwrap();
  const docs = jsonl(join(DIR, 'corpus.jsonl')).map((d) => ({ title: String(d.title ?? '') || String(d._id), contentMd: String(d.text ?? '') }));
  for (let at = 0; at < docs.length; at += 1000) (await engine.documents.bulk(ctx, { create: docs.slice(at, at + 1000) }))._unsafeUnwrap();
  log(`  scifact: ${docs.length} documents written, ingesting…`);
  await engine.ingest.drain();
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  return path;
}

/** 280-word queries of the corpus's commonest content words (the costliest honest input), shuffled per query. */
export function longQueries(count: number): string[] {
  const freq = new Map<string, number>();
  for (const d of jsonl(join(DIR, 'corpus.jsonl')).slice(0, 1500)) for (const w of segmentWords(String(d.text))) if (w.length > 3) freq.set(w, (freq.get(w) ?? 0) + 1);
  const common = [...freq.entries()].sort((a, b) => b[1] - a[1]).slice(0, 400).map(([w]) => w);
  return Array.from({ length: count }, (_, q) => Array.from({ length: LONG_WORDS }, (_, i) => common[(i * 7 + q * 13) % common.length]).join(' ').slice(0, 1_990));
}

export function ordinaryQueries(): string[] {
  return jsonl(join(DIR, 'queries.jsonl')).map((q) => String(q.text));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (!existsSync(join(DIR, 'corpus.jsonl'))) {
    log(`query-cost: ${DIR} not found, skipped`);
    emit({ skipped: true });
  } else {
    const path = await scifactDb();
    // Every search runs: the cache of recent answers is off (queries repeat across runs).
    const engine = createEngine({ store: openSqliteStore({ path }), search: { resultCache: false } });
    const ctx: RequestContext = (await engine.access.system('bench'))._unsafeUnwrap();
    const long = longQueries(50);
    const ordinary = ordinaryQueries();
    const time = async (queries: string[]) => {
      const out: number[] = [];
      for (const query of queries) {
        const t = performance.now();
        (await engine.search.search(ctx, { query, topK: 10 }))._unsafeUnwrap();
        out.push(performance.now() - t);
      }
      return out;
    };
    await time(ordinary.slice(0, 50)); // warm
    const runs = { long: [] as number[][], ordinary: [] as number[][] };
    for (let r = 0; r < RUNS; r++) {
      runs.long.push(await time(long));
      runs.ordinary.push(await time(ordinary));
    }
    const result = {
      corpus: 'scifact',
      documents: 5183,
      longQueryWords: LONG_WORDS,
      longQueryChars: Math.round(long.reduce((s, q) => s + q.length, 0) / long.length),
      long: summarize(runs.long),
      ordinary: summarize(runs.ordinary),
    };
    log(`  280-word query: median ${round(result.long.p50, 2)} ms, p99 ${round(result.long.p99, 2)} ms; ordinary query: median ${round(result.ordinary.p50, 2)} ms`);
    await engine.close();
    emit(result);
  }
}
