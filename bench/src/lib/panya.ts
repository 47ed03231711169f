/**
 * Builds Panya SQLite databases from the synthetic corpus through the real write path
 * (`documents.bulk` + `ingest.drain()`: chunker, core tokenizer, FTS5, trigram and vec0 writes),
 * with an embedder that looks the synthetic vectors up, so the stored data is exactly what
 * ingest writes. Built databases are cached under the OS temp dir, keyed by the corpus and by a
 * fingerprint of what Panya writes (see sourceHash).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine, embeddingText, type Embedder, type Engine, type RequestContext } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import type { CorpusQuery, SearchCorpus } from './corpus.js';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const BENCH_DIR = join(REPO, 'bench');
export const CACHE_ROOT = process.env.PANYA_BENCH_CACHE ?? join(tmpdir(), 'panya-bench-cache');

const key = (text: string) => createHash('sha1').update(text).digest('base64');

/**
 * The Embedder port, answering with precomputed synthetic vectors: vector work is identical
 * for Panya and the references, and embedding costs nothing.
 */
export class LookupEmbedder implements Embedder {
  readonly specificationVersion = 'v1';
  readonly id = 'bench-synthetic-384';
  readonly dimension: number;
  readonly maxBatch = 256;
  private readonly docs = new Map<string, number>();
  private readonly queryVectors = new Map<string, Float32Array>();
  misses = 0;

  constructor(private readonly corpus: SearchCorpus, indices: Iterable<number> = [], queries: CorpusQuery[] = []) {
    this.dimension = corpus.dim;
    for (const i of indices) {
      const c = corpus.chunk(i);
      this.docs.set(key(embeddingText(c.title, [], c.text)), i);
    }
    for (const q of queries) this.queryVectors.set(q.text, q.vector);
  }

  addQueries(queries: CorpusQuery[]) {
    for (const q of queries) this.queryVectors.set(q.text, q.vector);
  }

  async embedDocuments(texts: readonly string[]) {
    return {
      embeddings: texts.map((t) => {
        const i = this.docs.get(key(t));
        if (i === undefined) {
          this.misses++;
          return new Float32Array(this.dimension);
        }
        return this.corpus.vector(i);
      }),
    };
  }

  async embedQuery(text: string) {
    const v = this.queryVectors.get(text);
    if (!v) throw new Error(`LookupEmbedder: unknown query "${text}"`);
    return v;
  }
}

/**
 * Key of the cached databases: the fingerprint of what Panya writes for a sample of the corpus
 * (schema and content of the search tables, see fingerprint.ts) and the corpus generator, so a
 * change to what is written rebuilds them and any other change (search, ranking, benchmarks)
 * keeps them. Computed once by the parent process and handed to children.
 */
export function sourceHash(): string {
  if (process.env.PANYA_BENCH_SRC_HASH) return process.env.PANYA_BENCH_SRC_HASH;
  const written = execFileSync(process.execPath, ['--conditions=@panya/source', '--import', 'tsx', join(BENCH_DIR, 'src', 'fingerprint.ts')], { cwd: BENCH_DIR, encoding: 'utf8' }).trim();
  const h = createHash('sha1').update(written).update(readFileSync(join(REPO, 'bench/src/lib/corpus.ts')));
  return (process.env.PANYA_BENCH_SRC_HASH = h.digest('hex').slice(0, 12));
}

export const WORKSPACE_SLUGS = Array.from({ length: 10 }, (_, w) => (w === 0 ? 'default' : `w${w}`));

export interface BuiltDb {
  path: string;
  /** Panya document id of corpus chunk i (each synthetic chunk is one single-chunk document). */
  docIds: string[];
  workspaces: number;
  buildSeconds: number | null;
}

export async function workspaceContexts(engine: Engine, count: number): Promise<RequestContext[]> {
  const out: RequestContext[] = [];
  for (let w = 0; w < count; w++) {
    const ctx = await engine.access.system('bench', WORKSPACE_SLUGS[w]);
    if (ctx.isErr()) throw new Error(ctx.error.message);
    out.push(ctx.value);
  }
  return out;
}

/** Returns the cached database for (corpus, workspaces), building it if needed. */
export async function panyaDb(corpus: SearchCorpus, workspaces: 1 | 10, log: (m: string) => void = () => {}): Promise<BuiltDb> {
  const dir = join(CACHE_ROOT, `${corpus.seed}-${corpus.n}-${workspaces}ws-${sourceHash()}`);
  mkdirSync(CACHE_ROOT, { recursive: true });
  const path = join(dir, 'panya.db');
  const meta = join(dir, 'meta.json');
  if (existsSync(meta) && existsSync(path) && !process.env.PANYA_BENCH_FRESH) {
    return { ...JSON.parse(readFileSync(meta, 'utf8')), path, buildSeconds: null };
  }
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const started = performance.now();
  const all = Array.from({ length: corpus.n }, (_, i) => i);
  const embedder = new LookupEmbedder(corpus, all);
  const engine = createEngine({ store: openSqliteStore({ path: join(tmp, 'panya.db') }), embedder, ingest: { batchSize: 128 } });
  const created = await engine.tenancy.createTenant({ slug: 'bench', plan: 'enterprise' });
  if (created.isErr()) throw new Error(created.error.message);
  const admin = await engine.access.system('bench');
  if (admin.isErr()) throw new Error(admin.error.message);
  for (let w = 1; w < workspaces; w++) {
    const made = await engine.workspaces.create(admin.value, { slug: WORKSPACE_SLUGS[w]!, name: `Brand ${w}` });
    if (made.isErr()) throw new Error(made.error.message);
  }
  const ctxs = await workspaceContexts(engine, workspaces);
  const docIds: string[] = new Array(corpus.n);
  for (let w = 0; w < workspaces; w++) {
    const mine = all.filter((i) => workspaces === 1 || corpus.wsOf(i) === w);
    for (let at = 0; at < mine.length; at += 1000) {
      const batch = mine.slice(at, at + 1000);
      const res = await engine.documents.bulk(ctxs[w]!, { create: batch.map((i) => { const c = corpus.chunk(i); return { title: c.title, contentMd: c.text }; }) });
      if (res.isErr()) throw new Error(res.error.message);
      res.value.forEach((r, k) => (docIds[batch[k]!] = r.id));
    }
  }
  log(`  building ${corpus.n} chunks × ${workspaces} workspace(s): documents written, ingesting…`);
  await engine.ingest.drain();
  if (embedder.misses > 0) throw new Error(`${embedder.misses} chunks did not map to a synthetic vector (chunker changed the text?)`);
  let total = 0;
  for (const ctx of ctxs) total += await engine.search.countChunks(ctx.scope);
  if (total !== corpus.n) throw new Error(`expected ${corpus.n} chunks, found ${total}`);
  await engine.close();
  const buildSeconds = (performance.now() - started) / 1000;
  writeFileSync(join(tmp, 'meta.json'), JSON.stringify({ docIds, workspaces }));
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  log(`  built in ${buildSeconds.toFixed(1)} s`);
  return { path, docIds, workspaces, buildSeconds };
}

/** A private copy of a cached database (for benchmarks that write, e.g. API keys). */
export function copyDb(src: string, dest: string): string {
  mkdirSync(dirname(dest), { recursive: true });
  copyFileSync(src, dest);
  return dest;
}
