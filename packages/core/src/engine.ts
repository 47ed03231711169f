import type { Embedder } from './ports/embedder.js';
import type { Store } from './ports/store.js';
import type { Clock, Ids, Logger } from './ports/system.js';
import { createAccessService } from './services/access.js';
import { createApiKeyService } from './services/api-keys.js';
import type { ServiceDeps } from './services/context.js';
import { createDocumentService, type IndexingNotifier } from './services/documents.js';
import { createTenancyService } from './services/tenancy.js';
import { createIds, silentLogger, systemClock } from './system.js';

export interface EngineOptions {
  store: Store;
  embedder?: Embedder;
  clock?: Clock;
  ids?: Ids;
  logger?: Logger;
  indexing?: IndexingNotifier;
}

/** The library's entry point: every service wired to one store. Adapters only translate to it. */
export function createEngine(options: EngineOptions) {
  const clock = options.clock ?? systemClock;
  const deps: ServiceDeps = {
    store: options.store,
    clock,
    ids: options.ids ?? createIds(clock),
    logger: options.logger ?? silentLogger,
  };
  return {
    deps,
    store: options.store,
    tenancy: createTenancyService(deps),
    apiKeys: createApiKeyService(deps),
    access: createAccessService(deps),
    documents: createDocumentService({ ...deps, ...(options.indexing ? { indexing: options.indexing } : {}) }),
    async close() {
      await options.store.close();
    },
  };
}

export type Engine = ReturnType<typeof createEngine>;
