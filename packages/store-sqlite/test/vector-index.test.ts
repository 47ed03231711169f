import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChunkInput, Scope } from '@panya/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openSqliteStore, type SqliteStore } from '../src/index.js';
import { SERVING_CACHE_KIB } from '../src/database.js';
import { BUILDER_ARG } from '../src/vector-index-builder.js';
import { VectorIndexes } from '../src/vector-index.js';

/** Approximate vector search on a persisted HNSW graph, with exact vec0 as the reference and the fallback. */
const DIM = 64;
const DOCS = 300;
const PER_DOC = 10; // 3,000 chunks in the workspace under test
const THRESHOLD = 1_000;

/** Seeded generator (mulberry32) and clustered unit vectors, as embeddings are. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = random(14);
const gauss = () => Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand());
const unit = (v: Float32Array) => {
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
};
const centroids = Array.from({ length: 30 }, () => unit(Float32Array.from({ length: DIM }, gauss)));
const near = (c: Float32Array, noise: number) => unit(c.map((x) => x + noise * gauss()));

/** Child processes of this one running the graph builder (Linux: read from /proc). */
function builderProcesses(): number[] {
  const found: number[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(BUILDER_ARG)) found.push(Number(pid));
    } catch {
      // The process ended while being read.
    }
  }
  return found;
}
const pause = () => new Promise((r) => setTimeout(r, 5));

const chunk = (documentId: string, ordinal: number, vector: Float32Array): ChunkInput => ({
  id: `${documentId}_${ordinal}`,
  documentId,
  ordinal,
  title: documentId,
  headingPath: [],
  text: `text of ${documentId} ${ordinal}`,
  lexicalTitle: documentId,
  lexicalBody: 'text',
  vector,
});

describe('approximate vector search (HNSW graph beside the database)', () => {
  let dir: string;
  let path: string;
  let store: SqliteStore; // hnsw, threshold lowered
  let exact: SqliteStore; // the same file, exact only: the reference (and a second process's view)
  let scope: Scope;
  let other: Scope;
  const queries = Array.from({ length: 60 }, (_, i) => near(centroids[i % centroids.length]!, 0.35));
  const ids = (hits: { chunkId: string }[]) => hits.map((h) => h.chunkId);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'panya-vectors-'));
    path = join(dir, 'panya.db');
    store = openSqliteStore({ path, vectorIndex: { mode: 'hnsw', threshold: THRESHOLD } });
    exact = openSqliteStore({ path, vectorIndex: { mode: 'exact' } });
    const { createEngine } = await import('@panya/core');
    const created = (await createEngine({ store }).tenancy.createTenant({ slug: 'acme', plan: 'business' }))._unsafeUnwrap();
    scope = { tenantId: created.tenant.id, workspaceId: created.defaultWorkspace.id };
    other = { tenantId: created.tenant.id, workspaceId: 'ws_other' };
    await store.search.setIndexInfo({ embedderId: 'test', dimension: DIM });
    for (let d = 0; d < DOCS; d++) {
      const c = centroids[d % centroids.length]!;
      await store.search.replaceDocumentChunks(scope, `doc_${d}`, Array.from({ length: PER_DOC }, (_, o) => chunk(`doc_${d}`, o, near(c, 0.5))));
    }
    // Another workspace of the same tenant holds vectors identical to the queries, in a graph of its own.
    for (let d = 0; d < 120; d++) {
      await store.search.replaceDocumentChunks(other, `other_${d}`, Array.from({ length: 10 }, (_, o) => chunk(`other_${d}`, o, queries[(d * 10 + o) % queries.length]!)));
    }
    // The first search answers exactly and schedules the build off this thread.
    await store.search.semantic(scope, queries[0]!, 10);
    await store.search.semantic(other, queries[0]!, 10);
    await store.search.vectorIndexesIdle();
  }, 180_000);

  afterAll(async () => {
    await store?.close();
    await exact?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('builds one graph per workspace past the threshold, beside the database', () => {
    const files = readdirSync(`${path}.vectors`);
    expect(files.filter((f) => f.endsWith('.usearch'))).toHaveLength(2);
    expect(files.filter((f) => f.endsWith('.json'))).toHaveLength(2);
  });

  it.runIf(existsSync('/proc/self/stat'))('builds in a child process that ends when the build is done, so its memory leaves this process', async () => {
    // Builders of earlier builds end once idle.
    while (builderProcesses().length > 0) await pause();
    let done = false;
    const build = store.search.buildVectorIndex(scope).finally(() => (done = true));
    let seen: number[] = [];
    while (!done && seen.length === 0) {
      seen = builderProcesses();
      await pause();
    }
    expect(await build).toMatchObject({ ok: true, count: DOCS * PER_DOC });
    expect(seen).toHaveLength(1);
    while (builderProcesses().length > 0) await pause();
    // The serving connection keeps a small page cache: hot search data lives outside SQLite's.
    expect(store.db.pragma('cache_size', { simple: true })).toBe(-SERVING_CACHE_KIB);
  }, 60_000);

  it('answers from the graph with Recall@10 ≥ 0.95 against exact search, and never with another workspace’s chunks', async () => {
    const spy = vi.spyOn(VectorIndexes.prototype, 'candidates');
    let found = 0;
    for (const q of queries) {
      const approximate = ids(await store.search.semantic(scope, q, 10));
      const reference = new Set(ids(await exact.search.semantic(scope, q, 10)));
      expect(approximate.every((id) => id.startsWith('doc_'))).toBe(true);
      found += approximate.filter((id) => reference.has(id)).length;
    }
    expect(spy.mock.results.every((r) => Array.isArray(r.value))).toBe(true);
    spy.mockRestore();
    expect(found / (queries.length * 10)).toBeGreaterThanOrEqual(0.95);
  });

  it('sees writes of another connection at once: a new chunk is found and removed chunks never come back', async () => {
    const q = queries[7]!;
    const before = ids(await store.search.semantic(scope, q, 10));
    const removedDoc = before[0]!.replace(/_\d+$/, '');
    // Written through the other store (another process's connection): removal, then a new nearest chunk.
    await exact.search.removeDocumentChunks(scope, removedDoc);
    await exact.search.replaceDocumentChunks(scope, 'doc_new', [chunk('doc_new', 0, q)]);
    const after = ids(await store.search.semantic(scope, q, 10));
    expect(after[0]).toBe('doc_new_0');
    expect(after.some((id) => id.startsWith(`${removedDoc}_`))).toBe(false);
    expect(after).toHaveLength(10);
    // After a rebuild the graph holds the new chunk itself, and still not the removed ones.
    const built = await store.search.buildVectorIndex(scope);
    expect(built).toMatchObject({ ok: true });
    await new Promise((r) => setTimeout(r, 1_100)); // the store looks for newer graphs once a second
    const rebuilt = ids(await store.search.semantic(scope, q, 10));
    expect(rebuilt[0]).toBe('doc_new_0');
    expect(rebuilt.some((id) => id.startsWith(`${removedDoc}_`))).toBe(false);
  }, 60_000);

  it('a store opened later on the same file (HNSW is the default) uses the saved graph instead of building again', async () => {
    const late = openSqliteStore({ path, vectorIndex: { threshold: THRESHOLD } });
    try {
      const spy = vi.spyOn(VectorIndexes.prototype, 'candidates');
      const q = queries[3]!;
      expect(ids(await late.search.semantic(scope, q, 10))).toEqual(ids(await store.search.semantic(scope, q, 10)));
      expect(Array.isArray(spy.mock.results[0]!.value)).toBe(true);
      spy.mockRestore();
    } finally {
      await late.close();
    }
  });

  it('never answers from a graph of another embedder', async () => {
    const late = openSqliteStore({ path, vectorIndex: { threshold: THRESHOLD } });
    try {
      expect(await late.search.semantic(other, queries[0]!, 10)).toHaveLength(10);
      // The other workspace's vectors are written anew by another embedder of the same dimension.
      await exact.search.setIndexInfo({ embedderId: 'other-embedder', dimension: DIM });
      const fresh = near(centroids[0]!, 0.01);
      await exact.search.replaceDocumentChunks(other, 'other_fresh', [chunk('other_fresh', 0, fresh)]);
      await new Promise((r) => setTimeout(r, 1_100));
      expect(ids(await late.search.semantic(other, queries[0]!, 10))).toEqual(['other_fresh_0']);
    } finally {
      await late.close();
    }
  });

  it('falls back to exact search when the graph file is corrupt or missing', async () => {
    const graphs = () => readdirSync(`${path}.vectors`).filter((f) => f.endsWith('.usearch'));
    for (const f of graphs()) writeFileSync(join(`${path}.vectors`, f), Buffer.alloc(4096, 7));
    const corrupt = openSqliteStore({ path, vectorIndex: { mode: 'hnsw', threshold: 1_000_000 } });
    try {
      for (const q of queries.slice(0, 5)) expect(ids(await corrupt.search.semantic(scope, q, 10))).toEqual(ids(await exact.search.semantic(scope, q, 10)));
      rmSync(`${path}.vectors`, { recursive: true, force: true });
      for (const q of queries.slice(5, 10)) expect(ids(await corrupt.search.semantic(scope, q, 10))).toEqual(ids(await exact.search.semantic(scope, q, 10)));
      // Under the threshold no graph is built.
      await corrupt.search.vectorIndexesIdle();
      expect(existsSync(`${path}.vectors`)).toBe(false);
    } finally {
      await corrupt.close();
    }
  });

  it('an in-memory store searches exactly', async () => {
    const memory = openSqliteStore({ path: ':memory:', vectorIndex: { mode: 'hnsw', threshold: 1 } });
    try {
      expect(await memory.search.buildVectorIndex(scope)).toBeNull();
    } finally {
      await memory.close();
    }
  });
});
