/**
 * The composition root: an engine built from environment variables exactly as `panya serve`
 * builds it — the store behind `PANYA_DB`, the embedder (`PANYA_EMBEDDER`…), the generator
 * (`PANYA_GENERATOR`…), the help host, the custom-hostname edge (`PANYA_EDGE_*`) and billing
 * (`PANYA_STRIPE_*`…) — so a self-hoster embedding the server writes
 * `const panya = await createPanyaFromEnv(process.env)` instead of copying the CLI's wiring.
 */
import { parseTrustProxy } from '@panya/adapter-express';
import type { Engine, IngestOptions, IngestRunner, Logger } from '@panya/core';
import type { PanyaAppOptions } from '@panya/adapter-express';
import { loadEnv, type EnvConfig } from './config.js';
import { createLogger, edgeFromEnv, openEngine, paymentsFromEnv } from './runtime.js';

export interface PanyaFromEnvOptions {
  /** Where the engine logs (default: pino on stderr at `PANYA_LOG_LEVEL`). */
  logger?: Logger;
  /** Replaces `PANYA_DB` (the CLI's `--db`). */
  db?: string;
  /** Replaces `PANYA_EMBEDDER` (the CLI's `--embedder`). */
  embedder?: EnvConfig['PANYA_EMBEDDER'];
  /** Told when a new SQLite database is created (default: the logger, at info). */
  notice?: (message: string) => void;
  /** Who this process's ingest leases name: a restart reclaims the previous run's. */
  ingestHolder?: IngestOptions['holder'];
  /** Runs the ingest queue elsewhere (worker threads); the store then serves requests only. */
  ingestRunner?: IngestRunner;
  /** The edge and billing already built from this environment (the CLI checks them before forking workers). */
  edge?: ReturnType<typeof edgeFromEnv>;
  payments?: ReturnType<typeof paymentsFromEnv>;
}

/**
 * Opens the store and wires the engine from `env`. A configuration mistake rejects with a
 * `ConfigError` naming the setting (`PANYA_EMBEDDER: Invalid option…`, `PANYA_DB (or --db):
 * unsupported database URL…`) before anything is opened. The caller starts (`start()`) and closes
 * (`close()`) the engine; `panyaAppOptionsFromEnv(env)` gives the matching HTTP settings.
 */
export async function createPanyaFromEnv(env: NodeJS.ProcessEnv = process.env, options: PanyaFromEnvOptions = {}): Promise<Engine> {
  const config = loadEnv(env);
  const logger = options.logger ?? createLogger(config.PANYA_LOG_LEVEL);
  const edge = options.edge ?? edgeFromEnv(env, logger);
  const payments = 'payments' in options ? options.payments : paymentsFromEnv(env);
  return openEngine({
    db: options.db ?? config.PANYA_DB,
    logger,
    env: config,
    embedder: options.embedder ?? config.PANYA_EMBEDDER,
    edge,
    ...(payments ? { payments } : {}),
    ...(options.notice ? { notice: options.notice } : {}),
    ...(options.ingestHolder ? { ingestHolder: options.ingestHolder } : {}),
    ...(options.ingestRunner ? { ingestRunner: options.ingestRunner, serving: true } : {}),
  });
}

/** The HTTP settings `panya serve` reads from the environment: cron and session secrets, secure cookies, the API hostname, trusted proxies. */
export function panyaAppOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): Pick<PanyaAppOptions, 'cronSecret' | 'sessionSecret' | 'secureCookies' | 'helpCenter' | 'trustProxy' | 'baseUrl'> {
  const config = loadEnv(env);
  return {
    secureCookies: config.PANYA_BASE_URL?.startsWith('https:') ?? false,
    ...(config.PANYA_BASE_URL ? { helpCenter: { apiHostname: new URL(config.PANYA_BASE_URL).hostname }, baseUrl: config.PANYA_BASE_URL } : {}),
    ...(config.PANYA_CRON_SECRET ? { cronSecret: config.PANYA_CRON_SECRET } : {}),
    ...(config.PANYA_SESSION_SECRET ? { sessionSecret: config.PANYA_SESSION_SECRET } : {}),
    ...(config.PANYA_TRUST_PROXY !== undefined ? { trustProxy: parseTrustProxy(config.PANYA_TRUST_PROXY) } : {}),
  };
}
