/**
 * A workspace's HNSW graph on disk (usearch): `<dir>/<workspace>.<seq>.usearch`, announced by
 * `<workspace>.<seq>.json` written after it, where `seq` is the tenant's change sequence number the
 * graph reflects. Readers trust only announced graphs, so a graph being written is never read.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Index } from 'usearch';

// The CommonJS build: usearch's ES module build never finishes loading in a worker thread.
const usearch = createRequire(import.meta.url)('usearch') as typeof import('usearch');

export interface GraphMeta {
  seq: number;
  /** The embedder whose vectors the graph holds: another one's (after a switch or rebuild) never answer. */
  embedderId: string;
  dimension: number;
  count: number;
}

/**
 * f16 halves the memory of f32 at no measurable recall cost on 384-d embeddings; connectivity 16
 * and expansion 128 while adding, 128 while searching (the search asks for at least twice the
 * requested hits anyway).
 */
export const createGraph = (dimension: number) =>
  new usearch.Index({ dimensions: dimension, metric: usearch.MetricKind.Cos, quantization: usearch.ScalarKind.F16, connectivity: 16, expansion_add: 128, expansion_search: 128, multi: false });

const fileStem = (workspaceId: string) => encodeURIComponent(workspaceId).replaceAll('.', '%2E');

/** Writes the graph under a temporary name, moves it in place, then announces it and drops older ones. */
export function saveGraph(graph: Index, dir: string, workspaceId: string, meta: GraphMeta) {
  mkdirSync(dir, { recursive: true });
  const stem = `${fileStem(workspaceId)}.${meta.seq}`;
  const temp = join(dir, `${stem}.${process.pid}.${Date.now()}.tmp`);
  graph.save(temp);
  renameSync(temp, join(dir, `${stem}.usearch`));
  writeFileSync(join(dir, `${stem}.json.tmp`), JSON.stringify(meta));
  renameSync(join(dir, `${stem}.json.tmp`), join(dir, `${stem}.json`));
  for (const older of listGraphs(dir, workspaceId)) {
    if (older.seq >= meta.seq) continue;
    // Another process may still map the older file: unlinking leaves its mapping intact.
    rmSync(join(dir, `${fileStem(workspaceId)}.${older.seq}.json`), { force: true });
    rmSync(join(dir, `${fileStem(workspaceId)}.${older.seq}.usearch`), { force: true });
  }
}

/** Deletes every file of the workspace's graphs (announced, older and half-written ones). */
export function removeGraphs(dir: string, workspaceId: string): number {
  if (!existsSync(dir)) return 0;
  const prefix = `${fileStem(workspaceId)}.`;
  let removed = 0;
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(prefix)) continue;
    rmSync(join(dir, name), { force: true });
    removed++;
  }
  return removed;
}

function listGraphs(dir: string, workspaceId: string): { seq: number }[] {
  if (!existsSync(dir)) return [];
  const prefix = `${fileStem(workspaceId)}.`;
  return readdirSync(dir)
    .filter((name) => name.startsWith(prefix) && name.endsWith('.json'))
    .map((name) => ({ seq: Number(name.slice(prefix.length, -'.json'.length)) }))
    .filter((g) => Number.isInteger(g.seq));
}

/** The newest announced graph's sequence number, or null. */
export function latestGraph(dir: string, workspaceId: string): number | null {
  const seqs = listGraphs(dir, workspaceId).map((g) => g.seq);
  return seqs.length > 0 ? Math.max(...seqs) : null;
}

/**
 * Maps the announced graph into memory (read-only, pages shared by every process on the file);
 * null when it is missing, unreadable or of another embedder.
 */
export function openGraph(dir: string, workspaceId: string, seq: number, embedder: { embedderId: string; dimension: number }): { graph: Index; meta: GraphMeta } | null {
  try {
    const stem = join(dir, `${fileStem(workspaceId)}.${seq}`);
    const meta = JSON.parse(readFileSync(`${stem}.json`, 'utf8')) as GraphMeta;
    if (meta.seq !== seq || meta.dimension !== embedder.dimension || meta.embedderId !== embedder.embedderId) return null;
    const graph = createGraph(meta.dimension);
    graph.view(`${stem}.usearch`);
    if (graph.size() !== meta.count) return null;
    return { graph, meta };
  } catch {
    return null;
  }
}
