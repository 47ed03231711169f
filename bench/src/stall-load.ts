/**
 * The stall scenario against `panya serve --workers N` (N = 1, then 2) started as `pnpm panya`
 * starts it, each over a fresh copy of the SciFact database:
 *
 * 1. search req/s: autocannon, 10 connections, ordinary SciFact test queries (nothing else running);
 * 2. under load, from a separate process: 8 clients each upload 20 × 1 MB markdown files (tenant
 *    `bulk`), one sends 280-word queries, another tenant (`catalogue`) uploads an 8,000-page PDF and
 *    a third (`import`) imports 1 MB JSON batches of 200 documents back to back, while this process
 *    probes `/healthz` and an ordinary `/api/search` (tenant `bench`) one request at a time.
 *    The load process runs in a session of its own, like clients on other machines.
 *
 * Every request has a timeout, the load process a hard cap, and the server's whole process group
 * is killed at the end whatever happened.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { createEngine } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { emit, log, NODE_FLAGS } from './lib/child.js';
import { CACHE_ROOT } from './lib/panya.js';
import { markdownMegabyte } from './lib/uploads.js';
import { startServer } from './lib/serve.js';
import { longQueries, ordinaryQueries, scifactDb } from './query-cost.js';
import { quantile, round } from './lib/stats.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const EVAL_DIR = process.env.PANYA_EVAL_DIR ?? fileURLToPath(new URL('../../../shared/eval', import.meta.url));
const LOAD_SECONDS = Number(process.env.BENCH_STALL_SECONDS ?? 40);
const RPS_SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 8);
const UPLOADERS = 8;
const UPLOADS_PER_CLIENT = 20;
const FILES_PER_UPLOAD = 20;
const FILE_BYTES = 1024 * 1024;
const PDF_PAGES = 8_000;
/** The importer's batches: documents of ~4.7 KB, 200 a request (~1 MB of JSON, under the body limit). */
const IMPORT_BATCH = 200;
const IMPORT_DOC_CHARS = 4_700;
const REQUEST_TIMEOUT_MS = 30_000;
const PROBE_TIMEOUT_MS = 15_000;
const PROBE_EVERY_MS = 100;
/** Extra Node flags for the server processes (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to see where their time goes). */
const SERVER_NODE_FLAGS = (process.env.BENCH_STALL_SERVER_FLAGS ?? '').split(' ').filter(Boolean);

/** An 8,000-page PDF, one line of text a page, built once and cached. */
async function bigPdf(): Promise<Buffer> {
  const path = join(CACHE_ROOT, `stall-${PDF_PAGES}-pages.pdf`);
  if (existsSync(path)) return readFileSync(path);
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < PDF_PAGES; p++) pdf.addPage([300, 200]).drawText(`Page ${p + 1}: returns are accepted within thirty days of delivery.`, { x: 10, y: 100, size: 8, font });
  const bytes = Buffer.from(await pdf.save());
  writeFileSync(path, bytes);
  return bytes;
}

interface Timed {
  ms: number;
  status: number;
  /** Seconds, when the server said when to come back (503 under upload admission). */
  retryAfter?: number;
}

async function timed(url: string, init: RequestInit, timeoutMs: number, stop: AbortSignal, problems?: Set<string>): Promise<Timed> {
  const started = performance.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), stop]) });
    const text = await res.text();
    if (res.status >= 400 && problems) problems.add(`${res.status} ${(JSON.parse(text) as { detail?: string }).detail ?? ''}`);
    const retryAfter = Number(res.headers.get('retry-after') ?? NaN);
    return { ms: performance.now() - started, status: res.status, ...(Number.isFinite(retryAfter) ? { retryAfter } : {}) };
  } catch {
    // Timed out (or the run ended): counted at its elapsed time, status 0.
    return { ms: performance.now() - started, status: 0 };
  }
}

const pause = (ms: number, stop: AbortSignal) => new Promise<void>((ok) => {
  const t = setTimeout(ok, ms);
  stop.addEventListener('abort', () => (clearTimeout(t), ok()), { once: true });
});

const countBy = (keys: string[]) => keys.reduce<Record<string, number>>((counts, k) => ((counts[k] = (counts[k] ?? 0) + 1), counts), {});

function latency(samples: Timed[]) {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  return { samples: ms.length, failed: samples.filter((s) => s.status !== 200).length, p50: round(quantile(ms, 0.5), 1), p99: round(quantile(ms, 0.99), 1), max: round(ms.at(-1) ?? NaN, 1) };
}

async function searchRps(url: string, key: string, queries: string[]) {
  const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const cannon = (duration: number) =>
    new Promise<autocannon.Result>((resolve, reject) =>
      autocannon(
        { url, connections: 10, duration, timeout: 10, requests: queries.map((q) => ({ method: 'POST' as const, path: '/api/search', headers: auth, body: JSON.stringify({ query: q, topK: 10 }) })) },
        (error, result) => (error ? reject(error) : resolve(result)),
      ),
    );
  // Warm-up: each worker builds its in-memory index of the workspace on its first search, then JIT and page cache.
  await fetch(`${url}/api/search`, { method: 'POST', headers: auth, body: JSON.stringify({ query: queries[0] }), signal: AbortSignal.timeout(120_000) });
  await cannon(5);
  const result = await cannon(RPS_SECONDS);
  return { reqPerSec: round(result.requests.average, 1), requests: result.requests.total, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors, timeouts: result.timeouts };
}

async function configuration(workers: number, source: string) {
  const dir = mkdtempSync(join(tmpdir(), 'panya-stall-'));
  const db = join(dir, 'panya.db');
  copyFileSync(source, db);
  // Keys: `bench` (SciFact, read) for the probes, `bulk` (write) for the uploaders, `catalogue` (write) for the PDF.
  const engine = createEngine({ store: openSqliteStore({ path: db }) });
  const bench = (await engine.tenancy.getTenantBySlug('bench'))._unsafeUnwrap();
  const readKey = (await engine.apiKeys.create(bench.id, { scopes: ['read'] }))._unsafeUnwrap().key;
  const bulk = (await engine.tenancy.createTenant({ slug: 'bulk', plan: 'enterprise' }))._unsafeUnwrap();
  const writeKey = (await engine.apiKeys.create(bulk.tenant.id, { scopes: ['read', 'write'] }))._unsafeUnwrap().key;
  const catalogue = (await engine.tenancy.createTenant({ slug: 'catalogue', plan: 'enterprise' }))._unsafeUnwrap();
  const pdfKey = (await engine.apiKeys.create(catalogue.tenant.id, { scopes: ['read', 'write'] }))._unsafeUnwrap().key;
  const importer = (await engine.tenancy.createTenant({ slug: 'import', plan: 'enterprise' }))._unsafeUnwrap();
  const importKey = (await engine.apiKeys.create(importer.tenant.id, { scopes: ['read', 'write'] }))._unsafeUnwrap().key;
  await engine.close();

  const loadAverageAtStart = loadavg().map((x) => round(x, 2));
  // Every search runs (the cache of recent answers off): the probes and the pathological queries repeat.
  const server = await startServer(db, workers, SERVER_NODE_FLAGS, { PANYA_SEARCH_CACHE_MB: '0' });
  try {
    const ordinary = ordinaryQueries();
    log(`  workers ${workers}: search req/s (${RPS_SECONDS} s, 10 connections)…`);
    const rps = await searchRps(server.url, readKey, ordinary);
    log(`    ${rps.reqPerSec} req/s (${rps.requests} requests, ${rps.non2xx} non-2xx, ${rps.errors} errors)`);

    log(`  workers ${workers}: ${LOAD_SECONDS} s of load…`);
    // The load comes from its own process, so its CPU use never delays the probes' clocks here.
    const load = await startLoad(server.url, [readKey, writeKey, pdfKey, importKey]);
    const stopper = new AbortController();
    const timer = setTimeout(() => stopper.abort(), LOAD_SECONDS * 1000);
    const stop = stopper.signal;
    const health: Timed[] = [];
    const search: Timed[] = [];
    const prober = async (into: Timed[], make: (i: number) => [string, RequestInit]) => {
      for (let i = 0; !stop.aborted; i++) {
        const [path, init] = make(i);
        const t = await timed(`${server.url}${path}`, init, PROBE_TIMEOUT_MS, stop);
        if (!stop.aborted || t.status !== 0) into.push(t);
        await pause(PROBE_EVERY_MS, stop);
      }
    };
    const readAuth = { authorization: `Bearer ${readKey}`, 'content-type': 'application/json' };
    await Promise.all([
      prober(health, () => ['/healthz', {}]),
      prober(search, (i) => ['/api/search', { method: 'POST', headers: readAuth, body: JSON.stringify({ query: ordinary[i % ordinary.length] }) }]),
    ]);
    clearTimeout(timer);
    const loaded = await load.result;
    const result = {
      workers,
      loadAverageAtStart,
      searchRps: rps,
      underLoad: { seconds: LOAD_SECONDS, healthz: latency(health), search: latency(search), ...loaded },
    };
    log(`    /healthz p50 ${result.underLoad.healthz.p50} p99 ${result.underLoad.healthz.p99} ms; search p50 ${result.underLoad.search.p50} p99 ${result.underLoad.search.p99} ms; ${JSON.stringify(loaded.uploads)}; pdf ${JSON.stringify(loaded.pdf)}`);
    return result;
  } finally {
    const { exitedMs } = await server.kill();
    log(`    server stopped ${exitedMs === null ? 'by SIGKILL after 20 s' : `within ${exitedMs} ms of SIGTERM`}`);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Starts the load process; resolves once it has begun (its summary comes with `result`, or it is killed past its cap). */
function startLoad(url: string, keys: LoadKeys): Promise<{ result: Promise<LoadSummary> }> {
  const out = join(mkdtempSync(join(tmpdir(), 'panya-stall-load-')), 'result.json');
  // A session of its own (detached): Linux schedules each session as one group, so the load's CPU
  // use competes with the server's, not with this process's probes (clients on other machines).
  const child = spawn(process.execPath, [...NODE_FLAGS, fileURLToPath(import.meta.url), '--load', url, ...keys], { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, BENCH_RESULT: out } });
  const killNow = () => child.kill('SIGKILL');
  process.once('exit', killNow);
  const kill = setTimeout(killNow, LOAD_SECONDS * 1000 + 90_000);
  const result = new Promise<LoadSummary>((resolve, reject) =>
    child.once('exit', (code) => {
      clearTimeout(kill);
      process.off('exit', killNow);
      if (code === 0 && existsSync(out)) resolve(JSON.parse(readFileSync(out, 'utf8')) as LoadSummary);
      else reject(new Error(`load process exited with ${code}`));
    }),
  );
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', () => resolve({ result }));
    result.catch(reject);
  });
}

/** The load's API keys: read (tenant `bench`), then write keys of `bulk`, `catalogue` and `import`. */
type LoadKeys = [read: string, write: string, pdf: string, importer: string];

interface LoadSummary {
  longQuery: ReturnType<typeof latency>;
  imports: { requests: number; statuses: Record<string, number>; problems: string[]; documentsAcknowledged: number; p50: number };
  uploads: { requests: number; acknowledged: number; statuses: Record<string, number>; problems: string[]; megabytesAcknowledged: number; p50: number };
  pdf: { pages: number; bytes: number; status: number; ms: number; problem?: string } | null;
}

/** The load process: 8 uploaders, one client of 280-word queries, one 8,000-page PDF upload, one importer, for LOAD_SECONDS. */
async function runLoad(url: string, [readKey, writeKey, pdfKey, importKey]: LoadKeys): Promise<LoadSummary> {
  const pdf = await bigPdf();
  const body = markdownMegabyte(readFileSync(join(EVAL_DIR, 'scifact', 'corpus.jsonl'), 'utf8'));
  const long = longQueries(50);
  const stopper = new AbortController();
  const stop = stopper.signal;
  process.stdout.write('go\n');
  setTimeout(() => stopper.abort(), LOAD_SECONDS * 1000);
  const bulkAuth = { authorization: `Bearer ${writeKey}` };
  const readAuth = { authorization: `Bearer ${readKey}`, 'content-type': 'application/json' };
  const problems = new Set<string>();
  const uploads: Timed[] = [];
  const uploader = async (client: number) => {
    for (let u = 0; u < UPLOADS_PER_CLIENT && !stop.aborted; u++) {
      const form = new FormData();
      for (let f = 0; f < FILES_PER_UPLOAD; f++) form.append('file', new Blob([`# Upload ${client}-${u}-${f}\n\n`, body], { type: 'text/markdown' }), `c${client}-u${u}-f${f}.md`);
      const done = await timed(`${url}/api/docs/upload`, { method: 'POST', headers: bulkAuth, body: form }, REQUEST_TIMEOUT_MS, stop, problems);
      uploads.push(done);
      // Refused for now (503, too many uploads in flight): come back when told, as a client should.
      if (done.retryAfter !== undefined) await pause(done.retryAfter * 1000, stop);
    }
  };
  const longTimes: Timed[] = [];
  const longQuerier = async () => {
    for (let i = 0; !stop.aborted; i++) {
      longTimes.push(await timed(`${url}/api/search`, { method: 'POST', headers: readAuth, body: JSON.stringify({ query: long[i % long.length] }) }, REQUEST_TIMEOUT_MS, stop));
    }
  };
  let pdfResult: Timed | null = null;
  const pdfProblems = new Set<string>();
  const pdfUploader = async () => {
    const form = new FormData();
    form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'catalogue.pdf');
    // Another tenant's upload: the bulk tenant's queue must not hold it up.
    pdfResult = await timed(`${url}/api/docs/upload`, { method: 'POST', headers: { authorization: `Bearer ${pdfKey}` }, body: form }, 60_000, stop, pdfProblems);
  };
  const imports: Timed[] = [];
  const importProblems = new Set<string>();
  const importAuth = { authorization: `Bearer ${importKey}`, 'content-type': 'application/json' };
  const importer = async () => {
    for (let b = 0; !stop.aborted; b++) {
      const create = Array.from({ length: IMPORT_BATCH }, (_, d) => {
        const at = ((b * IMPORT_BATCH + d) * 7919) % (body.length - IMPORT_DOC_CHARS);
        return { title: `Import ${b}-${d}`, contentMd: body.slice(at, at + IMPORT_DOC_CHARS) };
      });
      const done = await timed(`${url}/api/docs/bulk`, { method: 'POST', headers: importAuth, body: JSON.stringify({ create }) }, REQUEST_TIMEOUT_MS, stop, importProblems);
      imports.push(done);
      if (done.retryAfter !== undefined) await pause(done.retryAfter * 1000, stop);
    }
  };
  await Promise.all([...Array.from({ length: UPLOADERS }, (_, c) => uploader(c)), longQuerier(), pdfUploader(), importer()]);
  const imported = imports.filter((i) => i.status >= 200 && i.status < 300).length;
  const acknowledged = uploads.filter((u) => u.status >= 200 && u.status < 300).length;
  const done = pdfResult as Timed | null;
  return {
    longQuery: latency(longTimes),
    imports: { requests: imports.length, statuses: countBy(imports.map((i) => String(i.status))), problems: [...importProblems], documentsAcknowledged: imported * IMPORT_BATCH, p50: round(quantile(imports.map((i) => i.ms).sort((a, b) => a - b), 0.5), 0) },
    uploads: { requests: uploads.length, acknowledged, statuses: countBy(uploads.map((u) => String(u.status))), problems: [...problems], megabytesAcknowledged: acknowledged * FILES_PER_UPLOAD, p50: round(quantile(uploads.map((u) => u.ms).sort((a, b) => a - b), 0.5), 0) },
    pdf: done ? { pages: PDF_PAGES, bytes: pdf.length, status: done.status, ms: round(done.ms, 0), ...(pdfProblems.size ? { problem: [...pdfProblems][0]! } : {}) } : null,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv[2] === '--load') {
    const [url, ...keys] = process.argv.slice(3);
    emit(await runLoad(url!, keys as LoadKeys));
    process.exit(0);
  }
  if (!existsSync(join(EVAL_DIR, 'scifact', 'corpus.jsonl'))) {
    log(`stall load: ${EVAL_DIR}/scifact not found, skipped`);
    emit({ skipped: true });
  } else {
    const source = await scifactDb();
    await bigPdf(); // built once, before anything is measured
    const configurations = [];
    for (const workers of (process.env.BENCH_STALL_WORKERS ?? '1,2').split(',').map(Number)) configurations.push(await configuration(workers, source));
    emit({ corpus: 'scifact', uploaders: UPLOADERS, uploadsPerClient: UPLOADS_PER_CLIENT, filesPerUpload: FILES_PER_UPLOAD, fileBytes: FILE_BYTES, pdfPages: PDF_PAGES, importBatch: IMPORT_BATCH, importDocumentChars: IMPORT_DOC_CHARS, probeEveryMs: PROBE_EVERY_MS, configurations });
    process.exit(0);
  }
}
