/**
 * Search on real text: the SciFact corpus (5,183 abstracts) loaded through Panya's write path
 * with the default embedder, its 300 test queries. In-process: Panya `search()` and `retrieve()`
 * beside the FTS5 matching floor (the same terms, MATCH only, no ranking), MiniSearch and Orama
 * on the same documents. Then HTTP: `POST /api/search` on copies of the same database through
 * `panya serve --workers 1` and `--workers 2`.
 */
import { createReadStream, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { create, insertMultiple, search as oramaSearch } from '@orama/orama';
import { createEngine, type LexicalQuery } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import MiniSearch from 'minisearch';
import { emit, log } from './lib/child.js';
import { createFtsFloor, ftsToken } from './lib/fts-floor.js';
import { CACHE_ROOT, copyDb, sourceHash } from './lib/panya.js';
import { runLoad, type LoadResult } from './lib/load.js';
import { startServer } from './lib/serve.js';
import { mb, median, memorySnapshot, round, summarize } from './lib/stats.js';

const DIR = process.env.PANYA_EVAL_DIR ? join(process.env.PANYA_EVAL_DIR, 'scifact') : fileURLToPath(new URL('../../../shared/eval/scifact', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
/** `BENCH_SCIFACT_IN_PROCESS=0`: HTTP only (the in-process part takes most of the run). */
const IN_PROCESS = process.env.BENCH_SCIFACT_IN_PROCESS !== '0';
const HTTP_SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 5);
const K = 10;

async function* jsonLines(path: string): AsyncGenerator<Record<string, unknown>> {
  for await (const line of createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity })) if (line.trim()) yield JSON.parse(line);
}

const docs: { id: string; title: string; text: string }[] = [];
for await (const d of jsonLines(join(DIR, 'corpus.jsonl'))) {
  const text = String(d.text ?? '');
  docs.push({ id: String(d._id), title: String(d.title ?? '').trim() || text.slice(0, 80) || String(d._id), text });
}
const queries: string[] = [];
for await (const q of jsonLines(join(DIR, 'queries.jsonl'))) queries.push(String(q.text));

/** The SciFact database, built once through documents.bulk + ingest.drain() and cached. */
async function scifactDb(): Promise<{ path: string; buildSeconds: number | null }> {
  const dir = join(CACHE_ROOT, `scifact-${sourceHash()}`);
  const path = join(dir, 'panya.db');
  if (existsSync(path) && !process.env.PANYA_BENCH_FRESH) return { path, buildSeconds: null };
  mkdirSync(CACHE_ROOT, { recursive: true });
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const started = performance.now();
  const engine = createEngine({ store: openSqliteStore({ path: join(tmp, 'panya.db') }) });
  const created = (await engine.tenancy.createTenant({ slug: 'bench', plan: 'enterprise' }))._unsafeUnwrap();
  void created;
  const ctx = (await engine.access.system('bench'))._unsafeUnwrap();
  for (let at = 0; at < docs.length; at += 500) {
    const res = await engine.documents.bulk(ctx, { create: docs.slice(at, at + 500).map((d) => ({ title: d.title, contentMd: d.text })) });
    if (res.isErr()) throw new Error(res.error.message);
  }
  log(`  scifact: ${docs.length} documents written, ingesting…`);
  await engine.ingest.drain();
  await engine.close();
  renameSync(tmp, dir);
  const buildSeconds = (performance.now() - started) / 1000;
  log(`  scifact: built in ${buildSeconds.toFixed(1)} s`);
  return { path, buildSeconds };
}

const built = await scifactDb();
/** Panya `search()` and `retrieve()` in process, beside the FTS5 floor, MiniSearch and Orama on the same documents. */
async function inProcess() {
  const mem0 = memorySnapshot();
  const store = openSqliteStore({ path: built.path });
  // Every search runs (the cache of recent answers off); `cached` answers repeated queries from it.
  const engine = createEngine({ store, search: { resultCache: false } });
  const cached = createEngine({ store });
  const ctx = (await engine.access.system('bench'))._unsafeUnwrap();
  const chunks = await store.search.countChunks(ctx.scope);

  // Capture the terms the lexical channel sends, for the floor.
  let lastLexical: LexicalQuery | null = null;
  const lexical = store.search.lexical.bind(store.search);
  store.search.lexical = (scope, q, limit) => ((lastLexical = q), lexical(scope, q, limit));
  const coldStart = performance.now();
  await engine.search.retrieve(ctx.scope, queries[0]!, K);
  const coldMs = performance.now() - coldStart;
  const terms: string[][] = [];
  for (const q of queries) {
    lastLexical = null;
    await engine.search.search(ctx, { query: q, topK: K });
    terms.push(lastLexical ? [...(lastLexical as LexicalQuery).terms] : []);
  }
  store.search.lexical = lexical;
  const mem1 = memorySnapshot();

  // FTS5 matching floor: the workspace's scope token and the same terms, MATCH only (every row read, no ranking).
  createFtsFloor(store.db);
  const token = ftsToken;
  const quote = (t: string) => `"${t.replaceAll('"', '""')}"`;
  const scopeMatch = `scope:(${quote(token('w', `${ctx.scope.tenantId}/${ctx.scope.workspaceId}`))} OR ${quote(token('l', ctx.scope.tenantId))})`;
  const match = store.db.prepare('SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?');
  const ranked = store.db.prepare('SELECT rowid, bm25(chunks_fts, 0, 3, 1) AS s FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY s LIMIT 100');
  const ftsQuery = (i: number) => `${scopeMatch} AND {title body}:(${terms[i]!.map(quote).join(' OR ')})`;

  // Peers on the same documents (title + text), their default tokenizers.
  const mini = new MiniSearch({ fields: ['title', 'text'], storeFields: [] });
  mini.addAll(docs);
  const orama = create({ schema: { title: 'string', text: 'string' } as const });
  await insertMultiple(orama, docs.map((d) => ({ id: d.id, title: d.title, text: d.text })), 1000);

  const systems: Record<string, (i: number) => Promise<unknown> | unknown> = {
    'panya search()': (i) => engine.search.search(ctx, { query: queries[i]!, topK: K }),
    'panya retrieve()': (i) => engine.search.retrieve(ctx.scope, queries[i]!, K),
    'panya search(), repeated query (answer cache)': (i) => cached.search.search(ctx, { query: queries[i]!, topK: K }),
    'FTS5 matching floor (MATCH only)': (i) => (terms[i]!.length ? match.all(ftsQuery(i)) : []),
    'FTS5 bm25() ORDER BY … LIMIT 100': (i) => (terms[i]!.length ? ranked.all(ftsQuery(i)) : []),
    'MiniSearch (defaults)': (i) => mini.search(queries[i]!).slice(0, K),
    'Orama (defaults)': (i) => oramaSearch(orama, { term: queries[i]!, limit: K }),
  };
  for (const run of Object.values(systems)) for (let i = 0; i < queries.length; i++) await run(i); // warm-up
  const samples: Record<string, number[][]> = Object.fromEntries(Object.keys(systems).map((k) => [k, []]));
  for (let r = 0; r < RUNS; r++) {
    for (const [name, run] of Object.entries(systems)) {
      const times: number[] = [];
      for (let i = 0; i < queries.length; i++) {
        const t0 = performance.now();
        await run(i);
        times.push(performance.now() - t0);
      }
      samples[name]!.push(times);
    }
  }
  const latencyMs = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, summarize(v)]));
  for (const [k, v] of Object.entries(latencyMs)) log(`  ${k.padEnd(34)} p50 ${v.p50.toFixed(3)} ms  p99 ${v.p99.toFixed(3)} ms`);
  const p50 = (k: string) => latencyMs[k]!.p50;
    await engine.close();
    return {
      chunks,
      firstSearchMs: round(coldMs, 1),
      searchRssDeltaBytes: mem1.rss - mem0.rss,
      latencyMs,
      ratios: {
        searchOverMatchFloorP50: round(p50('panya search()') / p50('FTS5 matching floor (MATCH only)'), 2),
        retrieveOverMatchFloorP50: round(p50('panya retrieve()') / p50('FTS5 matching floor (MATCH only)'), 2),
        fts5RankedOverPanyaRetrieveP50: round(p50('FTS5 bm25() ORDER BY … LIMIT 100') / p50('panya retrieve()'), 2),
        miniSearchOverPanyaSearchP50: round(p50('MiniSearch (defaults)') / p50('panya search()'), 2),
        oramaOverPanyaSearchP50: round(p50('Orama (defaults)') / p50('panya search()'), 2),
      },
      memoryMb: { rssAfterSearchPass: mb(mem1.rss - mem0.rss) },
    };
}

const local = IN_PROCESS ? await inProcess() : null;

// ---------- HTTP: `panya serve --workers N` (N = 1, then 2) over a copy of the same database ----------
// autocannon runs in a process of its own; the server's CPU per request (its whole process group)
// says what a request costs whatever else the machine runs, and /healthz in the same run is the peer.
const WORKERS = (process.env.BENCH_SCIFACT_WORKERS ?? '1,2').split(',').map(Number);
const HTTP_RUNS = Number(process.env.BENCH_HTTP_RUNS ?? Math.min(RUNS, 2));
const httpRows: HttpRow[] = [];
interface HttpRow {
  target: string;
  connections: number;
  workers: number;
  reqPerSec: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  runsReqPerSec: number[];
  /** CPU of the server's processes per request (ms), median of the runs. */
  serverCpuMsPerRequest: number | null;
  /** CPU of the load generator per request (ms), median of the runs. */
  loadCpuMsPerRequest: number;
  non2xx: number;
  /** Share of the searches answered from the cache of recent answers (from the server's /metrics). */
  cacheHitShare?: number;
}
/** The search target with the default cache of recent answers, and with it off (every search runs). */
const SEARCH = 'POST /api/search';
const SEARCH_UNCACHED = 'POST /api/search, PANYA_SEARCH_CACHE_MB=0';
const SERVER_ENV = { on: {}, off: { PANYA_SEARCH_CACHE_MB: '0' } } as const;
const cacheHits = async (url: string) => Number(/^panya_search_cache_hits_total (\d+)/m.exec(await (await fetch(`${url}/metrics`)).text())?.[1] ?? 0);
for (const workers of WORKERS) {
  for (const cache of ['on', 'off'] as const) {
    const db = copyDb(built.path, join(mkdtempSync(join(tmpdir(), 'panya-bench-scifact-')), 'panya.db'));
    const keyEngine = createEngine({ store: openSqliteStore({ path: db }) });
    const tenant = (await keyEngine.tenancy.getTenantBySlug('bench'))._unsafeUnwrap();
    const { key } = (await keyEngine.apiKeys.create(tenant.id, { scopes: ['read'] }))._unsafeUnwrap();
    await keyEngine.close();
    const server = await startServer(db, workers, [], SERVER_ENV[cache]);
    try {
      const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      const requests = queries.map((q) => ({ method: 'POST' as const, path: '/api/search', headers: auth, body: JSON.stringify({ query: q, topK: K }) }));
      const search = { url: server.url, requests };
      const targets: Record<string, Parameters<typeof runLoad>[0]> =
        cache === 'on' ? { 'GET /healthz': { url: `${server.url}/healthz` }, [SEARCH]: search } : { [SEARCH_UNCACHED]: search };
      // Warm-up: each worker builds its in-memory index on its first search, then JIT and page cache.
      // On a busy machine the build takes longer: warm until searches answer steadily (at most 30 s).
      for (let warm = 0; warm < 10; warm++) {
        const w = await runLoad(search, 3);
        if (w.requests > 0 && w.latencyP99Ms < 1_000) break;
      }
      const http: Record<string, LoadResult[]> = {};
      const hits: Record<string, number> = {};
      for (let r = 0; r < HTTP_RUNS; r++) {
        for (const [name, opts] of Object.entries(targets)) {
          const before = await cacheHits(server.url);
          const res = await runLoad(opts, HTTP_SECONDS, server.child.pid);
          hits[name] = (hits[name] ?? 0) + (await cacheHits(server.url)) - before;
          (http[name] ??= []).push(res);
          const cpu = res.serverCpuMs === null ? '' : `  server CPU ${(res.serverCpuMs / res.requests).toFixed(3)} ms/req`;
          log(`  workers ${workers} ${name} @10 run ${r + 1}: ${res.reqPerSec.toFixed(0)} req/s  p50 ${res.latencyP50Ms} ms  p99 ${res.latencyP99Ms} ms  non-2xx ${res.non2xx}  errors ${res.errors}${cpu}  load generator ${(res.loadCpuMs / res.requests).toFixed(3)} ms/req`);
        }
      }
      for (const [target, rs] of Object.entries(http)) {
        const perRequest = rs.map((x) => (x.serverCpuMs === null ? null : x.serverCpuMs / x.requests));
        httpRows.push({
          target,
          connections: 10,
          workers,
          reqPerSec: round(median(rs.map((x) => x.reqPerSec)), 0),
          latencyP50Ms: median(rs.map((x) => x.latencyP50Ms)),
          latencyP99Ms: median(rs.map((x) => x.latencyP99Ms)),
          runsReqPerSec: rs.map((x) => round(x.reqPerSec, 0)),
          serverCpuMsPerRequest: perRequest.includes(null) ? null : round(median(perRequest as number[]), 3),
          loadCpuMsPerRequest: round(median(rs.map((x) => x.loadCpuMs / x.requests)), 3),
          non2xx: rs.reduce((s, x) => s + x.non2xx + x.errors, 0),
          ...(target === 'GET /healthz' ? {} : { cacheHitShare: round(hits[target]! / rs.reduce((s, x) => s + x.requests, 0), 3) }),
        });
      }
    } finally {
      await server.kill();
      rmSync(dirname(db), { recursive: true, force: true });
    }
  }
}
const row = (target: string, workers: number) => httpRows.find((x) => x.target === target && x.workers === workers);
const searchOverHealthz = Object.fromEntries(
  WORKERS.flatMap((w) => {
    const s = row(SEARCH, w);
    const h = row('GET /healthz', w);
    return s && h ? [[`workers${w}`, round(s.reqPerSec / h.reqPerSec, 3)]] : [];
  }),
);
const s1 = row(SEARCH, 1);
const s2 = row(SEARCH, 2);

emit({
  benchmark: 'scifact',
  documents: docs.length,
  queries: queries.length,
  runs: RUNS,
  httpRuns: HTTP_RUNS,
  httpSeconds: HTTP_SECONDS,
  buildSeconds: built.buildSeconds === null ? null : round(built.buildSeconds, 1),
  fileBytes: statSync(built.path).size,
  ...(local ?? { inProcess: 'skipped (BENCH_SCIFACT_IN_PROCESS=0)' }),
  http: httpRows,
  httpRatios: {
    searchOverHealthzReqPerSec: searchOverHealthz,
    searchWorkers2OverWorkers1: s1 && s2 ? round(s2.reqPerSec / s1.reqPerSec, 2) : null,
  },
});
