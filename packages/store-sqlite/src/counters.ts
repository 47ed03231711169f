import { applyMigrations, openDatabase, Statements, SYNC_BUSY_TIMEOUT_MS, whileLocked, type Db, type Migration, type Runner } from './database.js';

/**
 * Request counters — rate-limit windows and API query events — live in a database file of their
 * own beside the main one (`<file>.counters`). Every counted search writes both; in the main file
 * those writes waited for SQLite's one write lock behind ingest commits (hundreds of ms for a large
 * document under upload load). In their own file (own WAL, own write lock) a request's writes wait
 * only for other requests' writes of a few rows. Nothing joins these tables with the main ones
 * in a transaction: a tenant's erasure and a workspace's purge delete their rows here by name.
 */
export const COUNTER_TABLES: ReadonlySet<string> = new Set(['rate_counters', 'api_query_events']);

/** The counters' file for a main database file; a `:memory:` store keeps its counters in memory too. */
export function countersPath(path: string): string {
  if (path === ':memory:') return path;
  // A `file:` URI keeps its query (`?mode=…`) after the new name.
  const query = path.startsWith('file:') ? path.indexOf('?') : -1;
  return query < 0 ? `${path}.counters` : `${path.slice(0, query)}.counters${path.slice(query)}`;
}

const migrations: Migration[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE rate_counters (
        key TEXT NOT NULL,
        win TEXT NOT NULL,
        count INTEGER NOT NULL,
        reset_at TEXT NOT NULL,
        PRIMARY KEY (key, win)
      ) WITHOUT ROWID;
      CREATE INDEX rate_counters_reset ON rate_counters(reset_at);
      CREATE TABLE api_query_events (
        id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        key_id TEXT,
        kind TEXT NOT NULL,
        tool TEXT,
        billing_period TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX api_query_events_period ON api_query_events(tenant_id, billing_period, kind);
      CREATE INDEX api_query_events_workspace ON api_query_events(tenant_id, workspace_id);
    `,
  },
];

/** The counters' connection, with a runner that waits for other connections' write locks asynchronously (as the main one does). */
export interface Counters {
  db: Db;
  sql: Statements;
  run: Runner;
}

export function openCounters(path: string, lockWaitMs: number, autoCheckpoint = true): Counters {
  const db = openDatabase({ path: countersPath(path), busyTimeoutMs: lockWaitMs, autoCheckpoint });
  applyMigrations(db, migrations);
  db.pragma(`busy_timeout = ${SYNC_BUSY_TIMEOUT_MS}`);
  return { db, sql: new Statements(db), run: (fn) => whileLocked(fn, lockWaitMs) };
}

/**
 * Before the main file drops its own counter tables (migration 22), their rows move to the
 * counters' file. Idempotent: a start interrupted between the copy and the drop copies again
 * and keeps what is there.
 */
export function moveCountersOut(main: Db): void {
  if (main.memory) return;
  const present = main.prepare("SELECT COUNT(*) AS n FROM sqlite_schema WHERE type = 'table' AND name IN ('rate_counters', 'api_query_events')").get() as { n: number };
  if (present.n === 0) return;
  main.prepare('ATTACH DATABASE ? AS counters').run(countersPath(main.name));
  try {
    main
      .transaction(() => {
        main.exec(`
          INSERT OR IGNORE INTO counters.rate_counters (key, win, count, reset_at) SELECT key, win, count, reset_at FROM main.rate_counters;
          INSERT OR IGNORE INTO counters.api_query_events (id, tenant_id, workspace_id, key_id, kind, tool, billing_period, created_at)
            SELECT id, tenant_id, workspace_id, key_id, kind, tool, billing_period, created_at FROM main.api_query_events;
        `);
      })
      .immediate();
  } finally {
    main.exec('DETACH DATABASE counters');
  }
}

/** Tables of the counters' file with a given column (erasure and purge checks list them beside the main file's). */
export function counterTablesWith(counters: Db, column: string): string[] {
  const rows = counters
    .prepare("SELECT m.name AS name FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE m.type = 'table' AND p.name = ? ORDER BY m.name")
    .all(column) as { name: string }[];
  return rows.map((r) => r.name);
}

/** A tenant's rows in the counters' file (its rate-limit windows expire on their own). */
export function eraseCounterRows(counters: Db, tenantId: string): Record<string, number> {
  const n = counters.prepare('DELETE FROM api_query_events WHERE tenant_id = ?').run(tenantId).changes;
  return n > 0 ? { api_query_events: n } : {};
}
