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
import { createEngine, LexicalRanker, searchTermsOf, type Engine, type LexicalSource } from '@panya/core';
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
const UPLOAD_SECONDS = Number(process.env.BENCH_TENANTS_UPLOAD_SECONDS ?? 20);

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

/**
 * A 1,000-chunk workspace's first lexical search in a process that has never searched it: from
 * its stored segments (one read), and — for comparison, what every first search did before
 * segments — built from its chunk rows. Each sample is a fresh store on the file (no cache).
 */
async function coldFirstSearch(slugs: string[]) {
  const segments: number[] = [];
  const rows: number[] = [];
  const segmentsCpu: number[] = [];
  const rowsCpu: number[] = [];
  for (const [i, slug] of slugs.entries()) {
    for (let round = 0; round < 5; round++) {
      const store = openSqliteStore({ path: db });
      const engine = createEngine({ store });
      const scope = (await engine.access.system(slug))._unsafeUnwrap().scope;
      const query = { ...searchTermsOf(queries[(i * 5 + round) % queries.length]!), fragments: [] };
      // CPU time of this process beside the wall clock: on a shared machine the wall clock mostly measures waiting for a core.
      const cpuMs = (since: NodeJS.CpuUsage) => {
        const used = process.cpuUsage(since);
        return (used.user + used.system) / 1000;
      };
      let t0 = performance.now();
      let c0 = process.cpuUsage();
      await store.search.lexical(scope, query, 10);
      segments.push(performance.now() - t0);
      segmentsCpu.push(cpuMs(c0));
      // The same store's rows without its segments: a ranker over load/changes only.
      const source = (store.search as unknown as { source: LexicalSource }).source;
      const fromRows = new LexicalRanker({ version: source.version, load: source.load, changes: source.changes });
      t0 = performance.now();
      c0 = process.cpuUsage();
      await fromRows.search(scope, query, 10);
      rows.push(performance.now() - t0);
      rowsCpu.push(cpuMs(c0));
      await store.close();
    }
  }
  const summary = (ms: number[]) => (ms.sort((a, b) => a - b), { p50: round(quantile(ms, 0.5), 2), p99: round(quantile(ms, 0.99), 2), max: round(ms.at(-1) ?? NaN, 2), samples: ms.length });
  return { fromSegments: summary(segments), fromRows: summary(rows), fromSegmentsCpu: summary(segmentsCpu), fromRowsCpu: summary(rowsCpu) };
}

/** One megabyte of markdown: headed sections of SciFact words (deterministic). */
function markdownMegabyte(): string {
  const words = corpus.map((d) => d.contentMd).join(' ').slice(0, 400_000).match(/[a-z]{4,}/g)!;
  const parts: string[] = [];
  let size = 0;
  for (let s = 0; size < 1 << 20; s++) {
    const section = `## Section ${s}\n\n${Array.from({ length: 120 }, (_, i) => words[(s * 131 + i * 17) % words.length]).join(' ')}.\n\n`;
    parts.push(section);
    size += section.length;
  }
  return parts.join('').slice(0, 1 << 20);
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
  const coldLexical = await coldFirstSearch(tenants.filter((t) => t.docs === 1_000).map((t) => t.slug));
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
    // Never stall: one tenant uploads 1 MB markdown files (two uploads in flight) while its own searches are timed.
    const uploader = tenants.find((t) => t.docs === 1_000) ?? tenants[0]!;
    const writeKey = await (async () => {
      const engine = createEngine({ store: openSqliteStore({ path: db }) });
      const tenant = (await engine.tenancy.getTenantBySlug(uploader.slug))._unsafeUnwrap();
      const { key } = (await engine.apiKeys.create(tenant.id, { scopes: ['read', 'write'] }))._unsafeUnwrap();
      await engine.close();
      return key;
    })();
    const body = markdownMegabyte();
    const stopAt = performance.now() + UPLOAD_SECONDS * 1000;
    let uploaded = 0;
    const upload = async (client: number) => {
      for (let u = 0; performance.now() < stopAt; u++) {
        const form = new FormData();
        form.append('file', new Blob([`# Upload ${client}-${u}\n\n`, body], { type: 'text/markdown' }), `c${client}-u${u}.md`);
        const res = await fetch(`${server.url}/api/docs/upload`, { method: 'POST', headers: { authorization: `Bearer ${writeKey}` }, body: form });
        await res.arrayBuffer();
        if (res.status < 300) uploaded++;
        else await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') ?? 1)));
      }
    };
    const ownSearches: number[] = [];
    const probe = async () => {
      for (let i = 0; performance.now() < stopAt; i++) {
        ownSearches.push(await search(uploader, queries[i % queries.length]!));
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    await Promise.all([upload(0), upload(1), probe()]);
    ownSearches.sort((a, b) => a - b);
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
      coldFirstLexicalSearchMs1000Chunks: coldLexical,
      neverStall: { uploadSeconds: UPLOAD_SECONDS, filesUploaded: uploaded, fileBytes: body.length, ownSearchMs: summary(ownSearches) },
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
