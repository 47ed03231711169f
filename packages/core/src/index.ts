/**
 * The public surface of `@panya/core`, named one by one: what adapters, the CLI, stores, providers
 * and library users import. `packages/cli/test/public-exports.test.ts` snapshots every package's
 * export names, so a change to the surface is a visible diff. What only the SQL stores share is
 * `@panya/core/rows`; conformance suites and test fixtures are `@panya/core/testing`.
 */
export { AbortTransaction, EmbedderMismatchError, errors, hasMarker, isAbortTransaction, isEmbedderMismatchError, isPanyaError, isStoreBusy, isStoreConflict, isUpstreamError, panyaError, type PanyaError, type PanyaErrorCode, STORE_BUSY_RETRY_AFTER_SECONDS, StoreBusyError, storeBusy, StoreConflictError, UPSTREAM_RETRY_AFTER_SECONDS, UpstreamError } from './errors.js';
export { HELP_CENTER_TEXT, type HelpCenterText, type Locale, NO_ANSWER, WIDGET_TEXT } from './messages.js';
export { API_KEY_CACHE_MS, CONVERSION_BUDGET_MS, HEADERS_TIMEOUT_MS, HELP_PAGE_VIEWS_PER_ADDRESS_PER_MINUTE, HELP_SEARCH_CACHE_ENTRIES, HELP_SEARCH_CACHE_MS, MAX_CHAT_STREAMS_PER_VISITOR, MAX_LONG_POLLS_PER_KEY, MAX_LONG_POLLS_PER_VISITOR, IDEMPOTENCY_BYTES_PER_KEY_PER_DAY, IDEMPOTENCY_BYTES_PER_TENANT_PER_DAY, MAX_CHAT_STREAMS_PER_KEY, MAX_IDEMPOTENT_RESPONSE_BYTES, MAX_JSON_DEPTH, MAX_CONVERSION_HEAP_MB, MAX_CONVERTED_CHARS, MAX_JSON_BODY_BYTES, MAX_PDF_INFLATED_BYTES, MAX_PDF_PAGES, MAX_TENANT_UPLOAD_BYTES_IN_FLIGHT, MAX_UPLOAD_BYTES_IN_FLIGHT, MAX_UPLOAD_FILE_BYTES, MAX_UPLOAD_FILES, MAX_UPLOAD_REQUEST_BYTES, REQUEST_BODY_TIMEOUT_MS, SHUTDOWN_GRACE_MS, UPLOAD_ADMISSION_WAIT_MS } from './bounds.js';
export { EDGE_HOSTNAME_ACCOUNT_CAP, HARD_CAP_MULTIPLIER, parsePlanId, PLAN_NAMES, type PlanId, PLANS, QUOTA_KEYS, resolveLimits } from './plans.js';
export { PUBLIC_BUDGETS, PUBLIC_BUDGET_QUOTA_KEYS, resolvePublicBudgets, type PublicBudgets } from './public-budgets.js';
export { createIds, silentLogger } from './system.js';
export { BACKGROUND_NICE, runAsBackgroundThread } from './background-thread.js';
export { createEngine, type Engine, type EngineOptions } from './engine.js';
export { type Embedder, type EmbeddingUsage, type EmbedOptions, type EmbedResult } from './ports/embedder.js';
export { type ChatTurn, type Contextualizer, type GenerateRequest, type Generator, type GeneratorEvent, type GeneratorUsage, type PersonaInstructions } from './ports/generator.js';
export { type EdgeHostnameRef, type EdgeObservation, type EdgeProvider, type EdgePurge, type EdgeRegistration, type EdgeRegistrationRequest, type HostnameProblem, type OwnershipRecord } from './ports/edge.js';
export { checkApex, checkHostnameAllowance, type CustomHostnameRecord, dnsInstructions, failureMessage, generateOwnership, type HostnameEvent, hostnameHealth, type HostnameStatus, type HostnameStore, parseHostname, type TenantTombstone, type TombstoneStore, transition } from './hostnames/index.js';
export { HELP_QUERY_MAX_CHARS, parseHelpHost } from './helpcenter/rules.js';
export { AUDIENCE_CUSTOMERS, AUDIENCE_INTERNAL, AUDIENCE_PUBLIC, canRead, documentVisibility, normalAudiences, readerAudiences, SEGMENT_PATTERN, type Reader, type VisitorIdentity } from './audiences/rules.js';
export { type HelpSite } from './services/help-center.js';
export { childrenFirst } from './services/erasure.js';
export { type BillingWebhookEvent, type LiveSubscription, PAYMENT_PROCESSOR_SPEC_VERSION, type PaymentProcessor, type SubscriptionChangeInput, type SubscriptionStatus } from './ports/payment.js';
export { type BillingStore, type MeterOutboxRecord, type PlanChangeEntry, type TenantBillingRecord } from './ports/billing.js';
export { billPeriod, checkoutLines, computeOverage, confirmActive, gatherPeriodBill, meterEventIdentifier, meterTotals, periodParts, type PeriodBill, type PeriodPart, type MeterEventNames, type MeterKey, METERS, PAID_TIERS, planUsageReport, previousPeriod, type PriceCatalog, type ReportInput, seatAddon, tierOfBasePrice, type TierPrices, type UsageTotals } from './billing/index.js';
export { type Clock, type Logger } from './ports/system.js';
export { type Audiences, type ChunkInput, type ChunkRecord, type IndexInfo, type LexicalQuery, type LexicalSource, type LexicalSourceDoc, type LexicalVersion, type RankedHit, type SegmentRead, type SearchCapabilities, type SearchIndex } from './ports/search-index.js';
export { API_KEY_SCOPES, type ApiKeyRecord, type ApiKeyScope, type ApiKeyStore, type AuditEvent, type AuditStore, type ClaimOptions, type ConnectorStore, DOCUMENT_STATUSES, type DocumentPatch, type DocumentRecord, type DocumentRef, type DocumentStatus, type DocumentStore, type IdempotencyRecord, type IdempotencyStore, type IndexingOutcome, type ListOptions, type OriginStore, type Page, type PublicSurface, type Scope, type Store, type StoreCapabilities, type StoredResponse, type StoreHealth, type TenantRecord, type TenantStore, type WorkspacePatch, type WorkspacePurge, type WorkspaceRecord, type WorkspaceStore } from './ports/store.js';
export { type ApiQueryEvent, type QueryEventKind, type TimeRange, type UsageRecord, type UsageStore } from './ports/usage.js';
export { type JobStore } from './ports/jobs.js';
export { type MembershipRecord, type MembershipRole, type SessionRecord, type UserRecord, type UserStore } from './ports/users.js';
export { type RateBucket, type RateDecision, type RateLimitStore } from './ports/rate-limits.js';
export { type ConversationFilter, type ConversationRecord, type ConversationStore, type MessageFeedback, type MessageRecord, type NewConversation, type NewMessage } from './ports/conversations.js';
export { type DisqualifyOutcome, type DisqualifyReason, type ResolutionRecord, type ResolutionStore } from './ports/resolutions.js';
export { type FlowRecord, type FlowRunRecord, type FlowStep, type FlowStore } from './ports/flows.js';
export { type CustomerPatch, type CustomerRecord, type CustomerStore, type InboxItem, type InboxReason, type InboxStore, type PersonaPatch, type PersonaRecord, type PersonaStore, type TicketComment, type TicketPatch, type TicketPriority, type TicketRecord, type TicketStatus, type TicketStore, type VisitorRecord, type VisitorStore } from './ports/support.js';
export { nestedDeeperThan, parseInput, tooDeep } from './schemas/validate.js';
export { type PlanName, type UpdateTenantInput } from './schemas/tenancy.js';
export { type PutDocumentInput, putDocumentSchema } from './schemas/documents.js';
export { type RequestContext } from './services/context.js';
export { type Addressing } from './services/access.js';
export { type Credentials } from './services/authenticate.js';
export { bearerChallenge, rateLimitHeaders, resolveLocale, toProblem } from './problems.js';
export { type AnswerResponse, chatEventSchema, type DocumentSummary, type List, type Problem, type SearchResponse, type SearchResult } from './schemas/responses.js';
export { defineOperation, executeOperation, HTTP_OPERATIONS, type Operation, OPERATIONS } from './operations/index.js';
export { type Api, type ApiCaller, type ApiOptions, type ApiReply } from './operations/api.js';
export { type DeclaredRoute, openApiDocument } from './operations/openapi.js';
export { type SyncOutcome, uploadedDocument } from './services/documents.js';
export { signWebhook } from './services/connectors.js';
export { type WorkspaceView } from './services/workspaces.js';
export { HashEmbedder } from './embedders/hash.js';
export { checkBatchSize, embedInBatches } from './embedders/batches.js';
export { evaluateRun, type Metrics, type Qrels, type Run } from './eval/metrics.js';
export { countWordTokens } from './ingest/chunker.js';
export { embeddingText, type IngestOptions, lexicalFields } from './services/ingest.js';
export { type IngestRunner } from './services/ingest-worker.js';
export { defaultSearchWeights, SEARCH_CACHE_BYTES, SEARCH_CACHE_TTL_MS, type SearchOptions, type SearchWeights } from './services/search.js';
export { segmentWords, tokenize, TOKENIZER_VERSION } from './text/tokenizer.js';
export { JOB_NAMES, type JobContext, JOBS, workspaceCleanup } from './jobs/index.js';
export { parseJobBudget } from './services/jobs.js';
export { type RateLimitStatus } from './services/limits.js';
export { loginSchema } from './services/users.js';
export { LOGIN_THROTTLE } from './services/login-throttle.js';
export { carriesSecret, takesIdempotencyKey } from './services/idempotency.js';
export { ExtractiveGenerator } from './generators/extractive.js';
export { chatSchema, DETECT_LOCALE_JS, detectLocale } from './schemas/answers.js';
export { citationsIn } from './services/grounding.js';
export { countResolutions, detectResolutions, disqualifyResolution } from './services/resolutions.js';
export { documentFieldsFromFrontMatter, splitFrontMatter } from './text/front-matter.js';
export { plainText } from './text/plain.js';
export { DEFAULT_LEXICAL_WEIGHTS, type LexicalDoc, LexicalIndex, lexicalWork, type LexicalWeights } from './search/lexical-index.js';
export { LexicalRanker } from './search/lexical-ranker.js';
/** A query's lexical terms, pairs and trigrams, as the search service derives them. */
export { searchTerms as searchTermsOf } from './text/query.js';
export { audienceOverrides, encodeSegment, LexicalSegment, liveMask, mergeSegments, planSegmentMerge, SegmentedIndex, type AudienceChange, type SegmentPart } from './search/lexical-segment.js';
export { configureIndexCache, defaultIndexCacheBytes, indexCacheStats, type IndexCacheStats } from './search/index-cache.js';
export { calibratedScore, difyRetrieval, difyRetrievalResponseSchema, difyRetrievalSchema, queryTermSet, resolveKnowledge } from './operations/dify.js';
