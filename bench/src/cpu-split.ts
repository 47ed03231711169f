/**
 * Where the CPU of one uncached `POST /api/search` goes, on the SciFact corpus through
 * `panya serve --workers 2` (`PANYA_SEARCH_CACHE_MB=0`: every search runs), autocannon at 10
 * connections in a process of its own cycling through the 300 test queries.
 *
 * 1. Unprofiled runs: req/s, latency, and the server's CPU per request (its whole process group, /proc).
 * 2. One run with the workers under V8's sampling profiler (`--cpu-prof`). Only the samples taken
 *    during the load window count. Each sample goes to the phase of the deepest frame of its stack
 *    that names one (PHASES below: auth, limits, validation, search, hydration, write), else HTTP
 *    (the compiled handler, body reading, JSON writing, Node's HTTP and sockets, logs and metrics);
 *    garbage collection and native time outside JavaScript are kept apart. The profile says how a
 *    worker's busy time divides; the kernel's count of the workers' CPU over the same window says
 *    how much there was, so a phase's ms/request is its share × worker CPU / requests.
 *
 * Run: `pnpm --filter @panya/bench exec tsx --conditions=@panya/source src/cpu-split.ts`
 * (`BENCH_HTTP_SECONDS`, `BENCH_HTTP_RUNS`, `BENCH_NOTE`). Writes bench/results/cpu-split.json.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createEngine } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { log } from './lib/child.js';
import { runLoad, type LoadResult } from './lib/load.js';
import { BENCH_DIR, copyDb } from './lib/panya.js';
import { startServer, type Server } from './lib/serve.js';
import { median, round } from './lib/stats.js';
import { ordinaryQueries, scifactDb } from './query-cost.js';

const SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 6);
const RUNS = Number(process.env.BENCH_HTTP_RUNS ?? 2);
/** `BENCH_CPU_PLAIN=0`: the profiled run only. */
const PLAIN = process.env.BENCH_CPU_PLAIN !== '0';
const WORKERS = 2;
const INTERVAL_US = 1000;

type Phase = 'http' | 'auth' | 'limits' | 'validation' | 'search' | 'hydration' | 'write';
/** A frame names a phase by its function and file; the deepest naming frame of a stack wins. */
const PHASES: { phase: Phase; fn: RegExp; url: RegExp }[] = [
  { phase: 'auth', fn: /^authenticate$/, url: /core\/src\/tenancy\/(authenticate|api-keys)\.ts$/ },
  { phase: 'auth', fn: /^resolve$/, url: /core\/src\/tenancy\/access\.ts$/ },
  { phase: 'limits', fn: /^take$/, url: /core\/src\/billing\/limits\.ts$/ },
  { phase: 'limits', fn: /^consume$/, url: /core\/src\/rows\/aggregates\/rate-limits\.ts$/ },
  { phase: 'validation', fn: /^parseInput$/, url: /core\/src\/schemas\/validate\.ts$/ },
  { phase: 'search', fn: /^(retrieval|channels)$/, url: /core\/src\/search\/search\.ts$/ },
  { phase: 'hydration', fn: /^answer$/, url: /core\/src\/search\/search\.ts$/ },
  { phase: 'hydration', fn: /^(getChunks|getRefs)$/, url: /(store-sqlite\/src\/|core\/src\/rows\/aggregates\/documents\.ts$)/ },
  { phase: 'write', fn: /^(recordQuery|commitPending)$/, url: /core\/src\/(tenancy\/usage|rows\/aggregates\/usage)\.ts$/ },
];
/**
 * Work a promise continuation runs without the calling function on its stack (the lexical
 * ranker resumes from the microtask queue): named by its file when no frame above names a phase.
 */
const FILES: { phase: Phase; url: RegExp }[] = [{ phase: 'search', url: /core\/src\/search\/|core\/src\/text\/|store-sqlite\/src\/search-index\.ts$/ }];

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Samples by leaf function (its phase, name and file), over the workers' profiles. */
const selfSamples = new Map<string, number>();

/** Samples per phase taken between `from` and `to` (µs, the monotonic clock the profiler uses). */
function split(profile: Profile, from: number, to: number): { counts: Record<string, number>; self: Map<string, number> } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const phaseOf = (leaf: number): string => {
    const name = byId.get(leaf)!.callFrame.functionName;
    if (name === '(idle)') return 'idle';
    if (name === '(garbage collector)') return 'gc';
    if (name === '(program)') return 'native';
    const rulesInOrder: { phase: Phase; fn?: RegExp; url: RegExp }[][] = [PHASES, FILES];
    for (const rules of rulesInOrder) {
      for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id)) {
        const { functionName, url } = byId.get(id)!.callFrame;
        const phase = rules.find((r) => (r.fn ? r.fn.test(functionName) : true) && r.url.test(url))?.phase;
        if (phase) return phase;
      }
    }
    return 'http';
  };
  const counts: Record<string, number> = {};
  const self = new Map<string, number>();
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i]!;
    if (t < from || t > to) continue;
    const phase = phaseOf(profile.samples[i]!);
    counts[phase] = (counts[phase] ?? 0) + 1;
    const { functionName, url } = byId.get(profile.samples[i]!)!.callFrame;
    const fn = `${phase}: ${functionName || '(anonymous)'} ${url.replace(/^.*\/(packages|node_modules)\//, '').replace(/^file:\/\//, '')}`;
    self.set(fn, (self.get(fn) ?? 0) + 1);
  }
  return { counts, self };
}

/** CPU ms of each process of a group, from /proc (USER_HZ = 100). */
function cpuByPid(pgid: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid) out.set(Number(pid), (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // Ended meanwhile.
    }
  }
  return out;
}

const isServeProcess = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('packages/cli/src/bin.ts');
  } catch {
    return false;
  }
};

const queries = ordinaryQueries();
const built = await scifactDb();

async function serve(nodeFlags: string[] = []): Promise<{ server: Server; key: string; db: string }> {
  const db = copyDb(built, join(mkdtempSync(join(tmpdir(), 'panya-bench-cpu-')), 'panya.db'));
  const keyEngine = createEngine({ store: openSqliteStore({ path: db }) });
  const tenant = (await keyEngine.tenancy.getTenantBySlug('bench'))._unsafeUnwrap();
  const { key } = (await keyEngine.apiKeys.create(tenant.id, { scopes: ['read'] }))._unsafeUnwrap();
  await keyEngine.close();
  // The workers are forked with the primary's flags.
  const server = await startServer(db, WORKERS, nodeFlags, { PANYA_SEARCH_CACHE_MB: '0' });
  return { server, key, db };
}

const load = (url: string, key: string) => ({
  url,
  requests: queries.map((q) => ({ method: 'POST' as const, path: '/api/search', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ query: q, topK: 10 }) })),
});

async function warm(target: ReturnType<typeof load>): Promise<void> {
  // Each worker builds its in-memory index on its first search; warm until searches answer steadily.
  for (let i = 0; i < 4; i++) {
    const w = await runLoad(target, 4);
    if (w.requests > 0 && w.latencyP99Ms < 1_000) break;
  }
}

const loadBefore = loadavg().map((x) => round(x, 2));

// 1. Unprofiled.
const plain: LoadResult[] = [];
if (PLAIN) {
  const { server, key, db } = await serve();
  try {
    const target = load(server.url, key);
    await warm(target);
    for (let r = 0; r < RUNS; r++) {
      const res = await runLoad(target, SECONDS, server.child.pid);
      plain.push(res);
      log(`  run ${r + 1}: ${res.reqPerSec.toFixed(0)} req/s  p50 ${res.latencyP50Ms} ms  p99 ${res.latencyP99Ms} ms  non-2xx ${res.non2xx}  server CPU ${(res.serverCpuMs! / res.requests).toFixed(3)} ms/req`);
    }
  } finally {
    await server.kill();
    rmSync(dirname(db), { recursive: true, force: true });
  }
}

// 2. Profiled: the workers' main threads sampled; only the load window counts.
const profiles = mkdtempSync(join(tmpdir(), 'panya-bench-cpuprof-'));
let profiled: { requests: number; reqPerSec: number; workerCpuMs: number; groupCpuMs: number; samples: Record<string, number> };
{
  const { server, key, db } = await serve(['--cpu-prof', `--cpu-prof-dir=${profiles}`, `--cpu-prof-interval=${INTERVAL_US}`]);
  try {
    const target = load(server.url, key);
    await warm(target);
    const pgid = server.child.pid!;
    const before = cpuByPid(pgid);
    const from = Number(process.hrtime.bigint() / 1000n);
    const res = await runLoad(target, SECONDS, pgid);
    const to = Number(process.hrtime.bigint() / 1000n);
    const after = cpuByPid(pgid);
    // A worker writes its profile as it exits on SIGTERM; the primary's would be all idle.
    const workers = [...after.keys()].filter((pid) => pid !== pgid && isServeProcess(pid));
    for (const pid of workers) process.kill(pid, 'SIGTERM');
    for (let i = 0; i < 120 && !workers.every((pid) => readdirSync(profiles).some((f) => f.includes(`.${pid}.0.`))); i++) await new Promise((r) => setTimeout(r, 500));
    await new Promise((r) => setTimeout(r, 2_000)); // the last bytes of the files
    await server.kill();
    const delta = new Map([...after].map(([pid, ms]) => [pid, ms - (before.get(pid) ?? 0)]));
    const samples: Record<string, number> = {};
    let workerCpuMs = 0;
    for (const file of readdirSync(profiles).filter((f) => f.endsWith('.cpuprofile'))) {
      const { counts, self } = split(JSON.parse(readFileSync(join(profiles, file), 'utf8')) as Profile, from, to);
      // A worker's main thread: the profile that served searches (the primary and helper threads did not).
      if (!counts.search) continue;
      const pid = Number(/\.(\d+)\.\d+\.\d+\.cpuprofile$/.exec(file)?.[1]);
      workerCpuMs += delta.get(pid) ?? 0;
      for (const [phase, n] of Object.entries(counts)) samples[phase] = (samples[phase] ?? 0) + n;
      for (const [fn, n] of self) selfSamples.set(fn, (selfSamples.get(fn) ?? 0) + n);
    }
    profiled = { requests: res.requests, reqPerSec: res.reqPerSec, workerCpuMs, groupCpuMs: res.serverCpuMs ?? 0, samples };
    log(`  profiled: ${res.reqPerSec.toFixed(0)} req/s, samples ${JSON.stringify(samples)}`);
  } finally {
    await server.kill();
    rmSync(dirname(db), { recursive: true, force: true });
    rmSync(profiles, { recursive: true, force: true });
  }
}

const busy = Object.entries(profiled.samples).filter(([p]) => p !== 'idle');
const busyTotal = busy.reduce((s, [, n]) => s + n, 0);
const perRequest = profiled.workerCpuMs / profiled.requests;
const order = ['http', 'auth', 'limits', 'validation', 'search', 'hydration', 'write', 'gc', 'native'];
// Two readings of a phase's cost per request: its share of the workers' CPU (all their threads, the
// profiler's own sampling included), and its samples × interval (time on the main thread, which
// on a busy machine includes moments the thread was runnable but not running).
const phases = Object.fromEntries(
  order
    .filter((p) => profiled.samples[p])
    .map((p) => [p, { share: round(profiled.samples[p]! / busyTotal, 3), mainThreadMsPerRequest: round((profiled.samples[p]! * INTERVAL_US) / 1000 / profiled.requests, 3), cpuMsPerRequest: round((profiled.samples[p]! / busyTotal) * perRequest, 3) }]),
);
const record = {
  benchmark: 'cpu-split',
  startedAt: new Date().toISOString(),
  machine: {
    nproc: 2,
    node: process.version,
    loadAverageBefore: loadBefore,
    loadAverageAfter: loadavg().map((x) => round(x, 2)),
    shared: 'the machine is shared with other work running at the same time; req/s and latency move with its load, CPU per request much less',
  },
  ...(process.env.BENCH_NOTE ? { note: process.env.BENCH_NOTE } : {}),
  target: 'POST /api/search {query, topK: 10}, SciFact (5,183 abstracts, 300 test queries), panya serve --workers 2, PANYA_SEARCH_CACHE_MB=0, 10 connections',
  secondsPerRun: SECONDS,
  unprofiled: !plain.length ? null : {
    reqPerSec: round(median(plain.map((x) => x.reqPerSec)), 0),
    latencyP50Ms: median(plain.map((x) => x.latencyP50Ms)),
    latencyP99Ms: median(plain.map((x) => x.latencyP99Ms)),
    runsReqPerSec: plain.map((x) => round(x.reqPerSec, 0)),
    runsP99Ms: plain.map((x) => x.latencyP99Ms),
    serverCpuMsPerRequest: round(median(plain.map((x) => x.serverCpuMs! / x.requests)), 3),
    non2xx: plain.reduce((s, x) => s + x.non2xx + x.errors, 0),
  },
  profiled: {
    reqPerSec: round(profiled.reqPerSec, 0),
    samplingIntervalUs: INTERVAL_US,
    workerCpuMsPerRequest: round(perRequest, 3),
    mainThreadBusyMsPerRequest: round((busyTotal * INTERVAL_US) / 1000 / profiled.requests, 3),
    serverCpuMsPerRequest: round(profiled.groupCpuMs / profiled.requests, 3),
    phases,
    samples: profiled.samples,
    /** The leaf functions with the most samples (self time), with their phase: where to look next. */
    topSelf: [...selfSamples].filter(([fn]) => !fn.startsWith('idle:')).sort((a, b) => b[1] - a[1]).slice(0, 25).map(([fn, n]) => ({ fn, share: round(n / busyTotal, 3) })),
  },
};
writeFileSync(join(BENCH_DIR, 'results', 'cpu-split.json'), JSON.stringify(record, null, 2) + '\n');
log(JSON.stringify({ unprofiled: record.unprofiled, phases }, null, 2));
