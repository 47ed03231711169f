import type { Store, StoreCapabilities, StoreHealth } from '@panya/core';
import { kitAggregates, type SqlDriver } from '@panya/core/rows';
import { openDatabase, Statements, SERVING_CACHE_KIB, SYNC_BUSY_TIMEOUT_MS, translateError, whileLocked, type Db, type OpenOptions, type Runner } from './database.js';
import { documentWriter, type DocumentWriter } from './document-writer.js';
import { COUNTER_TABLES, counterTablesWith, openCounters, type Counters } from './counters.js';
import { SqliteDocuments } from './documents.js';
import { SqliteDriver } from './sql-driver.js';
import { migrate, migrations } from './migrations.js';
import { workspaceScopedTables } from './workspace-cascade.js';
import { eraseTenant, tenantScopedTables } from './tenant-erasure.js';
import { SqliteSearchIndex } from './search-index.js';
import { syncTrigramTable } from './trigram-table.js';
import { startCheckpoints } from './checkpoints.js';
import { VectorIndexes, type VectorIndexOptions } from './vector-index.js';

/**
 * Transactions on the store's one connection: one at a time, and no other statement inside one.
 * A transaction closes the gate only once it holds SQLite's write lock, in the same synchronous
 * step as its BEGIN; while it waits for the lock (behind ingest processes, the document writer,
 * other processes) or for an earlier transaction, every other request's statements go on.
 */
class Gate {
  private turns: Promise<void> = Promise.resolve();
  private queued = 0;
  private closed: Promise<void> | null = null;
  private reopen = () => {};

  /** Nothing when a statement may run now; else what to wait for before asking again. */
  wait(): Promise<void> | undefined {
    return this.closed ?? undefined;
  }

  /** Call in the synchronous step that began the transaction. */
  close(): void {
    this.closed = new Promise((resolve) => (this.reopen = resolve));
  }

  open(): void {
    this.closed = null;
    this.reopen();
  }

  /** Runs `fn` once the transactions queued before it are done. */
  async inTurn<T>(fn: () => Promise<T>): Promise<T> {
    const previous = this.turns;
    let done!: () => void;
    this.turns = new Promise((resolve) => (done = resolve));
    this.queued++;
    await previous;
    try {
      return await fn();
    } finally {
      this.queued--;
      done();
    }
  }

  /** Resolves once no transaction is open or queued. */
  async idle(): Promise<void> {
    while (this.queued > 0) await this.turns;
  }
}

/**
 * One transaction on a connection, in its turn: BEGIN IMMEDIATE (the write lock, waited for
 * asynchronously), the gate closed from that same step until COMMIT or ROLLBACK.
 */
function gatedTransaction<T>(db: Db, gate: Gate, lockWaitMs: number, fn: () => Promise<T>): Promise<T> {
  return gate.inTurn(async () => {
    await whileLocked(() => {
      db.exec('BEGIN IMMEDIATE');
      gate.close();
    }, lockWaitMs);
    try {
      const result = await fn();
      db.exec('COMMIT');
      return result;
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw error;
    } finally {
      gate.open();
    }
  });
}

/** Every statement's unique violations become the port's conflict error, in one place (as Postgres's connection does). */
const translated =
  <T>(fn: () => T) =>
  (): T => {
    try {
      return fn();
    } catch (error) {
      return translateError(error);
    }
  };

/** The request counters' connection: its statements and runner, and the kit's driver on it. */
interface CountersConnection extends Counters {
  kit: SqlDriver;
}

function aggregates(db: Db, sql: Statements, run: Runner, kit: SqlDriver, counters: CountersConnection, shared: boolean, trigramIndex: boolean, writer?: DocumentWriter, vectors?: VectorIndexes, graphs: VectorIndexes | undefined = vectors) {
  const search = new SqliteSearchIndex(db, sql, run, undefined, shared, vectors, trigramIndex);
  return {
    ...kitAggregates(kit, {
      search,
      eraseTenant: (id) => eraseTenant(id, { db, run, search, counters, graphs }),
      counters: counters.kit,
      // Outside a transaction, a turn's query events commit together in the counters' file.
      groupCommit: shared,
    }),
    documents: new SqliteDocuments(kit, writer),
    search,
  };
}

export class SqliteStore implements Store {
  /** Batches go in one transaction (off the thread with `offThreadDocumentWrites`); a file database is shared by every process that opens it, `:memory:` by none. */
  readonly capabilities: StoreCapabilities;
  readonly tenants;
  readonly workspaces;
  readonly apiKeys;
  readonly documents;
  readonly audit;
  readonly retention;
  readonly search;
  readonly rateLimits;
  readonly usage;
  readonly users;
  readonly jobs;
  readonly conversations;
  readonly hostnames;
  readonly curatedAnswers;
  readonly evals;
  readonly tombstones;
  readonly visitorKeys;
  readonly questions;
  readonly feedback;
  readonly verifiedVisitors;
  readonly sso;
  readonly billing;
  readonly resolutions;
  readonly flows;
  readonly origins;
  readonly connectors;
  readonly idempotency;
  readonly tickets;
  readonly personas;
  readonly visitors;
  readonly customers;
  readonly inbox;
  /** The storage kit's driver on this store's connection (the aggregates written once use it). */
  readonly kit: SqlDriver;
  /** The storage kit's driver on the request counters' file. */
  readonly countersKit: SqlDriver;
  private readonly gate = new Gate();
  private readonly countersGate = new Gate();
  private readonly txView: Store;

  /** How long a call waits for another connection's write lock (asynchronously) before failing. */
  private readonly lockWaitMs: number;

  /** Inserts batches of documents off this thread, when the store was opened with `offThreadDocumentWrites`. */
  private readonly writer: DocumentWriter | undefined;
  private readonly stopCheckpoints: (() => void) | undefined;

  /** Graphs for approximate vector search, when the store is a file and they are on. */
  private readonly vectors: VectorIndexes | undefined;

  /** The request counters' connection (rate limits, API query events): a file of their own, see counters.ts. */
  readonly countersDb: Db;

  constructor(readonly db: Db, counters: Counters, options: { lockWaitMs?: number; writer?: DocumentWriter; vectorIndex?: VectorIndexOptions; trigramIndex?: boolean; checkpointEveryMs?: number } = {}) {
    this.countersDb = counters.db;
    if (options.checkpointEveryMs) this.stopCheckpoints = startCheckpoints([db, counters.db], options.checkpointEveryMs);
    this.capabilities = { batchInsert: true, sharedDatabase: !db.memory };
    this.lockWaitMs = options.lockWaitMs ?? 5000;
    this.writer = options.writer;
    const sql = new Statements(db);
    const file = db.memory ? null : db.name;
    const { mode = 'hnsw', threshold, dir } = options.vectorIndex ?? {};
    if (file && mode === 'hnsw') this.vectors = new VectorIndexes(sql, dir ?? `${file}.vectors`, { path: file, busyTimeoutMs: this.lockWaitMs }, threshold);
    // Between tries, a transaction of this connection may have opened: wait for it each time.
    const trigramIndex = options.trigramIndex ?? true;
    const inTxRun: Runner = async (fn) => translated(fn)();
    const txKit = new SqliteDriver(db, sql, inTxRun, null);
    const rootRun: Runner = (fn) => whileLocked(translated(fn), this.lockWaitMs, () => this.gate.wait());
    const rootKit = new SqliteDriver(db, sql, rootRun, (fn) => this.transaction(() => fn(txKit)));
    this.kit = rootKit;
    // The counters' file has transactions of its own (rate-limit check-and-take, group commits), behind a gate of its own.
    const countersRun: Runner = (fn) => whileLocked(translated(fn), this.lockWaitMs, () => this.countersGate.wait());
    const countersTxKit = new SqliteDriver(counters.db, counters.sql, inTxRun, null);
    const countersConn: CountersConnection = {
      ...counters,
      run: countersRun,
      kit: new SqliteDriver(counters.db, counters.sql, countersRun, (fn) => gatedTransaction(counters.db, this.countersGate, this.lockWaitMs, () => fn(countersTxKit))),
    };
    this.countersKit = countersConn.kit;
    const root = aggregates(db, sql, rootRun, rootKit, countersConn, true, trigramIndex, this.writer, this.vectors);
    this.tenants = root.tenants;
    this.workspaces = root.workspaces;
    this.apiKeys = root.apiKeys;
    this.documents = root.documents;
    this.audit = root.audit;
    this.retention = root.retention;
    this.search = root.search;
    this.rateLimits = root.rateLimits;
    this.usage = root.usage;
    this.users = root.users;
    this.jobs = root.jobs;
    this.conversations = root.conversations;
    this.hostnames = root.hostnames;
    this.curatedAnswers = root.curatedAnswers;
    this.evals = root.evals;
    this.tombstones = root.tombstones;
    this.visitorKeys = root.visitorKeys;
    this.questions = root.questions;
    this.feedback = root.feedback;
    this.verifiedVisitors = root.verifiedVisitors;
    this.sso = root.sso;
    this.billing = root.billing;
    this.resolutions = root.resolutions;
    this.flows = root.flows;
    this.origins = root.origins;
    this.connectors = root.connectors;
    this.idempotency = root.idempotency;
    this.tickets = root.tickets;
    this.personas = root.personas;
    this.visitors = root.visitors;
    this.customers = root.customers;
    this.inbox = root.inbox;
    // Erasure runs in a transaction and deletes the tenant's graph files too.
    const inTx = aggregates(db, sql, inTxRun, txKit, countersConn, false, trigramIndex, undefined, undefined, this.vectors);
    this.txView = {
      ...inTx,
      capabilities: this.capabilities,
      transaction: (fn) => fn(this.txView),
      health: () => this.health(),
      close: () => this.close(),
    };
  }

  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T> {
    return gatedTransaction(this.db, this.gate, this.lockWaitMs, () => fn(this.txView));
  }

  async health(): Promise<StoreHealth> {
    // A closed connection throws here: the probe reports the database as unreachable.
    const schemaVersion = this.db.pragma('user_version', { simple: true }) as number;
    const { n } = this.db.prepare(`SELECT COUNT(*) AS n FROM documents WHERE status IN ('pending', 'indexing')`).get() as { n: number };
    return { schemaVersion, latestSchemaVersion: migrations.at(-1)!.version, queuedDocuments: n };
  }

  /** Tables with a `workspace_id` column, and how many rows of a workspace one holds (schema checks, tests). */
  async workspaceScopedTables(): Promise<string[]> {
    return [...workspaceScopedTables(this.db), ...counterTablesWith(this.countersDb, 'workspace_id')].sort();
  }

  async countWorkspaceRows(table: string, workspaceId: string): Promise<number> {
    return (this.dbOf(table).prepare(`SELECT COUNT(*) AS n FROM "${table.replaceAll('"', '""')}" WHERE workspace_id = ?`).get(workspaceId) as { n: number }).n;
  }

  /** Tables with a `tenant_id` column, and how many rows of a tenant one holds (erasure checks, tests). */
  async tenantScopedTables(): Promise<string[]> {
    return [...tenantScopedTables(this.db), ...counterTablesWith(this.countersDb, 'tenant_id')].sort();
  }

  async countTenantRows(table: string, tenantId: string): Promise<number> {
    return (this.dbOf(table).prepare(`SELECT COUNT(*) AS n FROM "${table.replaceAll('"', '""')}" WHERE tenant_id = ?`).get(tenantId) as { n: number }).n;
  }

  private dbOf(table: string): Db {
    return COUNTER_TABLES.has(table) ? this.countersDb : this.db;
  }

  /** The WALs still hold page images from before the erasure: checkpoint them and truncate them to nothing. */
  async scrub(): Promise<void> {
    await this.gate.idle();
    await this.countersGate.idle();
    for (const db of [this.db, this.countersDb]) {
      if (db.memory || !db.open) continue;
      await whileLocked(() => {
        const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
        if (result?.busy) throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
      }, this.lockWaitMs).catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    this.stopCheckpoints?.();
    if (this.db.open) await this.apiKeys.flushTouches().catch(() => undefined);
    await this.gate.idle();
    await this.countersGate.idle();
    await this.writer?.close();
    await this.vectors?.close();
    this.search.release();
    if (this.db.open) this.db.close();
    if (this.countersDb.open) this.countersDb.close();
  }
}

/**
 * How long the document writer waits for the write lock at least. SQLite's busy handler polls
 * with growing sleeps, so a low-priority thread among frequent writers (ingest processes, other
 * workers) can miss the lock for seconds; its wait holds up only the upload or import awaiting it.
 */
export const WRITER_LOCK_WAIT_MS = 30_000;

export interface SqliteStoreOptions extends OpenOptions {
  /**
   * Batches of documents (`documents.insertMany`: uploads of up to 32 MB) are written by a worker
   * thread on its own connection, so the serving thread never copies their content into SQLite.
   * It waits for the write lock up to `busyTimeoutMs` or `WRITER_LOCK_WAIT_MS`, whichever is longer.
   * For a file database; `:memory:` writes in place.
   */
  offThreadDocumentWrites?: boolean;
  /** Approximate vector search for large workspaces (see VectorIndexOptions); a file database only. */
  vectorIndex?: VectorIndexOptions;
  /**
   * The trigram table behind the trigram fallback channel (default true). false drops it at open
   * (about a third of the file at 100k chunks; substring matches of fragments are lost), true
   * rebuilds it from the chunks when it is missing. See trigram-table.ts.
   */
  trigramIndex?: boolean;
  /**
   * Checkpoints the main and the counters' WAL every this many ms from this connection (a
   * background one: `panya serve`'s ingest processes), for the serving connections opened with
   * `autoCheckpoint: false`, which checkpoint neither file. See checkpoints.ts.
   */
  checkpointEveryMs?: number;
}

/** Opens (creating if needed) and migrates a SQLite store. `path: ':memory:'` for tests. */
export function openSqliteStore(options: SqliteStoreOptions): SqliteStore {
  const lockWaitMs = options.busyTimeoutMs ?? 5000;
  // The counters' file first: the main file's migration 22 moves its counter rows there.
  const counters = openCounters(options.path, lockWaitMs, options.autoCheckpoint ?? true);
  const db = openDatabase(options);
  migrate(db);
  const trigramIndex = options.trigramIndex ?? true;
  syncTrigramTable(db, trigramIndex);
  // Opening and migrating may wait synchronously (start-up); from here on, lock waits are asynchronous.
  db.pragma(`busy_timeout = ${SYNC_BUSY_TIMEOUT_MS}`);
  db.pragma(`cache_size = -${SERVING_CACHE_KIB}`);
  const offThread = options.offThreadDocumentWrites && options.path !== ':memory:';
  return new SqliteStore(db, counters, {
    lockWaitMs,
    ...(offThread ? { writer: documentWriter({ path: options.path, busyTimeoutMs: Math.max(lockWaitMs, WRITER_LOCK_WAIT_MS) }) } : {}),
    ...(options.vectorIndex ? { vectorIndex: options.vectorIndex } : {}),
    trigramIndex,
    ...(options.checkpointEveryMs ? { checkpointEveryMs: options.checkpointEveryMs } : {}),
  });
}
