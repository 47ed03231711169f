/**
 * Child entry: prints the fingerprint of what Panya writes for the benchmarks' corpus — a small
 * sample written through the same path as the cached databases (documents.bulk + ingest), then the
 * schema of the tables it fills and their content (without random ids and times). A cached database
 * is reused exactly as long as this is unchanged, whatever else changes in the sources.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { SearchCorpus } from './lib/corpus.js';
import { LookupEmbedder } from './lib/panya.js';

const SAMPLE = 200;
/** The tables the benchmarks' data lives in (others belong to unrelated features). */
const TABLES = ['documents', 'chunks', 'chunk_vectors', 'chunks_trigram', 'index_info', 'search_versions', 'search_changes'];

const dir = mkdtempSync(join(tmpdir(), 'panya-bench-fingerprint-'));
try {
  const corpus = new SearchCorpus(SAMPLE);
  const store = openSqliteStore({ path: join(dir, 'panya.db') });
  const engine = createEngine({ store, embedder: new LookupEmbedder(corpus, Array.from({ length: SAMPLE }, (_, i) => i)), ingest: { batchSize: 128 } });
  const tenant = (await engine.tenancy.createTenant({ slug: 'bench', plan: 'enterprise' }))._unsafeUnwrap();
  const ctx = (await engine.access.system('bench'))._unsafeUnwrap();
  void tenant;
  const made = await engine.documents.bulk(ctx, { create: Array.from({ length: SAMPLE }, (_, i) => ({ title: corpus.chunk(i).title, contentMd: corpus.chunk(i).text })) });
  if (made.isErr()) throw new Error(made.error.message);
  await engine.ingest.drain();
  const db = store.db;
  const h = createHash('sha1');
  const like = TABLES.map((t) => `name = '${t}' OR name LIKE '${t}\\_%' ESCAPE '\\'`).join(' OR ');
  for (const r of db.prepare(`SELECT type, name, sql FROM sqlite_schema WHERE ${like} ORDER BY name`).all()) h.update(JSON.stringify(r));
  for (const r of db.prepare('SELECT title, content_md, status FROM documents ORDER BY rowid').raw().all()) h.update(JSON.stringify(r));
  for (const r of db.prepare('SELECT rowid, ordinal, title, heading_path, text FROM chunks ORDER BY rowid').raw().all()) h.update(JSON.stringify(r));
  for (const [rowid, v] of db.prepare('SELECT rowid, embedding FROM chunk_vectors ORDER BY rowid').raw().all() as [number, Buffer][]) h.update(String(rowid)).update(v);
  const trigram = db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'chunks_trigram_data'").get();
  if (trigram) for (const [block] of db.prepare('SELECT block FROM chunks_trigram_data ORDER BY id').raw().all() as [Buffer][]) h.update(block ?? '');
  await engine.close();
  process.stdout.write(h.digest('hex').slice(0, 12));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
