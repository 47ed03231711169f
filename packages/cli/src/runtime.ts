import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { configureIndexCache, createEngine, defaultIndexCacheBytes, parseHelpHost, silentLogger, type EdgeProvider, type Engine, type IngestOptions, type IngestRunner, type Logger, type Store } from '@panya/core';
import { createEdgeProvider, isEdgeConfigError, parseEdgeConfig } from '@panya/edge';
import { createStripePaymentProcessor, isStripeConfigError, stripeConfigFromEnv } from '@panya/payment-stripe';
import { apiHostnamesOf, ConfigError } from './config.js';
import type { EnvConfig } from './config.js';
import { selectEmbedder } from './embedder.js';
import { ingestRoundPermit, openSqliteStore, SqliteStore } from '@panya/store-sqlite';
import pino from 'pino';
import pinoPretty from 'pino-pretty';

/** Where CLI commands write: injectable so commands are testable in-process. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
}

export const processIo: Io = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
};

/**
 * Logs on stderr, so stdout stays for command output: one readable line per entry when a person watches (a TTY),
 * structured JSON (pino) for log collectors otherwise.
 */
export function createLogger(level: string, pretty: boolean = Boolean(process.stderr.isTTY)): Logger {
  const destination = pretty ? pinoPretty({ destination: 2, sync: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname', singleLine: true }) : pino.destination(2);
  const log = pino({ level, base: undefined }, destination);
  return {
    debug: (msg, data) => log.debug(data ?? {}, msg),
    info: (msg, data) => log.info(data ?? {}, msg),
    warn: (msg, data) => log.warn(data ?? {}, msg),
    error: (msg, data) => log.error(data ?? {}, msg),
  };
}

export interface OpenEngineOptions {
  db: string;
  logger?: Logger;
  /** Told when a new SQLite database is created (default: the logger, at info). */
  notice?: (message: string) => void;
  /** Which embedder to load; commands that never embed leave it unset (the built-in hash). */
  embedder?: EnvConfig['PANYA_EMBEDDER'];
  env?: EnvConfig;
  /** Runs the ingest queue elsewhere (`panya serve`'s worker threads). */
  ingestRunner?: IngestRunner;
  /** Called after every in-process ingest round. */
  onRound?: () => void;
  /** Custom-hostname edge provider and CNAME target (`PANYA_EDGE_*`). */
  edge?: { provider: EdgeProvider; target: string | null };
  /** Stripe checkout, subscriptions and meter events (`PANYA_STRIPE_*`, `PANYA_PRICE_*`, `PANYA_METER_*`). */
  payments?: PaymentsFromEnv;
  /** Who this process's ingest leases name (`serve` only: a restart reclaims the previous run's). */
  ingestHolder?: IngestOptions['holder'];
  /** A SQLite file's ingest rounds at a time, among all its processes and threads (`serve`'s ingest processes). */
  ingestRoundsPerFile?: number;
  /**
   * A SQLite connection that serves requests while ingest processes write: they checkpoint the WAL,
   * it does not, and uploads are written by a thread of their own.
   */
  serving?: boolean;
  /** A SQLite connection that checkpoints the WALs on a timer for the serving connections (`serve`'s ingest processes). */
  checkpoints?: boolean;
}

/** Opens the store behind `--db` and wires the engine. */
export async function openEngine({ db, logger, embedder, env, ingestRunner, onRound, edge, ingestHolder, ingestRoundsPerFile, payments, notice, serving, checkpoints }: OpenEngineOptions): Promise<Engine> {
  const log = logger ?? silentLogger;
  if (env) {
    // One budget per process: `serve` shares the default between its workers.
    const processes = serving ? (env.PANYA_WORKERS ?? availableParallelism()) : 1;
    configureIndexCache(env.PANYA_INDEX_CACHE_MB ? env.PANYA_INDEX_CACHE_MB * 1024 * 1024 : defaultIndexCacheBytes(processes));
  }
  const store = await openStore(db, notice ?? ((message) => log.info(message)), serving ?? false, { vectorIndex: env?.PANYA_VECTOR_INDEX ?? 'hnsw', trigramIndex: env?.PANYA_TRIGRAM_INDEX ?? 'on' }, checkpoints ?? false);
  try {
    return await wire(store);
  } catch (error) {
    // A provider that cannot be configured leaves nothing open behind it.
    await store.close().catch(() => undefined);
    throw error;
  }

  async function wire(store: Store): Promise<Engine> {
    const chosen = embedder && env ? await selectEmbedder(embedder, env, store, log) : undefined;
    const generator = env?.PANYA_GENERATOR === 'openai' ? await openAIGenerator(env) : undefined;
    const permit = ingestRoundsPerFile && store instanceof SqliteStore && !store.db.memory && !store.db.name.startsWith('file:') ? ingestRoundPermit(store.db.name, ingestRoundsPerFile) : undefined;
    return createEngine({
      store,
      logger: log,
      ...(chosen ? { embedder: chosen } : {}),
      ...(generator ? { generator } : {}),
      ...(generator && env?.PANYA_CONTEXTUALIZE ? { contextualizer: generator } : {}),
      ...(ingestRunner ? { ingestRunner } : {}),
      ...(ingestHolder ? { holder: { node: ingestHolder.node, incarnation: ingestHolder.incarnation } } : {}),
      ...(onRound || ingestHolder || permit ? { ingest: { ...(onRound ? { onRound } : {}), ...(ingestHolder ? { holder: ingestHolder } : {}), ...(permit ? { permit } : {}) } } : {}),
      ...(edge ? { edge: edge.provider, ...(edge.target ? { edgeTarget: edge.target } : {}) } : {}),
      ...(env?.PANYA_HELP_HOST ? { helpHost: parseHelpHost(env.PANYA_HELP_HOST) } : {}),
      ...(env ? { apiHostnames: apiHostnamesOf(env), reservedHostnames: env.PANYA_RESERVED_HOSTNAMES } : {}),
      ...(payments ? { payments: payments.billing, meterEventNames: payments.meterEventNames } : {}),
      ...(env ? { search: { resultCache: { maxBytes: env.PANYA_SEARCH_CACHE_MB * 1024 * 1024 } } } : {}),
    });
  }
}

/** How often an ingest process checkpoints the SQLite WALs for the serving connections. */
const CHECKPOINT_EVERY_MS = 1_000;

/**
 * `postgres://…` opens PostgreSQL (loaded only then, so SQLite users never load pg); another
 * `scheme://` is a mistake, refused; anything else is a SQLite file, whose creation is announced
 * (a mistyped path would otherwise silently start an empty database).
 */
async function openStore(
  db: string,
  notice: (message: string) => void,
  serving: boolean,
  search: { vectorIndex: EnvConfig['PANYA_VECTOR_INDEX']; trigramIndex: EnvConfig['PANYA_TRIGRAM_INDEX'] },
  checkpoints: boolean,
): Promise<Store> {
  if (/^postgres(ql)?:\/\//i.test(db)) {
    const { openPostgresStore } = await import('@panya/store-postgres');
    return openPostgresStore({ connectionString: db });
  }
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(db);
  if (scheme) throw new ConfigError(`PANYA_DB (or --db): unsupported database URL "${scheme[1]}://…"; use a SQLite file path or a postgres:// URL.`);
  if (db !== ':memory:' && !existsSync(db)) notice(`Creating a new SQLite database at ${resolve(db)}`);
  return openSqliteStore({
    path: db,
    autoCheckpoint: !serving,
    ...(checkpoints ? { checkpointEveryMs: CHECKPOINT_EVERY_MS } : {}),
    offThreadDocumentWrites: serving,
    vectorIndex: { mode: search.vectorIndex },
    trigramIndex: search.trigramIndex === 'on',
  });
}

async function openAIGenerator(env: EnvConfig) {
  const { OpenAIGenerator } = await import('@panya/provider-openai');
  return new OpenAIGenerator({
    model: env.PANYA_CHAT_MODEL,
    ...(env.PANYA_OPENAI_BASE_URL ? { baseUrl: env.PANYA_OPENAI_BASE_URL } : {}),
    ...(env.PANYA_OPENAI_API_KEY ? { apiKey: env.PANYA_OPENAI_API_KEY } : {}),
  });
}

/** The edge provider from `PANYA_EDGE_*`; a mistake stops the start naming the variable. */
export function edgeFromEnv(env: NodeJS.ProcessEnv, logger: Logger): { provider: EdgeProvider; target: string | null } {
  try {
    const config = parseEdgeConfig(env);
    // Custom hostnames route requests by Host: the API's own hostname must be known, or a tenant could claim it.
    if (config.provider !== 'none' && !env.PANYA_BASE_URL?.trim()) {
      throw new ConfigError(
        `Invalid environment configuration:\n  PANYA_BASE_URL: is required with PANYA_EDGE_PROVIDER=${config.provider} (the API's public address, e.g. https://api.example.com; its hostname can never be registered as a custom hostname)`,
      );
    }
    return { provider: createEdgeProvider(config, logger), target: config.provider === 'none' ? null : config.edgeTarget };
  } catch (error) {
    if (isEdgeConfigError(error)) throw new ConfigError(`Invalid environment configuration:\n  ${error.message}`);
    throw error;
  }
}

type PaymentsFromEnv = { billing: NonNullable<Parameters<typeof createEngine>[0]['payments']>; meterEventNames: NonNullable<Parameters<typeof createEngine>[0]['meterEventNames']> };

/** Stripe from `PANYA_STRIPE_*`, `PANYA_PRICE_*`, `PANYA_METER_*`; none set: billing is off. A mistake stops the start naming the variable. */
export function paymentsFromEnv(env: NodeJS.ProcessEnv): PaymentsFromEnv | undefined {
  try {
    const config = stripeConfigFromEnv(env);
    if (!config) return undefined;
    const billing = { processor: createStripePaymentProcessor(config), catalog: config.catalog, ...(env.PANYA_BASE_URL ? { returnUrl: env.PANYA_BASE_URL } : {}) };
    return { billing, meterEventNames: config.meterEventNames };
  } catch (error) {
    if (isStripeConfigError(error)) throw new ConfigError(`Invalid environment configuration:\n  ${error.message}`);
    throw error;
  }
}
