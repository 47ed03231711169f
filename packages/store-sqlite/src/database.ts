import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { isStoreConflict, StoreBusyError, StoreConflictError } from '@panya/core';
import * as sqliteVec from 'sqlite-vec';
import { SOURCE_LENGTH_FN, SOURCE_TEXT_FN, sourceLength, sourceText } from './source-text.js';
import { TRIGRAM_FOLD } from './trigram-table.js';

export type Db = Database.Database;

export interface OpenOptions {
  /** A file path, or `:memory:`. */
  path: string;
  /** How long a writer waits for another process's write lock, in ms. */
  busyTimeoutMs?: number;
  /**
   * Whether this connection's commits checkpoint the WAL into the database file (SQLite's
   * default). A serving connection turns it off when other connections (ingest processes) write
   * and checkpoint anyway: a checkpoint copies every page written since the last one and syncs,
   * which on the serving thread stalls every request for as long.
   */
  autoCheckpoint?: boolean;
}

/** Opens SQLite the way Panya needs it: WAL (readers never block the writer), FKs on, sqlite-vec loaded. */
export function openDatabase({ path, busyTimeoutMs = 5000, autoCheckpoint = true }: OpenOptions): Db {
  // A new database file may sit in a folder that does not exist yet (`./data/panya.db` on a fresh clone).
  if (path !== ':memory:' && !path.startsWith('file:')) mkdirSync(dirname(resolve(path)), { recursive: true });
  const db = new Database(path);
  if (path !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  // Deleted and overwritten content is zeroed in the file and its WAL, not left in free space:
  // an erased tenant's text must not be recoverable from the file.
  db.pragma('secure_delete = ON');
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  if (!autoCheckpoint) db.pragma('wal_autocheckpoint = 0');
  sqliteVec.load(db);
  db.function(TRIGRAM_FOLD, { deterministic: true }, (text) => (typeof text === 'string' ? text.toLowerCase() : text));
  db.function(SOURCE_LENGTH_FN, { deterministic: true }, sourceLength);
  db.function(SOURCE_TEXT_FN, { deterministic: true }, sourceText);
  return db;
}

/**
 * Page cache of a store's serving connection, in KiB (SQLite's default here is 16 MiB): what a search
 * reads again and again lives outside it (lexical segments as arrays, vector graphs mapped from their
 * files), the rest is a few rows per request, and the operating system's cache keeps the file's pages
 * for every process. Measured at 10,000 chunks, 16 MiB grew the resident memory by 14 MiB more than this.
 */
export const SERVING_CACHE_KIB = 4096;

/**
 * SQLite's own busy handler sleeps on the calling thread: while another connection (an ingest
 * thread, the document writer, another process) holds the write lock, every request of this event
 * loop would wait with it. So after start-up a store's connection waits at most 1 ms synchronously
 * (long enough for another `serve` worker's short commit of query events, too short to matter to the
 * loop) and `whileLocked` retries asynchronously beyond it. Measured under `pnpm bench stall`, a 10 ms
 * synchronous wait per try blocked the serving thread up to 120 ms for one write while the document
 * writer committed an upload; 0 ms (every try fails at once) raised search p99 with `--workers 2`.
 */
export const SYNC_BUSY_TIMEOUT_MS = 1;

/**
 * Pauses between tries: short, because a failed try costs at most the 1 ms above, and a longer
 * pause would leave the lock to the other connections, whose busy handlers poll it, for most of
 * the time it is free.
 */
export const LOCK_RETRY_PAUSES_MS = { first: 1, max: 8 } as const;

/** SQLite's answer when another connection holds the lock it needs (`SQLITE_BUSY`, `SQLITE_BUSY_SNAPSHOT`…). */
export const isBusyCode = (code: unknown) => String(code ?? '').startsWith('SQLITE_BUSY');
const isBusy = (error: unknown) => isBusyCode((error as { code?: unknown } | null)?.code);

/** The port's error for a lock wait that ran out: overload the caller can retry, not a fault. */
export function busyError(cause: unknown): StoreBusyError {
  return new StoreBusyError(`The database stayed locked by other writers: ${(cause as Error)?.message ?? cause}`, { cause });
}

/**
 * Runs `fn` (a statement or a synchronous transaction, which SQLite rolled back if it failed)
 * again while the database is locked by another connection, sleeping between tries, for up to
 * `budgetMs`; `ready` is asked before each try and answers what to wait for first, if anything (e.g.
 * this connection's open transaction).
 */
export async function whileLocked<T>(fn: () => T, budgetMs: number, ready?: () => Promise<void> | undefined): Promise<T> {
  const deadline = Date.now() + budgetMs;
  for (let pause: number = LOCK_RETRY_PAUSES_MS.first; ; pause = Math.min(pause * 2, LOCK_RETRY_PAUSES_MS.max)) {
    // Asked again after each wait, and `fn` runs in the same synchronous step as the last answer:
    // nothing (another request's BEGIN) can come between them.
    for (let wait = ready?.(); wait; wait = ready?.()) await wait;
    try {
      return fn();
    } catch (error) {
      if (!isBusy(error)) throw error;
      if (Date.now() + pause > deadline) throw busyError(error);
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/** Prepared statements are cached per SQL text: preparing is costly on hot paths. */
export class Statements {
  private readonly cache = new Map<string, Database.Statement>();
  constructor(readonly db: Db) {}

  get(sql: string): Database.Statement {
    let stmt = this.cache.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.cache.set(sql, stmt);
    }
    return stmt;
  }
}

/** Rethrows unique/primary-key violations as the port's conflict error. */
export function translateError(error: unknown): never {
  const code = (error as { code?: string } | null)?.code;
  if ((code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') && !isStoreConflict(error)) {
    throw new StoreConflictError((error as Error).message);
  }
  throw error;
}

/**
 * Runs a statement on the store's connection. The root store first waits for any open
 * transaction (whose callback may be awaiting) so foreign writes never join or vanish with it;
 * the transaction's own view runs at once.
 */
export type Runner = <T>(fn: () => T) => Promise<T>;

/** A schema step: `sql` applied once, in its own write transaction; `before` runs first, outside it, while it is pending. */
export interface Migration {
  version: number;
  sql: string;
  before?: (db: Db) => void;
}

/** Applies the steps `PRAGMA user_version` has not recorded yet, in order. */
export function applyMigrations(db: Db, steps: readonly Migration[]): void {
  for (const m of steps) {
    // Applied already: no write lock taken, so opening beside a busy writer never waits on it.
    if ((db.pragma('user_version', { simple: true }) as number) >= m.version) continue;
    if (m.before) m.before(db);
    // Re-read the version inside the write lock: another process may have migrated meanwhile.
    db.transaction(() => {
      if ((db.pragma('user_version', { simple: true }) as number) >= m.version) return;
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    }).immediate();
  }
}
