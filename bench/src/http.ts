/**
 * HTTP throughput of the real Express app with autocannon on 127.0.0.1 (server in its own
 * process, load generator in this one: one core each): `POST /api/search` (top-10, 10k chunks,
 * auth included) and `GET /healthz` as the framework floor, at several connection counts,
 * interleaved run by run. `/api/answer` and `/api/chat` are measured when the app serves them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { NODE_FLAGS, emit, log } from './lib/child.js';
import { SearchCorpus } from './lib/corpus.js';
import { HTTP_QUERIES, HTTP_QUERY_SALT } from './lib/http-shared.js';
import { BENCH_DIR } from './lib/panya.js';
import { median, quantile, round } from './lib/stats.js';

const n = 10_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const DURATION = Number(process.env.BENCH_HTTP_SECONDS ?? 6);
const CONNECTIONS = [10, 50];

const queries = new SearchCorpus(n).queries(HTTP_QUERIES, null, HTTP_QUERY_SALT);

function startServer(): Promise<{ child: ChildProcess; port: number; key: string }> {
  const child = spawn(process.execPath, [...NODE_FLAGS, join(BENCH_DIR, 'src/http-server.ts'), String(n)], { cwd: BENCH_DIR, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => {
      const { port, key } = JSON.parse(line);
      resolve({ child, port, key });
    });
  });
}

const { child, port, key } = await startServer();
const base = `http://127.0.0.1:${port}`;
const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

interface Target {
  name: string;
  opts: Partial<autocannon.Options>;
}
const searchRequests = queries.map((q) => ({ method: 'POST' as const, path: '/api/search', headers: auth, body: JSON.stringify({ query: q.text, topK: 10 }) }));
const targets: Target[] = [
  { name: 'GET /healthz', opts: { url: `${base}/healthz` } },
  { name: 'POST /api/search', opts: { url: base, requests: searchRequests } },
];

// Answer and chat: measured only when the app serves them (a 404 means "not built yet").
const probe = async (path: string, body: unknown) => {
  const res = await fetch(base + path, { method: 'POST', headers: auth, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type'), text: text.slice(0, 300) };
};
const pending: Record<string, string> = {};
const bodies = (q: string) => [{ query: q }, { question: q }, { message: q }, { messages: [{ role: 'user', content: q }] }];
let answerBody: unknown = null;
for (const b of bodies(queries[0]!.text)) {
  const r = await probe('/api/answer', b);
  if (r.status === 404) break;
  if (r.status < 300) {
    answerBody = b;
    break;
  }
}
if (answerBody) {
  const shape = Object.keys(answerBody as object)[0]!;
  targets.push({ name: 'POST /api/answer', opts: { url: base, requests: queries.map((q) => ({ method: 'POST' as const, path: '/api/answer', headers: auth, body: JSON.stringify(shape === 'messages' ? { messages: [{ role: 'user', content: q.text }] } : { [shape]: q.text }) })) } });
} else pending['POST /api/answer'] = 'not served by the app at run time (404 or no accepted body shape)';

async function chatTimeToFirstEvent(): Promise<Record<string, unknown>> {
  let body: ((q: string) => unknown) | null = null;
  for (const make of [(q: string) => ({ message: q }), (q: string) => ({ query: q }), (q: string) => ({ messages: [{ role: 'user', content: q }] })]) {
    const res = await fetch(`${base}/api/chat`, { method: 'POST', headers: { ...auth, accept: 'text/event-stream' }, body: JSON.stringify(make(queries[0]!.text)) });
    await res.body?.cancel();
    if (res.status === 404) return { pending: 'not served by the app at run time (404)' };
    if (res.status < 300) {
      body = make;
      break;
    }
  }
  if (!body) return { pending: 'route exists but no accepted body shape was found' };
  const runs: number[][] = [];
  for (let r = 0; r < RUNS; r++) {
    const times: number[] = [];
    for (const q of queries.slice(0, 50)) {
      const t0 = performance.now();
      const res = await fetch(`${base}/api/chat`, { method: 'POST', headers: { ...auth, accept: 'text/event-stream' }, body: JSON.stringify(body(q.text)) });
      const reader = res.body!.getReader();
      const dec = new TextDecoder();
      let seen = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        seen += dec.decode(value, { stream: true });
        if (seen.includes('\n\n')) break;
      }
      times.push(performance.now() - t0);
      await reader.cancel();
    }
    runs.push(times);
  }
  const all = runs.flat().sort((a, b) => a - b);
  return { ttfeP50Ms: round(median(runs.map((r) => median(r)))), ttfeP99Ms: round(quantile(all, 0.99)), requests: all.length };
}

const run = (opts: Partial<autocannon.Options>, connections: number, duration: number) =>
  new Promise<autocannon.Result>((resolve, reject) => {
    autocannon({ ...opts, connections, duration, pipelining: 1 } as autocannon.Options, (error, result) => (error ? reject(error) : resolve(result)));
  });

// Warm-up (JIT, SQLite page cache), then interleaved measured runs.
for (const t of targets) await run(t.opts, 10, 2);
const raw: Record<string, autocannon.Result[]> = {};
for (let r = 0; r < RUNS; r++) {
  for (const t of targets) {
    for (const c of CONNECTIONS) {
      const label = `${t.name} @${c}`;
      const res = await run(t.opts, c, DURATION);
      (raw[label] ??= []).push(res);
      log(`  ${label.padEnd(26)} run ${r + 1}: ${res.requests.average.toFixed(0).padStart(6)} req/s  p50 ${res.latency.p50} ms  p99 ${res.latency.p99} ms  non-2xx ${res.non2xx} errors ${res.errors}`);
    }
  }
}
const chat = await chatTimeToFirstEvent();
child.kill('SIGTERM');

const rows = Object.entries(raw).map(([label, rs]) => ({
  target: label,
  connections: Number(label.split('@')[1]),
  reqPerSec: round(median(rs.map((x) => x.requests.average)), 0),
  latencyP50Ms: median(rs.map((x) => x.latency.p50)),
  latencyP99Ms: median(rs.map((x) => x.latency.p99)),
  latencyMaxP99Ms: Math.max(...rs.map((x) => x.latency.p99)),
  runsReqPerSec: rs.map((x) => round(x.requests.average, 0)),
  non2xx: rs.reduce((s, x) => s + x.non2xx, 0),
  errors: rs.reduce((s, x) => s + x.errors + x.timeouts, 0),
}));
emit({ benchmark: 'http', chunks: n, runs: RUNS, secondsPerRun: DURATION, rows, chat, pending, targets: { searchReqPerSec: 1500, searchP99Ms: 20 } });
