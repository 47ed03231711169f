/**
 * Many tenants on one server. Builds, through the library's write path (`documents.bulk` +
 * `ingest.drain()`, default settings, no model), BENCH_TENANTS_SMALL tenants of 20 SciFact abstracts,
 * BENCH_TENANTS_MEDIUM of 1,000 and BENCH_TENANTS_LARGE of BENCH_TENANTS_LARGE_DOCS; reports the file
 * size against the raw text. Then `panya serve --workers 2` on it: the first search of cold
 * workspaces (medium ones: ~1,000 chunks) and the same again warm, one request at a time; then
 * autocannon with a Zipf-distributed choice of tenant (10 connections): req/s, p50/p99, the
 * server's RSS and its index cache figures from /metrics. Scaled down by default (the issue's
 * 10,000 × 20 + 100 × 1,000 + 3 × 20,000 takes hours to build on 2 cores): set the counts to run it.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine, type Engine } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { emit, log } from './lib/child.js';
import { runLoad } from './lib/load.js';
import { Rng, Zipf } from './lib/prng.js';
import { startServer } from './lib/serve.js';
import { quantile, round } from './lib/stats.js';

const DIR = fileURLToPath(new URL('../../../shared/eval/scifact', import.meta.url));
const SMALL = Number(process.env.BENCH_TENANTS_SMALL ?? 500);
const MEDIUM = Number(process.env.BENCH_TENANTS_MEDIUM ?? 5);
const LARGE = Number(process.env.BENCH_TENANTS_LARGE ?? 1);
const LARGE_DOCS = Number(process.env.BENCH_TENANTS_LARGE_DOCS ?? 5_000);
const HTTP_SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 10);
const WORKERS = Number(process.env.BENCH_TENANTS_WORKERS ?? 2);

const lines = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, string>);
const corpus = lines(join(DIR, 'corpus.jsonl')).map((d) => ({ title: String(d.title ?? '').trim() || 'Untitled', contentMd: String(d.text ?? '') }));
const queries = lines(join(DIR, 'queries.jsonl')).map((q) => String(q.text));

interface Tenant {
  slug: string;
  docs: number;
  key: string;
}

/** `count` tenants of `docs` abstracts each, taken round the corpus from a rolling offset. */
async function build(engine: Engine, prefix: string, count: number, docs: number, offset: { at: number }, tenants: Tenant[]) {
  let text = 0;
  for (let t = 0; t < count; t++) {
    const slug = `${prefix}${t}`;
    const { tenant } = (await engine.tenancy.createTenant({ slug, plan: 'enterprise' }))._unsafeUnwrap();
    const ctx = (await engine.access.system(slug))._unsafeUnwrap();
    for (let at = 0; at < docs; at += 500) {
      const batch = Array.from({ length: Math.min(500, docs - at) }, () => corpus[offset.at++ % corpus.length]!);
      for (const d of batch) text += Buffer.byteLength(d.title) + Buffer.byteLength(d.contentMd);
      (await engine.documents.bulk(ctx, { create: batch }))._unsafeUnwrap();
    }
    await engine.ingest.drain();
    const { key } = (await engine.apiKeys.create(tenant.id, { scopes: ['read'] }))._unsafeUnwrap();
    tenants.push({ slug, docs, key });
    if ((t + 1) % 100 === 0) log(`  built ${prefix} ${t + 1}/${count}`);
  }
  return text;
}

/** Resident memory of every process in a process group (the server's primary and workers), bytes. */
function groupRss(pgid: number): number {
  let pages = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid) pages += Number(fields[21]);
    } catch {
      // Gone meanwhile.
    }
  }
  return pages * 4096;
}

const metric = (text: string, name: string) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN);

const dir = mkdtempSync(join(tmpdir(), 'panya-bench-tenants-'));
const db = join(dir, 'panya.db');
try {
  const started = performance.now();
  const engine = createEngine({ store: openSqliteStore({ path: db }) });
  const tenants: Tenant[] = [];
  const offset = { at: 0 };
  let text = 0;
  text += await build(engine, 's', SMALL, 20, offset, tenants);
  text += await build(engine, 'm', MEDIUM, 1_000, offset, tenants);
  text += await build(engine, 'l', LARGE, LARGE_DOCS, offset, tenants);
  const counted = openSqliteStore({ path: db });
  const chunks = (counted.db.prepare('SELECT COUNT(*) AS n FROM chunks').get() as { n: number }).n;
  const tables = counted.db.prepare('SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC LIMIT 6').all() as { name: string; bytes: number }[];
  counted.db.pragma('wal_checkpoint(TRUNCATE)');
  await counted.close();
  await engine.close();
  const buildSeconds = (performance.now() - started) / 1000;
  const fileBytes = statSync(db).size;
  log(`built ${tenants.length} tenants, ${chunks} chunks in ${buildSeconds.toFixed(0)} s; file ${(fileBytes / 2 ** 20).toFixed(1)} MB, text ${(text / 2 ** 20).toFixed(1)} MB`);

  const server = await startServer(db, WORKERS);
  try {
    const rssStart = groupRss(server.child.pid!);
    const search = async (t: Tenant, query: string) => {
      const t0 = performance.now();
      const res = await fetch(`${server.url}/api/search`, { method: 'POST', headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ query, topK: 10 }) });
      if (res.status !== 200) throw new Error(`search answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
      return performance.now() - t0;
    };
    // Cold then warm, one request at a time: each tenant's first search loads its index.
    const medium = tenants.filter((t) => t.docs === 1_000);
    const small = tenants.filter((t) => t.docs === 20).slice(-50);
    const timed = async (list: Tenant[], q: number) => {
      const ms: number[] = [];
      for (const [i, t] of list.entries()) ms.push(await search(t, queries[(i + q) % queries.length]!));
      return ms.sort((a, b) => a - b);
    };
    const summary = (ms: number[]) => ({ p50: round(quantile(ms, 0.5), 2), p99: round(quantile(ms, 0.99), 2), max: round(ms.at(-1) ?? NaN, 2), samples: ms.length });
    // Each worker loads a workspace on its own first search: repeated passes reach both.
    const coldSmall = await timed(small, 0);
    const warmSmall = [...(await timed(small, 1)), ...(await timed(small, 2)), ...(await timed(small, 3))].sort((a, b) => a - b);
    const coldMedium = medium.length > 0 ? await timed(medium, 0) : [];
    const warmMedium = medium.length > 0 ? [...(await timed(medium, 1)), ...(await timed(medium, 2)), ...(await timed(medium, 3))].sort((a, b) => a - b) : [];

    // Zipf traffic over every tenant (rank 0 the most searched; ranks shuffled across sizes).
    const rng = new Rng('tenants-zipf');
    const order = tenants.map((t) => ({ t, r: rng.next() })).sort((a, b) => a.r - b.r).map((x) => x.t);
    const zipf = new Zipf(order.length, 1.0);
    const requests = Array.from({ length: 20_000 }, (_, i) => {
      const t = order[zipf.sample(rng)]!;
      return { method: 'POST' as const, path: '/api/search', headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ query: queries[i % queries.length], topK: 10 }) };
    });
    const load = await runLoad({ url: server.url, requests }, HTTP_SECONDS, server.child.pid);
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    const rssEnd = groupRss(server.child.pid!);
    emit({
      benchmark: 'tenants',
      scale: { small: SMALL, medium: MEDIUM, large: LARGE, largeDocs: LARGE_DOCS, workers: WORKERS, httpSeconds: HTTP_SECONDS },
      tenants: tenants.length,
      chunks,
      buildSeconds: round(buildSeconds, 1),
      fileBytes,
      rawTextBytes: text,
      fileOverText: round(fileBytes / text, 2),
      bytesPerChunk: round(fileBytes / chunks, 0),
      rawTextPerChunk: round(text / chunks, 0),
      largestTables: Object.fromEntries(tables.map((t) => [t.name, t.bytes])),
      firstSearchMs: { coldSmall: summary(coldSmall), warmSmall: summary(warmSmall), coldMedium: summary(coldMedium), warmMedium: summary(warmMedium) },
      zipf: { reqPerSec: round(load.reqPerSec, 0), latencyP50Ms: load.latencyP50Ms, latencyP99Ms: load.latencyP99Ms, requests: load.requests, non2xx: load.non2xx + load.errors, serverCpuMsPerRequest: load.serverCpuMs === null ? null : round(load.serverCpuMs / load.requests, 3) },
      serverRssBytes: { afterStart: rssStart, end: rssEnd },
      indexCache: {
        bytes: metric(metrics, 'panya_index_cache_bytes'),
        maxBytes: metric(metrics, 'panya_index_cache_max_bytes'),
        hits: metric(metrics, 'panya_index_cache_hits_total'),
        loads: metric(metrics, 'panya_index_cache_loads_total'),
        loadSeconds: round(metric(metrics, 'panya_index_cache_load_seconds_total'), 3),
      },
    });
  } finally {
    await server.kill();
  }
} finally {
  rmSync(dirname(db), { recursive: true, force: true });
}
