import { HashEmbedder } from './embedders/hash.js';
import type { Embedder } from './ports/embedder.js';
import type { Store } from './ports/store.js';
import type { Clock, Ids, Logger } from './ports/system.js';
import { createAccessService } from './services/access.js';
import { createApiKeyService } from './services/api-keys.js';
import type { ServiceDeps } from './services/context.js';
import { createDocumentService } from './services/documents.js';
import { createIngestService, type IngestOptions } from './services/ingest.js';
import { createIngestWorker } from './services/ingest-worker.js';
import { createSearchService, type SearchOptions } from './services/search.js';
import type { JobContext } from './jobs/index.js';
import { createJobService } from './services/jobs.js';
import { createLimitsService } from './services/limits.js';
import { createQueryService } from './services/queries.js';
import { createTenancyService } from './services/tenancy.js';
import { createUsageService } from './services/usage.js';
import { createUserService } from './services/users.js';
import { createIds, silentLogger, systemClock } from './system.js';

export interface EngineOptions {
  store: Store;
  /** Defaults to the built-in `hash` embedder (no model, deterministic). */
  embedder?: Embedder;
  clock?: Clock;
  ids?: Ids;
  logger?: Logger;
  search?: SearchOptions;
  ingest?: IngestOptions & { pollMs?: number };
  /** Meter event names at the payment processor; the usage reporter idles until one is set. */
  meterEventNames?: JobContext['meterEventNames'];
}

/**
 * The library's entry point: every service wired to one store. Adapters only translate to it.
 * Call `start()` to run the in-process ingest worker; `close()` stops it and closes the store.
 */
export function createEngine(options: EngineOptions) {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger;
  const embedder = options.embedder ?? new HashEmbedder();
  const deps: ServiceDeps = { store: options.store, clock, ids: options.ids ?? createIds(clock), logger };
  const ingest = createIngestService({ ...deps, embedder }, options.ingest);
  const search = createSearchService({ ...deps, embedder }, options.search);
  const limits = createLimitsService(deps);
  const usage = createUsageService(deps);
  const worker = createIngestWorker(ingest, options.store, { logger, ...(options.ingest?.pollMs ? { pollMs: options.ingest.pollMs } : {}) });
  return {
    deps,
    store: options.store,
    embedder,
    tenancy: createTenancyService(deps),
    apiKeys: createApiKeyService(deps),
    access: createAccessService(deps),
    documents: createDocumentService({ ...deps, indexing: worker, ingest, worker }),
    search,
    limits,
    usage,
    queries: createQueryService({ limits, usage, search }),
    users: createUserService(deps),
    jobs: createJobService({ ...deps, embedder, ensureIndex: ingest.ensureIndexInfo, ...(options.meterEventNames ? { meterEventNames: options.meterEventNames } : {}) }),
    ingest,
    worker,
    /** Checks the index against the embedder (a mismatch throws, pointing to reindex) and starts the worker. */
    async start() {
      await ingest.ensureIndexInfo();
      worker.start();
    },
    async close() {
      await worker.stop();
      await options.store.close();
    },
  };
}

export type Engine = ReturnType<typeof createEngine>;
