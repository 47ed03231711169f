/**
 * The vector index builder process: reads one workspace's vectors on its own connection (one read
 * transaction, so the graph reflects exactly the change sequence number read with them), builds
 * the HNSW graph with every core, and saves it beside the database. A process rather than a
 * thread: a build allocates several times the graph's size, and only an exiting process hands all
 * of it back to the system (a thread's freed allocations stay in the server's resident memory).
 * Failures come back as data; the process ends when its parent goes.
 */
import { availableParallelism } from 'node:os';
import { runAsBackgroundProcess } from '@panya/core';
import { openDatabase } from './database.js';
import { createGraph, saveGraph } from './vector-graph.js';

export interface BuilderData {
  path: string;
  busyTimeoutMs: number;
}

export type BuildRequest = { id: number; tenantId: string; workspaceId: string; dir: string };
export type BuildReply = { id: number; ok: true; seq: number; count: number; ms: number } | { id: number; ok: false; message: string };

/** The argument that carries BuilderData to the process. */
export const BUILDER_ARG = '--panya-vector-builder=';

const arg = process.argv.find((a) => a.startsWith(BUILDER_ARG));
if (arg && process.send) serve(JSON.parse(arg.slice(BUILDER_ARG.length)) as BuilderData);

function serve({ path, busyTimeoutMs }: BuilderData) {
  // A graph build takes every core for seconds: it uses what serving leaves (its build threads inherit this).
  runAsBackgroundProcess();
  const db = openDatabase({ path, busyTimeoutMs });

  const snapshot = db.transaction((tenantId: string, workspaceId: string) => {
    const info = db.prepare('SELECT embedder_id, dimension FROM index_info WHERE id = 1').get() as { embedder_id: string; dimension: number } | undefined;
    const version = db.prepare('SELECT seq FROM search_versions WHERE tenant_id = ?').get(tenantId) as { seq: number } | undefined;
    if (!info) return null;
    const rows = db
      .prepare('SELECT v.rowid AS rowid, v.embedding AS embedding FROM chunk_vectors v WHERE v.part = ?')
      .raw()
      .all(`w:${workspaceId}`) as [number, Buffer][];
    return { embedderId: info.embedder_id, dimension: info.dimension, seq: version?.seq ?? 0, rows };
  });

  process.on('disconnect', () => process.exit(0));
  process.on('message', ({ id, tenantId, workspaceId, dir }: BuildRequest) => {
    let reply: BuildReply;
    try {
      const started = Date.now();
      const data = snapshot.deferred(tenantId, workspaceId);
      if (!data) throw new Error('The index has no embedder yet.');
      const { embedderId, dimension, seq, rows } = data;
      const keys = new BigUint64Array(rows.length);
      const vectors = new Float32Array(rows.length * dimension);
      rows.forEach(([rowid, blob], i) => {
        keys[i] = BigInt(rowid);
        // Copied byte-wise: a blob's offset in its buffer need not be aligned for a Float32Array view.
        new Uint8Array(vectors.buffer, i * dimension * 4, dimension * 4).set(blob.subarray(0, dimension * 4));
      });
      rows.length = 0;
      const graph = createGraph(dimension);
      if (keys.length > 0) graph.add(keys, vectors, availableParallelism());
      saveGraph(graph, dir, workspaceId, { seq, embedderId, dimension, count: keys.length });
      reply = { id, ok: true, seq, count: keys.length, ms: Date.now() - started };
    } catch (error) {
      reply = { id, ok: false, message: error instanceof Error ? error.message : String(error) };
    }
    process.send!(reply);
  });
}
