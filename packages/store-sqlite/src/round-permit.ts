import Database from 'better-sqlite3';
import type { RoundPermit } from '@panya/core';

/** The file of one slot: beside the database, like its counters' file. */
const slotPath = (path: string, slot: number) => `${path}.ingest-${slot}`;

/**
 * At most `slots` heavy ingest rounds at a time among every thread and process on this machine
 * that works on the database at `path` (`serve --workers N`: N processes, each with its ingest
 * threads). Each slot is a small SQLite file whose write lock a round holds: taking it never
 * waits, and the system frees it when its holder's process dies, so a crash leaves no lease to
 * wait out. The rounds of one file take turns at its one write lock anyway; run side by side,
 * they only hold it for each other, uploads and requests longer.
 */
export function ingestRoundPermit(path: string, slots: number): RoundPermit {
  const connections: (Database.Database | null)[] = Array.from({ length: Math.max(1, slots) }, () => null);
  let held: Database.Database | null = null;
  const open = (slot: number) => {
    const db = new Database(slotPath(path, slot));
    db.pragma('busy_timeout = 0');
    return db;
  };
  return {
    tryAcquire() {
      if (held) return true;
      for (const [slot, existing] of connections.entries()) {
        const db = existing ?? (connections[slot] = open(slot));
        try {
          db.exec('BEGIN IMMEDIATE');
          held = db;
          return true;
        } catch (error) {
          if (!String((error as { code?: unknown }).code ?? '').startsWith('SQLITE_BUSY')) throw error;
        }
      }
      return false;
    },
    release() {
      if (held?.inTransaction) held.exec('COMMIT');
      held = null;
    },
    /** Closes the slots' files (a later `tryAcquire` opens them again). */
    close() {
      this.release();
      for (const [slot, db] of connections.entries()) {
        db?.close();
        connections[slot] = null;
      }
    },
  };
}
