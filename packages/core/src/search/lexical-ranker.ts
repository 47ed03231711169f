/**
 * Per-workspace in-memory lexical indexes, built lazily from a store and kept fresh through the
 * store's change sequence: each search reads the tenant's current sequence (one indexed read) and
 * applies the chunks changed since its cached one, so a write committed by any process or node is
 * visible to the next search everywhere.
 */
import type { Audiences, LexicalQuery, LexicalSource, LexicalSourceDoc, RankedHit, SegmentRead } from './ports/search-index.js';
import type { Scope } from '../ports/store.js';
import { indexCache, scopeKey } from './index-cache.js';
import { DEFAULT_LEXICAL_WEIGHTS, LexicalIndex, type LexicalWeights } from './lexical-index.js';
import { audienceOverrides, LexicalSegment, liveMask, segmentWeightsTag, SegmentedIndex } from './lexical-segment.js';

export interface LexicalRankerOptions {
  weights?: LexicalWeights;
  /**
   * false: rank from a fresh load every time (inside a transaction, where uncommitted or
   * rolled-back rows must never enter a shared cache).
   */
  cache?: boolean;
}

/** A workspace's segments as loaded: decoded segments are kept by id, so a change reads only new ones. */
interface SegmentEntry {
  index: SegmentedIndex;
  decoded: Map<number, LexicalSegment>;
  seq: number;
  bytes: number;
}

interface Entry {
  index: LexicalIndex;
  /** The index's size when last accounted in the process's index cache. */
  bytes: number;
  seq: number;
  /** The refresh in progress: concurrent searches of a workspace share it. */
  refreshing: Promise<void> | null;
}

/**
 * Changes kept per tenant by the retention job. An index further behind than this rebuilds on its
 * next search, which costs about what replaying that many changes would.
 */
export const SEARCH_CHANGES_KEPT = 10_000;

/** Workspaces `warm` loads at a start at most (the byte budget decides what stays). */
export const DEFAULT_MAX_WORKSPACES = 256;
/**
 * Longest stretch of indexing between two yields to the event loop. Slices are timed rather than
 * counted: 500 long chunks (SciFact abstracts) took 120 ms, 500 short ones a few.
 */
const BUILD_SLICE_MS = 8;

const yieldToEventLoop = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Indexes in slices, yielding between them, so neither a large workspace nor a large batch of
 * changes (a bulk import indexed elsewhere) holds the event loop for long.
 */
async function upsertInSlices(index: LexicalIndex, docs: readonly LexicalSourceDoc[]): Promise<void> {
  let sliceStart = performance.now();
  for (let at = 0; at < docs.length; at++) {
    // The clock is read every 16 chunks: reading it per chunk would cost more than short chunks do.
    if ((at & 15) === 15 && performance.now() - sliceStart > BUILD_SLICE_MS) {
      await yieldToEventLoop();
      sliceStart = performance.now();
    }
    index.upsert(docs[at]!);
  }
}

export class LexicalRanker {
  private readonly entries = new Map<string, Entry>();
  private readonly weights: LexicalWeights;
  private readonly cache: boolean;

  constructor(
    private readonly source: LexicalSource,
    options: LexicalRankerOptions = {},
  ) {
    this.weights = options.weights ?? DEFAULT_LEXICAL_WEIGHTS;
    this.cache = options.cache ?? true;
  }

  /** `audiences`: only chunks of documents naming one of them are ranked (null: every chunk). */
  async search(scope: Scope, query: Pick<LexicalQuery, 'terms' | 'pairs' | 'grams' | 'seq'>, limit: number, audiences: Audiences = null): Promise<RankedHit[]> {
    if (query.terms.length === 0 || limit <= 0) return [];
    const segmented = await this.segmented(scope, query.seq);
    if (segmented) return segmented.search(query, limit, audiences);
    const index = this.cache ? await this.current(scope) : await this.build(await this.source.load(scope));
    return index.search(query, limit, audiences);
  }

  /** Loads (or refreshes) a workspace's index ahead of its first search. */
  async warm(scope: Scope): Promise<void> {
    if (!this.cache) return;
    if (!(await this.segmented(scope))) await this.current(scope);
  }

  /** Drops every cached index (the next search of each workspace reloads it). */
  clear(): void {
    for (const entry of this.entries.values()) indexCache.forget(entry);
    this.entries.clear();
    for (const entry of this.segmentEntries.values()) indexCache.forget(entry);
    this.segmentEntries.clear();
  }

  private readonly segmentEntries = new Map<string, SegmentEntry>();
  private readonly segmentLoads = new Map<string, Promise<SegmentEntry | null>>();

  /**
   * The workspace's stored segments ranked as one index: current when the tenant's sequence has
   * not moved, else re-read (one statement; segments already decoded are not read again). Null
   * when the store keeps no segments for the scope yet (or built them for other weights). `seq`:
   * the sequence the request read already; an index cached at it or later answers it.
   */
  private async segmented(scope: Scope, seq?: number): Promise<SegmentedIndex | null> {
    if (!this.source.segments) return null;
    const key = scopeKey(scope);
    if (!this.cache) return (await this.readSegments(scope, undefined))?.index ?? null;
    const cached = this.segmentEntries.get(key);
    if (cached && (seq !== undefined ? cached.seq >= seq : (await this.source.version(scope.tenantId)).seq === cached.seq)) {
      indexCache.hit();
      indexCache.use(cached, cached.bytes, () => this.segmentEntries.get(key) === cached && this.segmentEntries.delete(key));
      return cached.index;
    }
    // Concurrent searches of a workspace share one read.
    let loading = this.segmentLoads.get(key);
    if (!loading) {
      loading = this.readSegments(scope, cached).finally(() => this.segmentLoads.delete(key));
      this.segmentLoads.set(key, loading);
    }
    const entry = await loading;
    if (!entry) return null;
    if (this.segmentEntries.get(key) !== entry) {
      if (cached) indexCache.forget(cached);
      this.segmentEntries.set(key, entry);
    }
    indexCache.use(entry, entry.bytes, () => this.segmentEntries.get(key) === entry && this.segmentEntries.delete(key));
    return entry.index;
  }

  private async readSegments(scope: Scope, previous: SegmentEntry | undefined): Promise<SegmentEntry | null> {
    const started = performance.now();
    const read: SegmentRead | null = await this.source.segments!(scope, new Set(previous?.decoded.keys() ?? []));
    if (!read) return null;
    const tag = segmentWeightsTag(this.weights);
    const decoded = new Map<number, LexicalSegment>();
    const parts = [];
    for (const stored of read.segments) {
      // A segment of an older format is read from rows until the store rewrites it.
      if (stored.data && !LexicalSegment.readable(stored.data)) return null;
      const segment = stored.data ? new LexicalSegment(stored.data) : previous?.decoded.get(stored.id);
      if (!segment || segment.weightsTag !== tag) return null;
      decoded.set(stored.id, segment);
      parts.push({ segment, live: liveMask(segment, stored.seq, read.deletions), audiences: audienceOverrides(segment, stored.seq, read.audiences) });
    }
    const index = new SegmentedIndex(parts, this.weights);
    indexCache.loaded((performance.now() - started) / 1000);
    return { index, decoded, seq: read.seq, bytes: index.bytes };
  }

  private async build(docs: readonly LexicalSourceDoc[]): Promise<LexicalIndex> {
    const index = new LexicalIndex(this.weights);
    await upsertInSlices(index, docs);
    for (const _ of index.compact()) await yieldToEventLoop();
    return index;
  }

  /** Loads a workspace's whole index, timed for the cache's figures. */
  private async load(scope: Scope): Promise<LexicalIndex> {
    const started = performance.now();
    const index = await this.build(await this.source.load(scope));
    indexCache.loaded((performance.now() - started) / 1000);
    return index;
  }

  private async current(scope: Scope): Promise<LexicalIndex> {
    const key = scopeKey(scope);
    let entry = this.entries.get(key);
    for (;;) {
      if (entry?.refreshing) await entry.refreshing;
      // Read the version before the rows: rows newer than it are re-applied next time (idempotent).
      const version = await this.source.version(scope.tenantId);
      entry = this.entries.get(key);
      if (entry?.refreshing) continue;
      if (entry && entry.seq >= version.seq && entry.seq >= version.floor) {
        indexCache.hit();
        break;
      }
      const stale = entry;
      // Rebuild when never loaded, when the change list no longer reaches back to this index, or
      // when removed chunks hold more than half of its slots.
      const rebuild = !stale || stale.seq < version.floor || version.seq < stale.seq || stale.index.dead > Math.max(1000, stale.index.size);
      const next: Entry = stale ?? { index: new LexicalIndex(this.weights), bytes: 0, seq: 0, refreshing: null };
      next.refreshing = (async () => {
        try {
          if (rebuild) {
            next.index = await this.load(scope);
          } else {
            const { upserts, removed } = await this.source.changes(scope, next.seq);
            // Changes pruned while they were read (the floor passed this index) may be missing: rebuild.
            if ((await this.source.version(scope.tenantId)).floor > next.seq) next.index = await this.load(scope);
            else {
              for (const id of removed) next.index.remove(id);
              await upsertInSlices(next.index, upserts);
            }
          }
          next.seq = version.seq;
        } finally {
          next.refreshing = null;
        }
      })();
      if (!stale) this.entries.set(key, next);
      try {
        await next.refreshing;
      } catch (error) {
        if (!stale) this.entries.delete(key);
        throw error;
      }
      entry = next;
      break;
    }
    // The process's byte budget decides what stays (least recently searched first out).
    const used = entry!;
    used.bytes = used.index.bytes;
    indexCache.use(used, used.bytes, () => {
      if (this.entries.get(key) === used) this.entries.delete(key);
    });
    return used.index;
  }
}
