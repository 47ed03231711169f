/**
 * `pnpm bench [search|http|ingest|quality …]` — runs the benchmarks (all by default), each in
 * child processes, prints a table per benchmark, writes bench/results/<name>.json and
 * regenerates bench/results/README.md from every result file present.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runChild } from './lib/child.js';
import { machineInfo } from './lib/machine.js';
import { BENCH_DIR, CACHE_ROOT, sourceHash } from './lib/panya.js';
import { RENDER } from './lib/report.js';
import { median } from './lib/stats.js';

const ALL = ['search', 'http', 'ingest', 'quality', 'answers', 'scifact', 'stall', 'billing', 'tenants', 'tenants-postgres', 'gaps'] as const;
type Name = (typeof ALL)[number];
const readmeOnly = process.argv.includes('--readme');
const asked = process.argv.slice(2).filter((a) => a !== '--' && a !== '--readme');
for (const a of asked) if (!(ALL as readonly string[]).includes(a)) throw new Error(`unknown benchmark "${a}" (choose from ${ALL.join(', ')})`);
const names: Name[] = readmeOnly ? [] : asked.length ? (asked as Name[]) : [...ALL];
const RESULTS = join(BENCH_DIR, 'results');
const SEARCH_SIZES = (process.env.BENCH_SEARCH_SIZES ?? '10000,100000').split(',').map(Number);
const INGEST_RUNS = Number(process.env.BENCH_INGEST_RUNS ?? 2);
const INGEST_DOCS = Number(process.env.BENCH_INGEST_DOCS ?? 10_000);

/**
 * The benchmarks that start `panya serve` run the built server, as users run it: from the sources
 * every worker thread would load its modules through tsx's loader thread, which runs at the
 * serving threads' priority. `BENCH_SERVER=source` serves the sources instead (no build).
 */
const SERVES: readonly Name[] = ['http', 'scifact', 'stall', 'tenants', 'tenants-postgres'];
if (!readmeOnly && process.env.BENCH_SERVER !== 'source' && names.some((n) => SERVES.includes(n))) {
  console.error('building the packages: the benchmarks serve the built server …');
  execFileSync('pnpm', ['build'], { cwd: join(BENCH_DIR, '..'), stdio: ['ignore', 'ignore', 'inherit'] });
  process.env.BENCH_SERVER = 'dist';
}

mkdirSync(RESULTS, { recursive: true });
const started = Date.now();
const hash = sourceHash(); // fixed for this run and handed to every child through the environment
// Cached databases built from other sources are stale: remove them.
if (!readmeOnly && existsSync(CACHE_ROOT)) for (const d of readdirSync(CACHE_ROOT)) if (!d.endsWith(hash)) rmSync(join(CACHE_ROOT, d), { recursive: true, force: true });

async function pool<T>(jobs: (() => Promise<T>)[], width: number): Promise<T[]> {
  const out: T[] = [];
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < jobs.length) {
      const i = next++;
      out[i] = await jobs[i]!();
    }
  }));
  return out;
}

/** Builds the cached Panya databases the benchmarks need, two at a time (one per core). */
async function prebuild(sizes: number[]) {
  const jobs = sizes.flatMap((n) => [1, 10].map((ws) => () => runChild('build.ts', [String(n), String(ws)]).catch(() => null)));
  await pool(jobs, 2);
}

const runners: Record<Name, () => Promise<object>> = {
  async search() {
    const sizes = [];
    for (const n of SEARCH_SIZES) sizes.push(await runChild<object>('search.ts', [String(n)]));
    return { sizes };
  },
  async http() {
    return runChild<object>('http.ts');
  },
  async ingest() {
    const runs: Record<string, Record<string, number>[]> = { hash: [], precomputed: [] };
    for (let r = 0; r < INGEST_RUNS; r++) {
      for (const v of ['hash', 'precomputed']) runs[v]!.push(await runChild<Record<string, number>>('ingest.ts', [v, String(INGEST_DOCS)]));
    }
    const variants = Object.entries(runs).map(([variant, rs]) => {
      const m = (k: string) => median(rs.map((x) => x[k]!));
      return {
        variant,
        embedder: (rs[0] as unknown as { embedder: string }).embedder,
        docs: rs[0]!.docs,
        chunks: rs[0]!.chunks,
        avgWordsPerDoc: rs[0]!.avgWordsPerDoc,
        docsPerSec: m('docsPerSec'),
        chunksPerSec: m('chunksPerSec'),
        bulkSeconds: m('bulkSeconds'),
        drainSeconds: m('drainSeconds'),
        peakRssBytes: m('peakRssBytes'),
        runsDocsPerSec: rs.map((x) => x.docsPerSec!),
      };
    });
    return { runs: INGEST_RUNS, variants, raw: runs };
  },
  async quality() {
    return runChild<object>('quality.ts');
  },
  async answers() {
    return runChild<object>('answers.ts');
  },
  async scifact() {
    return runChild<object>('scifact.ts');
  },
  async stall() {
    return { queryCost: await runChild<object>('query-cost.ts'), load: await runChild<object>('stall-load.ts') };
  },
  async billing() {
    return { detector: await runChild<object>('resolutions.ts') };
  },
  async tenants() {
    return runChild<object>('tenants.ts', [], { BENCH_TENANTS_STORE: 'sqlite' });
  },
  /** The same on PostgreSQL (BENCH_TENANTS_PG or PANYA_TEST_PG), two `panya serve` nodes on the one database. */
  async 'tenants-postgres'() {
    return runChild<object>('tenants.ts', [], { BENCH_TENANTS_STORE: 'postgres' });
  },
  async gaps() {
    return runChild<object>('gaps.ts', [process.env.BENCH_GAPS_QUESTIONS ?? '50000']);
  },
};

if (!readmeOnly && (names.includes('search') || names.includes('http'))) {
  console.error(`preparing Panya databases (cache ${CACHE_ROOT}, key ${hash}) …`);
  await prebuild(names.includes('search') ? SEARCH_SIZES : [10_000]);
}

for (const name of names) {
  const machine = machineInfo();
  const t0 = Date.now();
  console.error(`\n== ${name} ==`);
  const result = await runners[name]();
  const record = { benchmark: name, startedAt: new Date(t0).toISOString(), seconds: Math.round((Date.now() - t0) / 1000), machine: { ...machine, loadAverageAfter: machineInfo().loadAverage }, ...(process.env.BENCH_NOTE ? { note: process.env.BENCH_NOTE } : {}), ...result };
  writeFileSync(join(RESULTS, `${name}.json`), JSON.stringify(record, null, 2) + '\n');
  console.log(`\n## ${name}\n\n${RENDER[name]!(record)}\n`);
}

writeFileSync(join(RESULTS, 'README.md'), readme());
console.error(`\nresults in ${RESULTS} (${Math.round((Date.now() - started) / 1000)} s)`);

function readme(): string {
  const present = ALL.filter((n) => existsSync(join(RESULTS, `${n}.json`)));
  const records = Object.fromEntries(present.map((n) => [n, JSON.parse(readFileSync(join(RESULTS, `${n}.json`), 'utf8'))]));
  const m = records[present[0]!]?.machine ?? machineInfo();
  const sections: Record<Name, string> = {
    search: `## search — in-process hybrid search

Synthetic corpus (seeded): topics are clusters (vector = normalised subtopic centroid + noise around a topic centroid; text drawn from a per-topic Zipfian vocabulary mixed with a Zipfian background vocabulary), one chunk per document, loaded through Panya's real write path (\`documents.bulk\` + \`ingest.drain()\`) with an embedder that returns the synthetic vectors. Queries are 2–4 words written from a target chunk, and its vector plus noise; every system gets the same query vector.

- **panya search()** — \`engine.search.search(ctx, {query, topK: 10})\` (the cache of recent answers off in every in-process benchmark: queries repeat across runs): validation, the lexical (BM25 + proximity) and vector channels (100 candidates each; the trigram channel only as a fallback when lexical finds few), RRF fusion, chunk and document hydration.
- **panya retrieve()** — \`engine.search.retrieve(scope, query, 10)\`: the channels and fusion only.
- **(a) raw FTS5 + vec0 floor** — the same FTS5 \`MATCH\` (workspace scope token + the terms Panya's lexical channel sends, captured per query) with the store's \`bm25()\` weights, \`ORDER BY … LIMIT 100\`, and the same exact scan of the workspace's vectors the store makes (\`vec_distance_cosine\` over its compact vector table, \`LIMIT 100\`; a vec0 KNN before that table), issued directly with better-sqlite3 on the same connection: what Panya adds to. The floor's FTS candidate set is checked against Panya's lexical channel (the "identical" percentage).
- **(b) Float32Array scan** — exact cosine (dot product of unit vectors) over the workspace's vectors in plain JS, top-10.
- **(c) Orama hybrid** — \`search(db, {term, mode: 'hybrid', vector, limit: 10, similarity: 0.5})\` on the same chunks and vectors; the 10-workspace case filters \`where: {ws: {eq}}\`. (Orama's default similarity 0.8 lets ~1 vector hit through on this data; the scan cost is the same.)
- **↳ rows** — the floor's two statements timed alone, and one more \`search()\` per query with the store's calls traced (wrapped store methods): time in the lexical, trigram and semantic calls, in hydration (\`getChunks\` + \`documents.getMany\` for the 10 hits) and the rest (validation, tokenizing, fusion, glue); store calls per search are listed above each table.
- **p50** — median over runs of each run's median; **p99** — over all samples of all runs; **per-run p50** shows the spread.
- **Recall@10** — Panya's vector channel (\`store.search.semantic(scope, v, 10)\`) against the exact scan of the same workspace. A workspace of 10,000 chunks or more is searched on its HNSW graph (usearch, f16, built afresh by the store's builder process before timing; its build time is reported), a smaller one exactly (vec0).
- **Memory** — Orama: growth of V8 heap + external memory (after forced GC) from building its index, which holds the documents; Panya: the SQLite file (database + WAL), i.e. the most the OS page cache can hold for it, the HNSW graph files, and the RSS growth of the process from opening both databases and running a warm query pass (the in-memory lexical indexes, the mapped graph, SQLite's own page cache included; the graph is built in a child process, whose memory is returned when it exits). The earlier goal's ratio adds the three; it is given again without the trigram table's pages (\`PANYA_TRIGRAM_INDEX=off\` drops the table). **Restated goal** (issue 34): RSS growth ≤ 1/3 of Orama's heap, and the file ≤ 1.3 × (chunk text + f32 vectors).
- **(ii) one of 10 workspaces** — the same number of chunks split over 10 workspaces (topic mod 10) in one database; queries are confined to one workspace.
`,
    http: `## http — REST throughput

\`createPanyaApp(engine)\` (auth, usage metering and limits included; tenant on the Enterprise plan, so no rate limit rejects requests) serving the 10k-chunk database from its own process on 127.0.0.1; autocannon in another process (one core each). Each row is the median of the runs, runs interleaved across targets.

- **GET /healthz** — the Express floor: no auth, no store.
- **POST /api/search** — \`{query, topK: 10}\` cycling through 500 queries; **req/s** is autocannon's mean per run, **p50/p99** its latency percentiles.
- **POST /api/answer** — extractive answer (the default generator) for the same queries.
- **/api/chat** — time from sending the request to the first complete SSE event, sequential requests.
- One server process runs SQLite synchronously on its event loop, so search req/s is bounded by 1000 / (in-process \`search()\` ms) at the same corpus size; compare with the search benchmark's 10k one-workspace row.
`,
    ingest: `## ingest — indexing throughput

10k seeded markdown articles (H1, 2–4 H2 sections with paragraphs, a bullet list, a table, some H3s), written with \`engine.documents.bulk\` (1,000 per call) and indexed by \`engine.ingest.drain()\` into a SQLite file. One run per process.

- **docs/s, chunks/s** — documents (chunks) over the whole time, bulk writes + drain; **bulk s / drain s** — the two phases.
- **\`hash\` embedder** — the built-in default embedder (1,024 d); **embedding excluded** — an embedder handing out precomputed 1,024-d vectors (no embedding work, same vector writes).
- **peak RSS** — the process's maximum resident set (\`process.resourceUsage().maxRSS\`), documents held in memory included.
`,
    quality: `## quality — retrieval quality side by side

TEST split of each dataset in \`../shared/eval\` (beside the repository); nothing tuned. Same metrics for everyone (\`evaluateRun\` from \`@panya/core\`): nDCG@10, Recall@100, MRR@10, Hit@1, documents ranked to depth 100.

- **Panya lexical / semantic / hybrid** — \`runEval\` (what \`panya eval\` runs) on a fresh in-memory engine with the default \`hash\` embedder; documents scored by their best chunk. With the \`hash\` embedder, hybrid is (nearly) lexical: the engine weighs hash vectors at \`HASH_SEMANTIC_WEIGHT\` (0 at the time of writing, tuned on SciFact train) in fusion.
- **MiniSearch / Lunr / Orama (defaults)** — set up as their READMEs show: fields title + text, default tokenizer and options, \`search(query)\` (Lunr: \`idx.search\`, escaped and retried if its query syntax rejects the text; Orama: \`limit: 100\`).
- **+ Intl.Segmenter** — the same with an ICU word tokenizer (\`Intl.Segmenter('th', {granularity: 'word'})\`, word-like segments, lower-cased): MiniSearch \`tokenize\`, Lunr custom tokenizer without the trimmer (it strips \\W, i.e. all Thai) and \`idx.query\` with segmented terms, Orama custom tokenizer component.
- **queries w/o hits** — queries for which the library returned nothing.
`,
    scifact: `## scifact — search on real text

SciFact (\`shared/eval/scifact\`: 5,183 abstracts, 300 test queries) loaded once through Panya's write path (\`documents.bulk\` + \`ingest.drain()\`) with the default embedder and cached; every system answers the same 300 queries, runs interleaved by system.

- **panya search()** — validation, channels (lexical: core's in-memory BM25 + proximity; with the \`hash\` embedder the vector channel has weight 0), fusion, hydration, with the cache of recent answers off; **retrieve()** — channels and fusion only; **search(), repeated query (answer cache)** — the same with the default cache, every query already asked: the generation read and the lookup.
- **FTS5 matching floor** — the same terms Panya's lexical channel sends (captured per query) and the workspace scope token, \`MATCH\` only: every matching row read, nothing ranked. **FTS5 bm25() ORDER BY … LIMIT 100** — the ranked query the SQLite store ran before ranking moved to core.
- **MiniSearch / Orama (defaults)** — the same documents (title + text), their default tokenizers, top 10.
- **HTTP** — \`panya serve --workers N\` (N = 1, then 2; the server as each run's \`machine.server\` names it, the sources in runs without it, \`--embedder hash\`) over a fresh copy of the database, autocannon at 10 connections in a process of its own (it still shares the 2 cores with the server), a 3 s warm-up, then 2 runs interleaved with \`GET /healthz\`. Every JSON route is answered by the handler compiled from the operation table, the app's first layer, without Express's per-request work (docs/decisions.md). The 300 queries repeat, so with the default cache of recent answers (\`PANYA_SEARCH_CACHE_MB=32\`) nearly every search after the warm-up is answered from it (**answered from cache**, read from the server's \`panya_search_cache_hits_total\`): what popular questions cost. A second server of each worker count runs with the cache off (\`PANYA_SEARCH_CACHE_MB=0\`): what a search seen for the first time costs. **server CPU ms/req** is the CPU time of the server's whole process group (primary and workers, from /proc) over a run divided by its requests, **load generator CPU ms/req** autocannon's own: together they say what a request cost whatever else the machine ran. Re-run alone: \`pnpm bench scifact\` (\`BENCH_SCIFACT_WORKERS=1,2\`, \`BENCH_RUNS\`, \`BENCH_HTTP_SECONDS\`, \`BENCH_HTTP_RUNS\`; \`BENCH_SCIFACT_IN_PROCESS=0\` for the HTTP part only).
`,
    answers: `## answers — answer quality on a labelled set

\`bench/src/answers/cases.ts\`: questions on the demo tenant's articles (\`panya demo\`, English and Thai), each labelled with the facts a correct answer quotes (and, for some, off-topic text it must not quote); single-turn questions through \`answers.answer\`, follow-ups through \`chat.chat\` after their earlier turns; one question the articles cannot answer. In-memory engine, default \`hash\` embedder, extractive generator.

- **correct** — grounded, every labelled fact present, nothing to avoid quoted (for the unanswerable question: the no-answer message).
- **peer: top passage** — the best-ranked chunk for the same (standalone) query, cut to the same 80-word budget: what a reader gets without answer extraction.

**Help-center set** (\`bench/src/answers/helpcenter-*.ts\`): 8 English and 8 Thai help-center articles of a coffee-shop point-of-sale product (steps under headings, policies with numbers, a price table, troubleshooting sections; the Thai ones written as Thai is, with spaces between clauses and no full stops), and 69 questions in each language — how-to (the answer must hold every step), policy with numbers, troubleshooting, yes/no, and 10 the articles cannot answer — each labelled with the facts a correct answer contains. Asked through \`answers.answer\` without a \`locale\` (the question's language decides), one in-memory engine per generator. **facts covered**: grounded and every labelled fact present; **unanswerable refused**: the no-answer message; **chars**: answer length in characters (graphemes), citations removed. In the same run, on the same retrieved chunks: **first sentence of the top chunk** and **top chunk truncated** (to the extractive budget: 80 words, 300 Thai characters); the extractive generator's measured alternatives (Thai runs split at every space / never split; relevance threshold 0.3 / 0.7); and the OpenAI-compatible generator against the local fake server, judged on its prompt only.
`,
    stall: `## stall — no request freezes the server

**Query cost** is in-process on SciFact (5,183 abstracts through the ingest path): 280-word queries of the corpus's commonest words against the dataset's own test queries, same process.

**Under load** is \`panya serve --workers N\` (\`--embedder hash\`, one ingest process per worker, the cache of recent search answers off so that every probe and pathological query runs) over a fresh copy of the SciFact database, N = 1 then 2. First **search req/s**: autocannon, 10 connections, the ordinary test queries, nothing else running. Then, for \`BENCH_STALL_SECONDS\` (default 40): 8 clients each upload up to 20 requests of 20 × 1 MB markdown files (tenant \`bulk\`; an upload refused with 503 under the in-flight limits waits its \`Retry-After\` before the next), one client sends 280-word queries back to back, another tenant (\`catalogue\`) uploads an 8,000-page PDF and a third (\`import\`) imports documents through \`POST /api/docs/bulk\`, 200 of ~4.7 KB a request (~1 MB of JSON), back to back, while \`GET /healthz\` and an ordinary \`POST /api/search\` (tenant \`bench\`, SciFact) are each probed one request at a time, 100 ms apart, from the benchmark process. The load runs in another process and session: Linux schedules each session as one group, so, as when clients are separate machines, the uploaders' CPU use is not charged to the probing client, while the server still shares the cores with both (until 2026-11-27 the load shared the probes' session, and the probes' own waits for a core showed in their latencies). Every request times out (uploads and imports 30 s, the PDF 60 s, probes 15 s: a timed-out probe counts at its elapsed time, as failed), the load process is capped, and the server's process group is killed at the end. Server, load and probes share the machine's cores, and the machine is shared with other work: the load average at each configuration's start is in the table, and absolute latencies move with it.
`,
    billing: `## billing — the resolution detector

In-process, SQLite in memory: a tenant with 200,000 conversations counted in earlier months and 2,000 new ones from last month. **First run** records the new ones (\`detectResolutions\`); **steady state** is the candidate scan every later \`*/15\` run makes, median of 9: the detector's window (this month and the previous one, through the partial index of qualifying conversations) against the same scan over the whole history.
`,
    gaps: `## gaps — the content-gaps job

In-process, SQLite in memory: 50,000 gap questions (refused, weakly grounded or thumbed down) in the last 30 days and 5,000 in the 30 days before, two thirds English and one third Thai, drawn by Zipf from 400 synthetic topics (three content words each, phrased through several question templates; 5 % carry an e-mail, a phone number or a Thai ID), over a 40-document knowledge base. **job ms** — \`jobs.run('content-gaps')\` (read in slices of 1,000, cluster, count the previous period against the clusters, look up each kept cluster's nearest document, store), median of 3, wall and CPU time (on a shared machine the wall time grows with the load average, printed with the result); **event loop max** — the longest the thread was held while it ran (\`monitorEventLoopDelay\`), i.e. what a request arriving meanwhile could wait.
`,
    tenants: `## tenants — many small tenants on one server

SciFact abstracts written through the library's write path (\`documents.bulk\` + \`ingest.drain()\`, default settings, no model) into one SQLite file: \`BENCH_TENANTS_SMALL\` tenants of 20 documents, \`BENCH_TENANTS_MEDIUM\` of 1,000 and \`BENCH_TENANTS_LARGE\` of \`BENCH_TENANTS_LARGE_DOCS\` (scaled down by default; the full run is 10,000 / 100 / 3 × 20,000 = 360,000 documents). The build is kept in the bench cache (keyed by scale and by what Panya writes; \`BENCH_TENANTS_DIR\` names another place) and resumed from its last finished tenant when interrupted, so a large scale is built once, over several runs if need be; **documents/s** is the build rate of the documents written in that run. **file / text** — the database against the raw text written (SQLite: its pages in use after a checkpoint, as a run's deleted uploads leave free pages the next writes reuse; the file's size on disk is \`fileOnDiskBytes\`). Then \`panya serve --workers 2\` on it, measured once its start-up warm-up is done (its index cache loads stop growing for a second): **cold** — the first search of each workspace, one request at a time (small: the last 50 built; medium: up to 20; the server's start-up warm-up reads the largest workspaces first, 256 per worker, so medium ones are usually read before their first search; the cold first lexical search in process is the cold read), **warm** — three more passes (each worker loads a workspace on its own first search); **Zipf** — autocannon, 10 connections, two windows of \`BENCH_HTTP_SECONDS\`, the tenant of each request drawn by Zipf (s = 1) over every tenant and its query at random, each drawn request sent once by whichever connection is free (autocannon's own \`requests\` list is replayed whole by every connection, so until 2026-11-29 each request went out ten times side by side and all but the first were mostly answered from the cache of recent answers: those earlier figures were 1.5–2.3× too high) (the first window meets most tenants for the first time on each worker; the second, a fresh draw, is the traffic of a server that has been up a while); **never stall** — a 1,000-document tenant uploads 1 MB markdown files (two uploads in flight, from a process and session of their own, as the stall benchmark's load: until 2026-11-29 the uploads ran in the benchmark's process, and the probe's own waits for a core showed in its latencies) while its own searches are timed, with the on-core and run-queue time of the server's serving threads (\`/proc/<pid>/schedstat\`) over that window. **RSS** — the server's process group; **index cache** — its \`/metrics\` figures (summed over the workers).
`,
    'tenants-postgres': `## tenants-postgres — the same on PostgreSQL, two nodes

The tenants benchmark with \`BENCH_TENANTS_STORE=postgres\`: built through the same write path into a schema of the database at \`BENCH_TENANTS_PG\` (default \`PANYA_TEST_PG\`; kept and resumed like the SQLite file), then \`BENCH_TENANTS_NODES\` (default 2) \`panya serve --workers 1\` processes on that one database; one-at-a-time searches alternate between the nodes, the Zipf traffic is split between them (5 connections each; p50/p99 per node), uploads go to the first node while the uploading tenant's searches alternate. Size: the schema's tables with their indexes and TOAST (\`pg_total_relation_size\`).
`,
  };
  return `# Panya benchmarks

Generated by \`pnpm bench\` (package \`@panya/bench\`, sources in \`bench/src\`). Every input is generated from fixed seeds; each figure is measured side by side with its reference in the same run.

**Machine:** ${m.cpu} (unless a run names another), ${m.nproc} cores (nproc), ${m.memoryGiB} GiB RAM, Node ${m.node} (ICU ${m.icu}), ${m.platform}. Load average when each benchmark started is in its JSON (\`machine.loadAverage\`): the machine is shared, so absolute figures move with other work; ratios measured in the same run are the figures to compare.

**Re-run:** \`pnpm bench\` (everything, ~20–25 min when the databases are cached, more on a cold cache) or one benchmark: \`pnpm --filter @panya/bench run bench search\` (or \`http\`, \`ingest\`, \`quality\`, \`answers\`). The benchmarks that start \`panya serve\` first run \`pnpm build\` and serve the built packages, as users run them (\`BENCH_SERVER=source\`: the sources through tsx, no build; each result's \`machine.server\` says which). Knobs: \`BENCH_SEARCH_SIZES=10000\`, \`BENCH_RUNS\`, \`BENCH_QUERIES\`, \`BENCH_INGEST_RUNS\`, \`BENCH_INGEST_DOCS\`, \`BENCH_HTTP_SECONDS\`, \`BENCH_DATASETS=scifact\`, \`BENCH_STALL_SECONDS\` (default 40), \`BENCH_STALL_WORKERS\` (default \`1,2\`). Panya databases for the search and HTTP benchmarks are built through the ingest path once and cached in \`${CACHE_ROOT.replace(/^\/tmp/, '$TMPDIR')}\` (keyed by a hash of the chunker, tokenizer, search-index and corpus sources); \`PANYA_BENCH_FRESH=1\` rebuilds. \`pnpm --filter @panya/bench run bench --readme\` only regenerates this file from the JSON results.

${present.map((n) => `${sections[n]}\n_Run ${records[n].startedAt}, ${records[n].seconds} s, load average ${records[n].machine.loadAverage.join(' / ')}${records[n].machine.server && SERVES.includes(n) ? `, ${records[n].machine.server} server` : ''}${records[n].machine.cpu === m.cpu ? '' : `, on ${records[n].machine.cpu}`}._\n\n${RENDER[n]!(records[n])}\n`).join('\n')}`;
}
