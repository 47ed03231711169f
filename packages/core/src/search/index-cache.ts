/**
 * The process's one cache of loaded lexical indexes, bounded in bytes and shared by every store
 * and request of the process: the least recently searched workspace leaves first when a load or
 * a refresh would pass the budget. Its figures are exported as metrics (`/metrics`).
 */
import { totalmem } from 'node:os';
import type { Scope } from '../ports/store.js';

export interface IndexCacheStats {
  /** Bytes the cached indexes hold (estimated from their arrays and strings). */
  bytes: number;
  maxBytes: number;
  entries: number;
  /** Searches that found their workspace's index loaded and current. */
  hits: number;
  /** Indexes loaded whole (a first search, an eviction, a list of changes that no longer reaches). */
  loads: number;
  /** Seconds spent loading them. */
  loadSeconds: number;
}

/** An eighth of the machine's memory: the rest is for the database's page cache, other processes and requests. */
export const defaultIndexCacheBytes = (processes = 1) => Math.max(64 * 1024 * 1024, Math.floor(totalmem() / 8 / Math.max(1, processes)));

interface Slot {
  bytes: number;
  evict: () => void;
}

class IndexCache {
  maxBytes = defaultIndexCacheBytes();
  private readonly slots = new Map<object, Slot>();
  private total = 0;
  private counts = { hits: 0, loads: 0, loadSeconds: 0 };

  /** Records a use of `owner` at `bytes` (its size now), then evicts the least recently used past the budget; the one in use stays. */
  use(owner: object, bytes: number, evict: () => void): void {
    const slot = this.slots.get(owner);
    if (slot) {
      this.total -= slot.bytes;
      this.slots.delete(owner);
    }
    this.slots.set(owner, { bytes, evict });
    this.total += bytes;
    for (const [other, s] of this.slots) {
      if (this.total <= this.maxBytes || other === owner) break;
      this.slots.delete(other);
      this.total -= s.bytes;
      s.evict();
    }
  }

  forget(owner: object): void {
    const slot = this.slots.get(owner);
    if (!slot) return;
    this.slots.delete(owner);
    this.total -= slot.bytes;
  }

  hit(): void {
    this.counts.hits++;
  }

  loaded(seconds: number): void {
    this.counts.loads++;
    this.counts.loadSeconds += seconds;
  }

  stats(): IndexCacheStats {
    return { bytes: this.total, maxBytes: this.maxBytes, entries: this.slots.size, ...this.counts };
  }
}

export const indexCache = new IndexCache();

/** Sets the process's budget (`PANYA_INDEX_CACHE_MB`); indexes past it leave at their next use. */
export function configureIndexCache(maxBytes: number): void {
  if (!Number.isFinite(maxBytes) || maxBytes <= 0) throw new RangeError(`The index cache needs a positive size in bytes, got ${maxBytes}.`);
  indexCache.maxBytes = maxBytes;
}

export const indexCacheStats = (): IndexCacheStats => indexCache.stats();

/**
 * What a store derives from a workspace's rows and keeps while its tenant's search sequence stands
 * (a small workspace's texts for the trigram scan), held in the process's index cache: counted
 * against its budget and evicted with the indexes, least recently used first. It counts no hits or
 * loads: those figures are the indexes'.
 */
export class ScopeCache<T> {
  private readonly entries = new Map<string, { seq: number; value: T; bytes: number }>();

  /** The value kept for the scope at `seq`, or undefined (none, or kept at another sequence). */
  get(scope: Scope, seq: number): T | undefined {
    const key = scopeKey(scope);
    const entry = this.entries.get(key);
    if (!entry || entry.seq !== seq) return undefined;
    indexCache.use(entry, entry.bytes, () => this.entries.get(key) === entry && this.entries.delete(key));
    return entry.value;
  }

  /** Keeps `value` (about `bytes` of memory) for the scope at `seq`, in place of what was kept. */
  set(scope: Scope, seq: number, value: T, bytes: number): void {
    const key = scopeKey(scope);
    const previous = this.entries.get(key);
    if (previous) indexCache.forget(previous);
    const entry = { seq, value, bytes };
    this.entries.set(key, entry);
    indexCache.use(entry, bytes, () => this.entries.get(key) === entry && this.entries.delete(key));
  }

  clear(): void {
    for (const entry of this.entries.values()) indexCache.forget(entry);
    this.entries.clear();
  }
}

/** A workspace's key in the process's caches. */
export const scopeKey = (scope: Scope) => `${scope.tenantId}\u0000${scope.workspaceId}`;
