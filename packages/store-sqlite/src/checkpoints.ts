/**
 * Checkpoints a store's WALs (the main file's and the counters') on a timer, from a background
 * connection: `panya serve`'s ingest processes do it for the serving connections, which never
 * checkpoint — a checkpoint copies every page written since the last one into the file and syncs
 * it, and on the serving thread every request would wait meanwhile. The counters' file is written
 * by serving connections only (query events, rate counters), so without this its WAL would grow.
 * PASSIVE: it never waits for a reader or a writer, and copies what it can now.
 */
import type { Db } from './database.js';

export function startCheckpoints(dbs: readonly Db[], everyMs: number): () => void {
  const timer = setInterval(() => {
    for (const db of dbs) {
      // Between the statements of this connection's own transaction, the next tick will do.
      if (!db.open || db.memory || db.inTransaction) continue;
      try {
        db.pragma('wal_checkpoint(PASSIVE)');
      } catch {
        // Busy or closing: the next tick tries again.
      }
    }
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
