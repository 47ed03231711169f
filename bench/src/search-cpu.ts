/**
 * CPU of one uncached search in-process on the SciFact corpus (the 300 test queries, top 10,
 * default hash embedder, the cache of recent answers off): the whole `search` (ranking and
 * hydration) and `retrieve` (ranking only) per query, next to a peer workload that no search code
 * runs (JSON of the corpus's first abstracts) timed in the same process, so runs at different
 * times on a shared machine compare by their ratio to the peer.
 *
 * Run: `pnpm --filter @panya/bench exec tsx --conditions=@panya/source src/search-cpu.ts`
 * (`BENCH_RUNS`, `BENCH_SCIFACT_DB`: an already built SciFact database to search).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createEngine, type RequestContext } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { emit, log } from './lib/child.js';
import { median, round } from './lib/stats.js';
import { ordinaryQueries, scifactDb } from './query-cost.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const path = process.env.BENCH_SCIFACT_DB ?? (await scifactDb());
const engine = createEngine({ store: openSqliteStore({ path }), search: { resultCache: false } });
const ctx: RequestContext = (await engine.access.system('bench'))._unsafeUnwrap();
const queries = ordinaryQueries();
const EVAL_DIR = process.env.PANYA_EVAL_DIR ?? fileURLToPath(new URL('../../../shared/eval', import.meta.url));
const abstracts = readFileSync(`${EVAL_DIR}/scifact/corpus.jsonl`, 'utf8').split('\n').slice(0, 400).filter(Boolean);

/** CPU microseconds of `work`, per item. */
async function cpu(items: number, work: () => Promise<void> | void): Promise<number> {
  const start = process.cpuUsage();
  await work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / items;
}

const search = () =>
  cpu(queries.length, async () => {
    for (const query of queries) (await engine.search.search(ctx, { query, topK: 10 }))._unsafeUnwrap();
  });
const retrieve = () =>
  cpu(queries.length, async () => {
    for (const query of queries) await engine.search.retrieve(ctx.scope, query, 10);
  });
/** The peer: parsing and writing JSON, as much work per item as a search roughly. */
const peer = () =>
  cpu(queries.length, () => {
    for (let q = 0; q < queries.length; q++) for (let i = 0; i < 30; i++) JSON.stringify(JSON.parse(abstracts[(q * 30 + i) % abstracts.length]!));
  });

await search();
await retrieve();
const runs: { search: number; retrieve: number; peer: number }[] = [];
for (let r = 0; r < RUNS; r++) runs.push({ peer: await peer(), search: await search(), retrieve: await retrieve() });
const m = { search: median(runs.map((r) => r.search)), retrieve: median(runs.map((r) => r.retrieve)), peer: median(runs.map((r) => r.peer)) };
const out = {
  runs: RUNS,
  queries: queries.length,
  searchUs: round(m.search, 1),
  retrieveUs: round(m.retrieve, 1),
  hydrationUs: round(m.search - m.retrieve, 1),
  peerUs: round(m.peer, 1),
  searchPerPeer: round(m.search / m.peer, 3),
  retrievePerPeer: round(m.retrieve / m.peer, 3),
};
log(JSON.stringify(out));
emit(out);
await engine.close();
