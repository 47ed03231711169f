import type { Store, StoreCapabilities, StoreHealth } from '@panya/core';
import { kitAggregates } from '@panya/core/rows';
import pg from 'pg';
import { ident, names, PoolConn, type Conn, type Names } from './database.js';
import { workspaceScopedTables } from './workspace-cascade.js';
import { eraseTenantRows, tenantScopedTables } from './tenant-erasure.js';
import { PgDocuments } from './documents.js';
import { PgDriver } from './sql-driver.js';
import { migrate, migrations } from './migrations.js';
import { PgSearchIndex, type LexicalWeights, type VectorIndexOptions } from './search-index.js';

export interface PostgresStoreOptions {
  /** `postgres://user:pass@host:5432/db`; default `PANYA_DB` when that is a postgres URL. */
  connectionString?: string;
  /** A pool you own: the store never ends it (`close()` only detaches). Wins over `connectionString`. */
  pool?: pg.Pool;
  /** Schema holding Panya's tables, created if missing (default: `?schema=` of the connection string, else `public`). */
  schema?: string;
  /** Size of the pool the store creates (default 10). */
  max?: number;
  lexicalWeights?: LexicalWeights;
  vectorIndex?: VectorIndexOptions;
}

interface Config {
  names: Names;
  lexicalWeights?: LexicalWeights;
  vectorIndex?: VectorIndexOptions;
}

function aggregates(db: Conn, config: Config, shared: boolean) {
  const n = config.names;
  const search = new PgSearchIndex(db, n, config.lexicalWeights, config.vectorIndex, shared);
  const kit = new PgDriver(db, n);
  return {
    // Outside a transaction, the query events of concurrent requests are written together.
    ...kitAggregates(kit, { search, eraseTenant: (id) => eraseTenantRows(db, n, id), groupCommit: shared }),
    documents: new PgDocuments(kit),
    search,
  };
}

async function storeHealth(conn: Conn, n: Names): Promise<StoreHealth> {
  const { rows } = await conn.query<{ v: number | null; queued: string }>(
    `SELECT (SELECT max(version) FROM ${n.t('panya_migrations')}) AS v,
            (SELECT COUNT(*) FROM ${n.t('documents')} WHERE status IN ('pending', 'indexing')) AS queued`,
  );
  return { schemaVersion: rows[0]?.v ?? 0, latestSchemaVersion: migrations.at(-1)!.version, queuedDocuments: Number(rows[0]?.queued ?? 0) };
}

/** A transaction's view of the store: every aggregate on the transaction's connection. */
function transactionView(conn: Conn, config: Config, close: () => Promise<void>): Store {
  const view: Store = {
    capabilities: CAPABILITIES,
    ...aggregates(conn, config, false),
    // Nested transactions are savepoints: an inner failure rolls back only the inner block.
    transaction: (fn) => conn.atomic((inner) => fn(transactionView(inner, config, close))),
    health: () => storeHealth(conn, config.names),
    close,
  };
  return view;
}

/** Every node opens the same database; no batch insert of documents (core writes them one by one in a transaction). */
const CAPABILITIES: StoreCapabilities = { batchInsert: false, sharedDatabase: true };

export class PostgresStore implements Store {
  readonly capabilities = CAPABILITIES;
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
  private readonly root: PoolConn;
  /** The storage kit's driver on this store's pool (the aggregates written once use it). */
  readonly kit: PgDriver;
  private closed = false;

  constructor(
    readonly pool: pg.Pool,
    private readonly config: Config,
    private readonly ownsPool: boolean,
  ) {
    this.root = new PoolConn(pool);
    this.kit = new PgDriver(this.root, config.names);
    const root = aggregates(this.root, config, true);
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
  }

  /** The schema holding the store's tables. */
  get schema(): string {
    return this.config.names.schema;
  }

  /** Tables with a `workspace_id` column, and how many rows of a workspace one holds (schema checks, tests). */
  workspaceScopedTables(): Promise<string[]> {
    return workspaceScopedTables(this.root, this.config.names);
  }

  async countWorkspaceRows(table: string, workspaceId: string): Promise<number> {
    const { rows } = await this.root.query<{ n: string }>(`SELECT COUNT(*) AS n FROM ${this.config.names.t(ident(table))} WHERE workspace_id = $1`, [workspaceId]);
    return Number(rows[0]!.n);
  }

  /** Tables with a `tenant_id` column, and how many rows of a tenant one holds (erasure checks, tests). */
  tenantScopedTables(): Promise<string[]> {
    return tenantScopedTables(this.root, this.config.names);
  }

  async countTenantRows(table: string, tenantId: string): Promise<number> {
    const { rows } = await this.root.query<{ n: string }>(`SELECT COUNT(*) AS n FROM ${this.config.names.t(ident(table))} WHERE tenant_id = $1`, [tenantId]);
    return Number(rows[0]!.n);
  }

  /** BEGIN … COMMIT on one pooled connection; ROLLBACK when `fn` throws. */
  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T> {
    return this.root.atomic((conn) => fn(transactionView(conn, this.config, () => this.close())));
  }

  health(): Promise<StoreHealth> {
    if (this.closed) return Promise.reject(new Error('the store is closed'));
    return storeHealth(this.root, this.config.names);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.apiKeys.flushTouches().catch(() => undefined);
    this.closed = true;
    this.search.release();
    if (this.ownsPool) await this.pool.end();
  }
}

/** Whether a `--db` / `PANYA_DB` value names a PostgreSQL database rather than a SQLite file. */
export function isPostgresUrl(value: string | undefined): value is string {
  return value !== undefined && /^postgres(ql)?:\/\//i.test(value);
}

/**
 * `?schema=name` in a connection string picks the schema (the only way to choose one from
 * `--db` / `PANYA_DB`); it is removed before the string reaches pg.
 */
function splitSchema(connectionString: string | undefined): { connectionString: string; schema?: string } | undefined {
  if (connectionString === undefined) return undefined;
  const match = /[?&]schema=([^&#]*)/.exec(connectionString);
  if (!match) return { connectionString };
  const rest = connectionString.replace(/([?&])schema=[^&#]*&?/, '$1').replace(/[?&]$/, '');
  return { connectionString: rest, schema: decodeURIComponent(match[1]!) };
}

/**
 * Connects (own pool from a connection string, or the pool you pass), creates the schema and
 * the extensions if missing, applies pending migrations under an advisory lock, and returns
 * the store.
 */
export async function openPostgresStore(options: PostgresStoreOptions = {}): Promise<PostgresStore> {
  const envUrl = process.env.PANYA_DB;
  const url = splitSchema(options.connectionString ?? (options.pool || !isPostgresUrl(envUrl) ? undefined : envUrl));
  const schema = options.schema ?? url?.schema ?? 'public';
  if (schema.length === 0 || Buffer.byteLength(schema) > 63) throw new Error(`Invalid schema name "${schema}".`);
  let pool = options.pool;
  const ownsPool = !pool;
  if (!pool) {
    if (!url) throw new Error('openPostgresStore needs a connectionString, a pool, or PANYA_DB=postgres://…');
    pool = new pg.Pool({ connectionString: url.connectionString, max: options.max ?? 10 });
    // An idle connection dropped by the server must not crash the process; the next query reconnects.
    pool.on('error', () => undefined);
  }
  try {
    const ext = await migrate(pool, schema);
    return new PostgresStore(pool, { names: names(schema, ext.vector, ext.trgm), lexicalWeights: options.lexicalWeights, vectorIndex: options.vectorIndex }, ownsPool);
  } catch (error) {
    if (ownsPool) await pool.end().catch(() => undefined);
    throw error;
  }
}
