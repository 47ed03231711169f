import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BACKGROUND_PROCESS_SPAWN, type Scope } from '@panya/core';
import type { Index } from 'usearch';
import type { Statements } from './database.js';
import { latestGraph, openGraph, removeGraphs } from './vector-graph.js';
import { BUILDER_ARG, type BuildReply, type BuildRequest, type BuilderData } from './vector-index-builder.js';

export interface VectorIndexOptions {
  /** `hnsw` (default): approximate search on a persisted graph for workspaces of `threshold` chunks or more; `exact`: vec0 only. */
  mode?: 'exact' | 'hnsw';
  /** Chunks in a workspace from which it gets a graph; below, the exact scan is fast enough. */
  threshold?: number;
  /** Where graphs are kept; default `<database>.vectors`. */
  dir?: string;
}

export const DEFAULT_VECTOR_INDEX_THRESHOLD = 10_000;
/** Changes a graph may lag behind before exact search answers while it is rebuilt. */
const MAX_DELTA = 5_000;
/** Changes after which a graph is rebuilt while it keeps answering. */
const REBUILD_DELTA = 2_000;
/** How often a process looks for a newer graph written by another one. */
const RESCAN_MS = 1_000;
/** After a failed build, how long before the next try. */
const RETRY_MS = 60_000;

/** A workspace's graph in this process, and the chunks changed since it was built (scanned exactly). */
interface Loaded {
  graph: Index;
  seq: number;
  embedderId: string;
  dimension: number;
  /** Chunk rowid → current vector, for chunks inserted or changed after the graph. */
  delta: Map<number, Float32Array>;
  /** The change sequence number the delta reflects. */
  through: number;
  /** Chunks removed since the graph: their entries are filtered out by the caller until a rebuild. */
  removed: number;
  checkedAt: number;
}

export type Candidate = { rowid: number; distance: number };
type Embedder = { embedderId: string; dimension: number };

const toVector = (blob: Buffer, dimension: number) => {
  const v = new Float32Array(dimension);
  new Uint8Array(v.buffer).set(blob.subarray(0, dimension * 4));
  return v;
};

function cosineDistance(a: Float32Array, b: Float32Array) {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 1 : 1 - dot / Math.sqrt(na * nb);
}

/**
 * Approximate nearest chunks of a workspace from its HNSW graph, persisted beside the database by
 * a builder process and kept in step with the tenant's change sequence: each search first reads the
 * chunks changed since the graph (as the lexical index does) and scans those exactly, so a write
 * acknowledged by any process is found by the next search. Candidates are only rowids: the caller
 * keeps those that are still live chunks of the workspace, so a removed chunk never comes back.
 * `candidates` returns null whenever exact search must answer (small workspace, no graph yet,
 * graph too far behind or unreadable); the missing graph is then scheduled for a build.
 */
export class VectorIndexes {
  private readonly loaded = new Map<string, Loaded>();
  private readonly counted = new Map<string, { seq: number; count: number }>();
  private readonly builds = new Map<string, Promise<void>>();
  private readonly failedAt = new Map<string, number>();
  /** Graphs found unusable (too far behind): not loaded again until a newer one is written. */
  private readonly stale = new Map<string, number>();
  private readonly lookedAt = new Map<string, number>();
  private builder: ChildProcess | null = null;
  private next = 0;
  private readonly pending = new Map<number, (reply: BuildReply) => void>();
  readonly threshold: number;

  constructor(
    private readonly sql: Statements,
    private readonly dir: string,
    private readonly builderData: BuilderData,
    threshold = DEFAULT_VECTOR_INDEX_THRESHOLD,
  ) {
    this.threshold = threshold;
  }

  /** Up to `want` candidates nearest to `vector`, or null when exact search must answer. Synchronous: runs inside the store's runner. */
  candidates(scope: Scope, embedder: Embedder, vector: Float32Array, want: number, version: { seq: number; floor: number }): Candidate[] | null {
    const key = `${scope.tenantId}\u0000${scope.workspaceId}`;
    const current = this.refresh(key, scope, embedder);
    if (!current) {
      if (this.count(key, scope, version.seq) >= this.threshold) this.schedule(key, scope);
      return null;
    }
    if (current.seq < version.floor || !this.catchUp(current, scope, version)) {
      this.loaded.delete(key);
      this.stale.set(key, current.seq);
      this.schedule(key, scope);
      return null;
    }
    if (current.delta.size + current.removed >= REBUILD_DELTA) this.schedule(key, scope);

    const found = current.graph.search(vector, Math.min(want, current.graph.size()) || 1, 1);
    const out: Candidate[] = [];
    for (let i = 0; i < found.keys.length; i++) {
      const rowid = Number(found.keys[i]);
      // A changed chunk's graph entry may hold an older vector under its rowid: the delta's is current.
      if (!current.delta.has(rowid)) out.push({ rowid, distance: found.distances[i]! });
    }
    for (const [rowid, v] of current.delta) out.push({ rowid, distance: cosineDistance(vector, v) });
    return out.sort((a, b) => a.distance - b.distance).slice(0, want);
  }

  /** The workspace's graph, loading a newer one from disk when another process (or this one's builder) wrote it. */
  private refresh(key: string, scope: Scope, embedder: Embedder): Loaded | null {
    const loaded = this.loaded.get(key);
    const current = loaded && loaded.embedderId === embedder.embedderId && loaded.dimension === embedder.dimension ? loaded : undefined;
    const now = Date.now();
    if (current && now - current.checkedAt < RESCAN_MS) return current;
    // A workspace without a graph looks for one (written by another process) at the same pace.
    if (!current && now - (this.lookedAt.get(key) ?? -Infinity) < RESCAN_MS) return null;
    this.lookedAt.set(key, now);
    const seq = latestGraph(this.dir, scope.workspaceId);
    if (current && (seq === null || seq <= current.seq)) {
      current.checkedAt = now;
      return current;
    }
    if (seq === null || seq <= (this.stale.get(key) ?? -1)) return null;
    const opened = openGraph(this.dir, scope.workspaceId, seq, embedder);
    if (!opened) {
      this.loaded.delete(key);
      this.stale.set(key, seq);
      return null;
    }
    const fresh: Loaded = { graph: opened.graph, seq, embedderId: embedder.embedderId, dimension: embedder.dimension, delta: new Map(), through: seq, removed: 0, checkedAt: now };
    this.loaded.set(key, fresh);
    return fresh;
  }

  /** Brings the delta up to the tenant's sequence; false when too much changed (or was pruned) to follow. */
  private catchUp(current: Loaded, scope: Scope, version: { seq: number; floor: number }): boolean {
    if (version.seq <= current.through) return true;
    const changed = (this.sql.get('SELECT DISTINCT chunk_id FROM search_changes WHERE tenant_id = ? AND seq > ?').raw().all(scope.tenantId, current.through) as [string][]).map(
      (r) => r[0],
    );
    // The list may have been pruned after the version was read: its floor must still be below what we follow.
    const floor = (this.sql.get('SELECT floor FROM search_versions WHERE tenant_id = ?').raw().get(scope.tenantId) as [number] | undefined)?.[0] ?? 0;
    if (floor > current.through || current.delta.size + changed.length > MAX_DELTA) return false;
    if (changed.length > 0) {
      const rows = this.sql
        .get(
          `SELECT c.rowid, v.embedding FROM json_each(?) j CROSS JOIN chunks c ON c.id = j.value CROSS JOIN chunk_vectors v ON v.rowid = c.rowid
           WHERE c.tenant_id = ? AND c.workspace_id = ?`,
        )
        .raw()
        .all(JSON.stringify(changed), scope.tenantId, scope.workspaceId) as [number, Buffer][];
      for (const [rowid, blob] of rows) current.delta.set(rowid, toVector(blob, current.dimension));
      current.removed += changed.length - rows.length;
    }
    current.through = version.seq;
    return true;
  }

  /** The workspace's chunk count, counted again only when the tenant's chunks changed. */
  private count(key: string, scope: Scope, seq: number): number {
    const cached = this.counted.get(key);
    if (cached && cached.seq === seq) return cached.count;
    const count = (this.sql.get('SELECT COUNT(*) FROM chunks WHERE tenant_id = ? AND workspace_id = ?').raw().get(scope.tenantId, scope.workspaceId) as [number])[0];
    this.counted.set(key, { seq, count });
    return count;
  }

  /** Builds the workspace's graph in the builder process unless a build is running or failed recently. */
  private schedule(key: string, scope: Scope) {
    if (this.builds.has(key) || Date.now() - (this.failedAt.get(key) ?? -Infinity) < RETRY_MS) return;
    const build = this.build(scope)
      .then((reply) => {
        if (!reply.ok) this.failedAt.set(key, Date.now());
        else this.stale.delete(key);
        // The next search looks for the new graph at once.
        const current = this.loaded.get(key);
        if (current) current.checkedAt = 0;
        this.lookedAt.delete(key);
      })
      .finally(() => this.builds.delete(key));
    this.builds.set(key, build);
  }

  /** Builds (or rebuilds) a workspace's graph now, in the builder process. */
  build(scope: Scope): Promise<BuildReply> {
    const builder = (this.builder ??= this.startBuilder());
    const id = this.next++;
    const request: BuildRequest = { id, tenantId: scope.tenantId, workspaceId: scope.workspaceId, dir: this.dir };
    // Referenced while it works, so an awaited build keeps the process alive.
    builder.channel?.ref();
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      builder.send(request, (error) => {
        if (error) this.fail(builder, error);
      });
    });
  }

  /**
   * Forgets the workspaces' graphs and deletes their files (tenant erasure): a build running for one
   * is waited for first, so it cannot write a graph back afterwards.
   */
  async drop(scopes: readonly Scope[]): Promise<number> {
    let removed = 0;
    for (const scope of scopes) {
      const key = `${scope.tenantId}\u0000${scope.workspaceId}`;
      await this.builds.get(key)?.catch(() => undefined);
      this.loaded.delete(key);
      this.counted.delete(key);
      this.stale.delete(key);
      removed += removeGraphs(this.dir, scope.workspaceId);
    }
    return removed;
  }

  /** Resolves when no build is running (tests, benchmarks). */
  async idle(): Promise<void> {
    while (this.builds.size > 0) await Promise.all([...this.builds.values()]);
  }

  private startBuilder(): ChildProcess {
    const child = spawnBuilder(this.builderData);
    child.on('message', (reply: BuildReply) => {
      const resolve = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      // Builds are rare: an idle builder is ended, returning everything the build allocated to the system.
      if (this.pending.size === 0 && this.builder === child) {
        this.builder = null;
        child.disconnect();
      }
      resolve?.(reply);
    });
    child.on('error', (error) => this.fail(child, error));
    child.on('exit', (code, signal) => this.fail(child, new Error(`The vector index builder exited (${signal ?? `code ${code}`}).`)));
    child.unref();
    child.channel?.unref();
    return child;
  }

  /** Only the current builder holds pending builds: an idle one ended above has none. */
  private fail(child: ChildProcess, error: unknown) {
    if (this.builder !== child) return;
    this.builder = null;
    child.kill();
    this.failPending(error);
  }

  private failPending(error: unknown) {
    for (const [id, resolve] of this.pending) resolve({ id, ok: false, message: String(error) });
    this.pending.clear();
  }

  async close() {
    const open = this.builder;
    this.builder = null;
    if (open && open.exitCode === null && open.signalCode === null) {
      const exited = once(open, 'exit');
      open.kill();
      await exited;
    }
    this.failPending(new Error('The store was closed.'));
    this.loaded.clear();
  }
}

/** Built JavaScript beside this module, or (in the repository) its TypeScript source through tsx. */
function spawnBuilder(data: BuilderData): ChildProcess {
  const fromSource = import.meta.url.endsWith('.ts');
  const url = new URL(fromSource ? './vector-index-builder.ts' : './vector-index-builder.js', import.meta.url);
  const tsx = fromSource ? pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href : null;
  return fork(fileURLToPath(url), [`${BUILDER_ARG}${JSON.stringify(data)}`], {
    execArgv: tsx ? ['--conditions=@panya/source', '--import', tsx] : [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    serialization: 'advanced',
    ...BACKGROUND_PROCESS_SPAWN,
  });
}
