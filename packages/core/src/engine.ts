import { checkEmbedder, checkGenerator } from './search/embedder-batches.js';
import { HashEmbedder } from './search/hash-embedder.js';
import { ExtractiveGenerator } from './answers/extractive.js';
import type { Contextualizer, Generator } from './answers/ports/generator.js';
import { createAnswerService } from './answers/answer.js';
import { createChatService } from './answers/chat.js';
import { createCuratedAnswerService } from './answers/curated-answers.js';
import { createEvalService } from './answers/evaluation.js';
import { createConversationService, createMessageSignal } from './answers/conversations.js';
import { createInboxService } from './support/inbox.js';
import { createInsightsService, oneAtATime } from './insights/insights.js';
import { createPersonaService } from './answers/personas.js';
import { createTicketService } from './support/tickets.js';
import { createVisitorService } from './support/visitors.js';
import { createVisitorIdentityService } from './tenancy/visitor-identity.js';
import { createCustomerService } from './support/customers.js';
import { countResolutions } from './billing/resolutions.js';
import type { Embedder } from './search/ports/embedder.js';
import type { PaymentProcessor } from './billing/ports/payment.js';
import type { PriceCatalog } from './billing/catalog.js';
import type { Scope, Store } from './ports/store.js';
import type { Clock, Ids, Logger } from './ports/system.js';
import { createAccessService } from './tenancy/access.js';
import { createIdempotencyService } from './api/idempotency.js';
import { createApiKeyService } from './tenancy/api-keys.js';
import { createAuthService } from './tenancy/authenticate.js';
import type { ServiceDeps } from './context.js';
import { createDocumentService } from './knowledge/documents.js';
import { createConnectorService } from './knowledge/connectors.js';
import { createTenantSettingsService } from './tenancy/tenant-settings.js';
import { createAuditService, type AuditService } from './audit/audit.js';
import { createPrivacyService, type PrivacyService } from './privacy/privacy.js';
import { createFlowService } from './support/flows.js';
import { createBillingService, type BillingOptions } from './billing/billing.js';
import { createHostnameService, noEdgeProvider } from './hostnames/hostnames.js';
import { createHelpCenterService } from './hostnames/help-center.js';
import { createHostLookupCache } from './hostnames/host-cache.js';
import { reservedHostnames } from './hostnames/reserved.js';
import { createErasureService } from './hostnames/erasure.js';
import type { HelpHost } from './hostnames/help-center-rules.js';
import type { EdgeProvider } from './hostnames/ports/edge.js';
import { CONTEXTUALIZATION_METER, createIngestService, type IngestOptions, type IngestService } from './knowledge/ingest.js';
import { createIngestWorker, type IngestRunner, type IngestWorker, type RoundPermit } from './knowledge/ingest-worker.js';
import { createSearchService, type SearchOptions } from './search/search.js';
import { createApi, type Api } from './api/api.js';
import { OPERATIONS, type Operation } from './api/index.js';
import { difyRetrieval } from './search/dify-operations.js';
import { createInstruments } from './instruments.js';
import { checkReadiness, type Readiness } from './readiness.js';
import type { JobContext } from './jobs/index.js';
import { createJobService, type LeaseHolder } from './jobs/jobs.js';
import { createLimitsService } from './billing/limits.js';
import { createQueryService } from './search/queries.js';
import { createTenancyService } from './tenancy/tenancy.js';
import { createUsageService } from './tenancy/usage.js';
import { createUserService } from './tenancy/users.js';
import { createSsoService } from './tenancy/sso.js';
import { createWorkspaceService } from './tenancy/workspaces.js';
import { createIds, silentLogger, systemClock } from './system.js';

export interface EngineOptions {
  store: Store;
  /** Defaults to the built-in `hash` embedder (no model, deterministic), computed at query time (nothing stored). */
  embedder?: Embedder;
  clock?: Clock;
  ids?: Ids;
  logger?: Logger;
  search?: SearchOptions;
  ingest?: IngestOptions & { pollMs?: number; onRound?: () => void; permit?: RoundPermit };
  /** Runs the ingest queue off this thread (e.g. `panya serve`'s worker threads); default: in-process. */
  ingestRunner?: IngestRunner;
  /** Defaults to the extractive generator (no model). */
  generator?: Generator;
  /** Writes a context prefix for each chunk at ingest (billable; `PANYA_CONTEXTUALIZE`). */
  contextualizer?: Contextualizer;
  /** Meter event names at the payment processor; the usage reporter idles until one is set. */
  meterEventNames?: JobContext['meterEventNames'];
  /** Custom-hostname registration and cache purge (`PANYA_EDGE_PROVIDER`); none by default. */
  edge?: EdgeProvider;
  /** `PANYA_EDGE_TARGET`: the CNAME target of every custom hostname. */
  edgeTarget?: string;
  /** `PANYA_HELP_HOST` (see `parseHelpHost`): where help centers answer at `/{tenantSlug}/…`. */
  helpHost?: HelpHost;
  /** The API's own hostnames (`PANYA_BASE_URL`'s, the server's `HOST`): never a custom hostname, never a help center. */
  apiHostnames?: string[];
  /** `PANYA_RESERVED_HOSTNAMES`: names (with their subdomains) no tenant may register as a custom hostname. */
  reservedHostnames?: string[];
  /** Checkout, subscriptions and meter events; absent: billing is off. */
  payments?: BillingOptions;
  /** This process as holder of job leases; `start()` frees what its node's earlier runs held. */
  holder?: LeaseHolder;
}

/**
 * The library's entry point: every service wired to one store. Adapters, the CLI and library users
 * reach the data only through these services; the store and the ingest worker stay inside.
 */
export interface Engine {
  /**
   * The request pipeline every door calls (HTTP, MCP, the help center, Dify, library code):
   * `engine.api(operationId, credentials, addressing, rawInput)` runs authentication, scope,
   * publishable-key rules, idempotency, validation, rate limits, the operation and its usage event
   * in one order. `engine.api.search` / `.answer` are typed shortcuts.
   */
  readonly api: Api;
  /** The configured providers (their ids name the index and the answers). */
  readonly embedder: Embedder;
  readonly generator: Generator;
  /** Where the engine logs; adapters log through it too. */
  readonly logger: Logger;
  readonly tenancy: ReturnType<typeof createTenancyService>;
  readonly workspaces: ReturnType<typeof createWorkspaceService>;
  readonly customers: ReturnType<typeof createCustomerService>;
  readonly apiKeys: ReturnType<typeof createApiKeyService>;
  readonly access: ReturnType<typeof createAccessService>;
  /** `Idempotency-Key` on POST routes. */
  readonly idempotency: ReturnType<typeof createIdempotencyService>;
  readonly auth: ReturnType<typeof createAuthService>;
  readonly documents: ReturnType<typeof createDocumentService>;
  readonly connectors: ReturnType<typeof createConnectorService>;
  readonly settings: ReturnType<typeof createTenantSettingsService>;
  /** The tenant's audit log: record a change (`record`), read, export and verify the chain. */
  readonly audit: AuditService;
  /** The workspace's personal-data redaction and conversation retention. */
  readonly privacy: PrivacyService;
  readonly search: ReturnType<typeof createSearchService>;
  readonly limits: ReturnType<typeof createLimitsService>;
  readonly usage: ReturnType<typeof createUsageService>;
  readonly queries: ReturnType<typeof createQueryService>;
  readonly answers: ReturnType<typeof createAnswerService>;
  readonly chat: ReturnType<typeof createChatService>;
  /** A workspace's approved answers; `match(scope, question)` says whether one covers a question. */
  readonly curatedAnswers: ReturnType<typeof createCuratedAnswerService>;
  /** A workspace's evaluation sets and runs. */
  readonly evals: ReturnType<typeof createEvalService>;
  readonly conversations: ReturnType<typeof createConversationService>;
  readonly tickets: ReturnType<typeof createTicketService>;
  readonly personas: ReturnType<typeof createPersonaService>;
  readonly visitors: ReturnType<typeof createVisitorService>;
  readonly visitorIdentity: ReturnType<typeof createVisitorIdentityService>;
  readonly inbox: ReturnType<typeof createInboxService>;
  /** Content gaps and feedback traced to passages. */
  readonly insights: ReturnType<typeof createInsightsService>;
  readonly users: ReturnType<typeof createUserService>;
  /** Single sign-on for the admin app, per tenant (OpenID Connect). */
  readonly sso: ReturnType<typeof createSsoService>;
  readonly hostnames: ReturnType<typeof createHostnameService>;
  readonly helpCenter: ReturnType<typeof createHelpCenterService>;
  readonly erasure: ReturnType<typeof createErasureService>;
  readonly billing: ReturnType<typeof createBillingService>;
  readonly flows: ReturnType<typeof createFlowService>;
  readonly jobs: ReturnType<typeof createJobService>;
  /** The ingest queue: drain it in process, re-index a tenant or the whole index, count its documents. */
  readonly ingest: IngestService;
  /** Latency callbacks for metrics (`onSearch`). */
  readonly instruments: ReturnType<typeof createInstruments>;
  /** Database reachable, migrations current, ingest worker running (`/readyz`); with the queue depth. */
  readiness(): Promise<Readiness>;
  /**
   * Process-level: documents were queued elsewhere (another thread or process), so the ingest
   * worker looks at the queue now rather than at its next poll.
   */
  wakeIngest(): void;
  /** Checks the index against the embedder (a mismatch throws, pointing to reindex) and starts the ingest worker. */
  start(): Promise<void>;
  /** Stops the ingest worker and closes the store. */
  close(): Promise<void>;
}

/** What only tests reach past the services for (`engineInternals` in `@panya/core/testing`). */
export interface EngineInternals {
  store: Store;
  deps: ServiceDeps;
  worker: IngestWorker;
}

/** Registry symbol, so a test's copy of core finds the internals of the engine another copy built. */
export const ENGINE_INTERNALS = Symbol.for('panya.engine.internals');

export function createEngine(options: EngineOptions): Engine {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger;
  // No model: hash vectors are computed at query time over the candidates, never stored.
  const embedder = options.embedder ?? new HashEmbedder({ queryTime: true });
  const deps: ServiceDeps = { store: options.store, clock, ids: options.ids ?? createIds(clock), logger };
  const generator = options.generator ?? new ExtractiveGenerator();
  checkEmbedder(embedder);
  checkGenerator(generator);
  const instruments = createInstruments();
  const search = createSearchService({ ...deps, embedder, searched: instruments.searched, answeredFromCache: instruments.answeredFromCache }, options.search);
  const limits = createLimitsService(deps);
  const usage = createUsageService({ ...deps, countResolutions: (tenantId, period) => countResolutions(options.store, tenantId, period) });
  const queries = createQueryService({ limits, usage });
  const contextualize = options.contextualizer
    ? { contextualizer: options.contextualizer, recordUsage: (tenantId: string, workspaceId: string, calls: number, data: Record<string, unknown>) => usage.recordUsage(tenantId, workspaceId, CONTEXTUALIZATION_METER, calls, data) }
    : {};
  const ingest = createIngestService({ ...deps, embedder, ...contextualize }, options.ingest);
  const edge = options.edge ?? noEdgeProvider;
  const hosts = createHostLookupCache(clock);
  const reserved = reservedHostnames({ apiHostnames: options.apiHostnames ?? [], helpHostname: options.helpHost?.hostname ?? null, edgeTarget: options.edgeTarget ?? null, deny: options.reservedHostnames ?? [] });
  const hostnames = createHostnameService({ ...deps, edge, edgeTarget: options.edgeTarget ?? null, hostsChanged: hosts.clear, reserved });
  // A revoked embedded key: the pages that carried it are purged (the next render provisions a new one).
  const apiKeys = createApiKeyService({ ...deps, revoked: async (key) => key.embeddedKey && key.workspaceId && helpCenter.siteChanged({ tenantId: key.tenantId, workspaceId: key.workspaceId }) });
  const helpCenter = createHelpCenterService({ ...deps, edge, helpHost: options.helpHost ?? null, search, apiKeys, hosts, reserved });
  const curatedAnswers = createCuratedAnswerService(deps);
  const sources = { curated: curatedAnswers, articleBase: helpCenter.articleBase };
  const answers = createAnswerService({ ...deps, ...sources, generator, search, queries });
  const erasure = createErasureService({ ...deps, helpHost: options.helpHost ?? null, purge: helpCenter.sendPurge, hostsChanged: hosts.clear });
  /** A plan change (operator or payment processor): hostnames go inactive or back, and their cached pages go. */
  const planChanged = async (tenantId: string) => {
    const records = await hostnames.applyPlan(tenantId);
    await helpCenter.hostnamesChanged(tenantId);
    return records;
  };
  const tenancy = createTenancyService(deps, { limitsChanged: planChanged });
  const access = createAccessService(deps);
  const users = createUserService(deps);
  const messages = createMessageSignal();
  const worker = createIngestWorker(ingest, options.store, {
    logger,
    ...(options.ingest?.pollMs ? { pollMs: options.ingest.pollMs } : {}),
    ...(options.ingest?.onRound ? { onRound: options.ingest.onRound } : {}),
    ...(options.ingest?.permit ? { permit: options.ingest.permit } : {}),
    ...(options.ingestRunner ? { runner: options.ingestRunner } : {}),
  });
  // With a runner, `?wait=true` waits for it rather than indexing on the request thread.
  const documents = createDocumentService({ ...deps, indexing: worker, ...(options.ingestRunner ? {} : { ingest }), worker, changed: helpCenter.siteChanged });
  const connectors = createConnectorService({ ...deps, access, documents });
  const settings = createTenantSettingsService({ ...deps, connectors });
  /** The document a content gap's questions come closest to: the search pipeline's best hit. */
  const nearestDocument = async (scope: Scope, query: string) => {
    const best = (await search.run(scope, { query, topK: 1 })).results[0];
    return best ? { id: best.documentId, title: best.title, url: best.url } : null;
  };
  const jobs = createJobService({ ...deps, embedder, ensureIndex: ingest.ensureIndexInfo, hostnames, erasure, nearestDocument, ...(options.meterEventNames ? { meterEventNames: options.meterEventNames } : {}), ...(options.payments ? { payments: options.payments.processor } : {}), ...(options.holder ? { holder: options.holder } : {}) });
  const visitorIdentity = createVisitorIdentityService(deps);
  const engine: Engine = {
    // Set below, once every service it runs is wired.
    api: undefined as unknown as Api,
    embedder,
    generator,
    logger,
    tenancy,
    workspaces: createWorkspaceService({ ...deps, changed: helpCenter.siteChanged }),
    customers: createCustomerService(deps),
    apiKeys,
    access,
    idempotency: createIdempotencyService(deps),
    auth: createAuthService({ apiKeys, users, access, tenancy, allowsOrigin: settings.allowsOrigin, allowsAnyTenant: (origin) => options.store.origins.allowedByAny(origin), helpCenterOrigins: helpCenter.origins, identify: visitorIdentity.identify }),
    documents,
    connectors,
    settings,
    audit: createAuditService(deps),
    privacy: createPrivacyService(deps),
    search,
    limits,
    usage,
    queries,
    answers,
    chat: createChatService({ ...deps, ...sources, generator, search, limits, messages }),
    curatedAnswers,
    evals: createEvalService({ ...deps, search, answers }),
    conversations: createConversationService({ ...deps, messages }),
    tickets: createTicketService(deps),
    personas: createPersonaService(deps),
    visitors: createVisitorService(deps),
    visitorIdentity,
    inbox: createInboxService(deps),
    insights: createInsightsService({ ...deps, recompute: oneAtATime(() => jobs.run('content-gaps', {}), (error) => logger.warn('content gaps run failed', { error: error instanceof Error ? error.message : String(error) })) }),
    users,
    sso: createSsoService({ ...deps, users }),
    hostnames,
    helpCenter,
    erasure,
    billing: createBillingService({ ...deps, limitsChanged: planChanged, ...(options.payments ? { payments: options.payments } : {}) }),
    flows: createFlowService(deps),
    jobs,
    ingest,
    instruments,
    readiness: () => checkReadiness(options.store, worker),
    wakeIngest: () => worker.documentsChanged({ tenantId: '', workspaceId: '' }, []),
    async start() {
      await ingest.ensureIndexInfo();
      await ingest.reclaim();
      await jobs.reclaim();
      worker.start();
    },
    async close() {
      await worker.stop();
      await options.store.close();
    },
  };
  // Dify's retrieval has no binding of the table's own (its route speaks Dify's format) but runs the same way.
  (engine as { api: Api }).api = createApi(engine, [...OPERATIONS, difyRetrieval as unknown as Operation]);
  const internals: EngineInternals = { store: options.store, deps, worker };
  Object.defineProperty(engine, ENGINE_INTERNALS, { value: internals, enumerable: false });
  return engine;
}


