/**
 * Persistence ports, split by aggregate. Every method is async so that synchronous
 * (better-sqlite3) and networked (pg) backends fit the same shape. Methods throw on
 * infrastructure failure, `StoreConflictError` on a unique-constraint violation and
 * `StoreBusyError` when a write could not take the database's lock within the store's wait
 * (overload: nothing was written, and the caller may try again).
 *
 * Isolation is structural: every method that touches tenant data takes the tenant (and,
 * for workspace data, the workspace) and filters by it in the query itself.
 */
import type { CuratedAnswerStore } from '../answers/ports/curated-answers.js';
import type { EvalStore } from '../answers/ports/evaluation.js';
import type { HostnameStore, TombstoneStore } from '../hostnames/ports/record.js';
import type { VerifiedVisitorStore, VisitorKeyStore } from '../tenancy/ports/visitor-keys.js';
import type { SsoStore } from '../tenancy/ports/sso.js';
import type { PlanId, Quotas } from '../plans.js';
import type { BillingStore } from '../billing/ports/billing.js';
import type { ConversationStore } from '../answers/ports/conversations.js';
import type { ResolutionStore } from '../billing/ports/resolutions.js';
import type { FlowStore } from '../support/ports/flows.js';
import type { CustomerStore, InboxStore, PersonaStore, TicketStore, VisitorStore } from '../support/ports/support.js';
import type { JobStore } from '../jobs/ports/jobs.js';
import type { RateLimitStore } from '../tenancy/ports/rate-limits.js';
import type { UsageStore } from '../tenancy/ports/usage.js';
import type { UserStore } from '../tenancy/ports/users.js';
import type { Scope } from './scope.js';
import type { FeedbackStore, QuestionLogStore } from '../insights/ports/insights.js';
import type { SearchIndex } from '../search/ports/search-index.js';

export type { Scope } from './scope.js';
import type { Page } from './page.js';
import type { WorkspacePrivacy } from '../privacy/ports/privacy.js';

export interface TenantRecord {
  id: string;
  slug: string;
  plan: PlanId;
  quotas: Quotas;
  paymentCustomerId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface WorkspaceRecord {
  id: string;
  tenantId: string;
  slug: string;
  name: string;
  brandAccent: string | null;
  isDefault: boolean;
  deletedAt: string | null;
  /** Set while a downgrade keeps the workspace over the plan's cap: data kept, nothing served. */
  suspendedAt?: string | null;
  /** Redaction and retention; absent or null on workspaces created before they existed (`privacyOf`). */
  privacy?: WorkspacePrivacy | null;
  createdAt: string;
  updatedAt: string;
}

export const API_KEY_SCOPES = ['read', 'write', 'mcp', 'admin'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** A secret key (`svc_live_`, servers only) or a publishable one (`svc_pub_`, for browser pages). */
export const API_KEY_KINDS = ['secret', 'publishable'] as const;
export type ApiKeyKind = (typeof API_KEY_KINDS)[number];

export interface ApiKeyRecord {
  id: string;
  tenantId: string;
  kind: ApiKeyKind;
  /** Null: the key serves every workspace of its tenant. */
  workspaceId: string | null;
  name: string;
  /** Display prefix, e.g. `svc_live_Ab3d`; never enough to authenticate. */
  prefix: string;
  /** Hex SHA-256 of the full key. */
  secretHash: string;
  scopes: ApiKeyScope[];
  createdAt: string;
  revokedAt: string | null;
  /** `help_center`: search, answer and chat see only documents published there. Absent or null: the whole workspace. */
  surface?: PublicSurface | null;
  /** The full key, kept only for the publishable key a help center embeds in its own pages (public by design). */
  embeddedKey?: string | null;
  /** When the key last authenticated a request, to the minute (Settings → API Keys); null: never used. */
  lastUsedAt?: string | null;
}

export const DOCUMENT_STATUSES = ['pending', 'indexing', 'indexed', 'failed'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];
export const PUBLIC_SURFACES = ['help_center'] as const;
export type PublicSurface = (typeof PUBLIC_SURFACES)[number];

export interface DocumentRecord {
  id: string;
  tenantId: string;
  workspaceId: string;
  title: string;
  contentMd: string;
  url: string | null;
  publicSurfaces: PublicSurface[];
  /**
   * Who may read it (audiences/rules.ts): `public`, `customers`, segment names, or `['internal']`.
   * `public` and the help-center surface are kept equal by core.
   */
  audiences: string[];
  /** The caller's own identifier (a file path, a CMS id): unique within the workspace. */
  externalId: string | null;
  /** The caller's own fields (front matter, source system data); stored, never indexed. */
  metadata: Record<string, unknown>;
  status: DocumentStatus;
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

export type { Page } from './page.js';

export interface ListOptions {
  /** The id after which to continue (newest first). */
  after?: string;
  limit: number;
}

export interface TenantStore {
  insert(tenant: TenantRecord): Promise<void>;
  get(id: string): Promise<TenantRecord | null>;
  getBySlug(slug: string): Promise<TenantRecord | null>;
  update(id: string, patch: Partial<Pick<TenantRecord, 'plan' | 'quotas' | 'paymentCustomerId' | 'updatedAt'>>): Promise<void>;
  /**
   * A number that moves with every write to the tenant or to its workspaces (null: no such
   * tenant). Read before the records, it tells a process whether what it resolved still holds.
   */
  version(id: string): Promise<number | null>;
  /** Every tenant, by slug (operator listings). */
  list(): Promise<TenantRecord[]>;
  /**
   * Erasure: removes the tenant row and every row of every table with a `tenant_id` column
   * (search-index entries included), except `tenant_tombstones`. Run it in the transaction that
   * writes the tombstone. Returns rows removed, by table.
   */
  erase(id: string): Promise<Record<string, number>>;
}

export interface WorkspacePatch {
  name?: string;
  brandAccent?: string | null;
  /** Set: soft-deleted at that time; null: restored. */
  deletedAt?: string | null;
  /** Set: suspended over the plan's cap; null: serving again. */
  suspendedAt?: string | null;
  privacy?: WorkspacePrivacy;
  updatedAt: string;
}

/** One bounded step of a workspace's hard delete. */
export interface WorkspacePurge {
  /** Rows removed in this step, by table. */
  deleted: Record<string, number>;
  /** True once nothing is left under the workspace and its own row is gone. */
  done: boolean;
}

export interface WorkspaceStore {
  insert(workspace: WorkspaceRecord): Promise<void>;
  get(tenantId: string, id: string): Promise<WorkspaceRecord | null>;
  getBySlug(tenantId: string, slug: string): Promise<WorkspaceRecord | null>;
  getDefault(tenantId: string): Promise<WorkspaceRecord | null>;
  /** Live workspaces, default first; with `includeDeleted`, soft-deleted ones after them. */
  list(tenantId: string, options?: { includeDeleted?: boolean }): Promise<WorkspaceRecord[]>;
  /** Returns the updated record, or null when the tenant has no such workspace. */
  update(tenantId: string, id: string, patch: WorkspacePatch): Promise<WorkspaceRecord | null>;
  /** Soft-deleted workspaces (of one tenant, or all) deleted at or before `before`, oldest first. */
  listDeletedBefore(before: string, limit: number, tenantId?: string): Promise<WorkspaceRecord[]>;
  /**
   * Hard-deletes up to about `limit` rows under a soft-deleted workspace, table by table along
   * the store's cascade list (search-index entries through the search index's own deletion), and
   * the workspace row once nothing is left. Idempotent and resumable: call until `done`.
   * Throws when the workspace is not soft-deleted.
   */
  purge(tenantId: string, id: string, limit: number): Promise<WorkspacePurge>;
}

export interface ApiKeyStore {
  insert(key: ApiKeyRecord): Promise<void>;
  /** Looks a key up by the hash of its secret (an index probe; the service re-checks in constant time). */
  findByHash(secretHash: string): Promise<ApiKeyRecord | null>;
  list(tenantId: string): Promise<ApiKeyRecord[]>;
  revoke(tenantId: string, id: string, at: string): Promise<boolean>;
  /**
   * Records that the key authenticated a request at `at`. The write may wait up to a second to
   * join others (one transaction for every key used meanwhile); this store's `list` and
   * `flushTouches` write what waits first.
   */
  touch(id: string, at: string): Promise<void>;
  /** Writes the last uses still waiting (the store calls it on close). */
  flushTouches(): Promise<void>;
}

export interface DocumentPatch {
  title?: string;
  contentMd?: string;
  url?: string | null;
  publicSurfaces?: PublicSurface[];
  audiences?: string[];
  metadata?: Record<string, unknown>;
  externalId?: string | null;
  status?: DocumentStatus;
  error?: string | null;
  updatedAt: string;
  /**
   * Back to the ingest queue under a new revision (core sets it when the indexed text changes
   * or a re-index is asked for): a claim taken on the old revision can no longer complete.
   */
  requeue?: boolean;
}

/** A document taken from the ingest queue: its content `revision` at the moment it was claimed. */
export interface IndexingClaim {
  doc: DocumentRecord;
  revision: number;
}

export interface ClaimOptions {
  now: string;
  /** Until when the claimer holds the documents; an expired lease returns them to the queue. */
  leaseUntil: string;
  limit: number;
  /** Claim only these documents (e.g. a request that waits for its own document). */
  ids?: readonly string[];
  /** Who takes the lease: `node/incarnation/worker` (see `IngestHolder`). */
  holder?: string;
  /** Stop before the claimed documents' content passes this many bytes (UTF-8); the first is always claimed. */
  maxBytes?: number;
}

export type IndexingOutcome = { status: 'indexed' } | { status: 'failed'; error: string };

/** A document as search results name it: its link, and the public surfaces it is published on. */
export type DocumentRef = Pick<DocumentRecord, 'id' | 'url' | 'publicSurfaces' | 'audiences'>;

export interface DocumentStore {
  insert(doc: DocumentRecord): Promise<void>;
  /**
   * Inserts all or none (one transaction), outside any other transaction. Optional: a store that
   * can write large batches (uploads) off the calling thread implements it; otherwise core inserts
   * one by one in a transaction.
   */
  insertMany?(docs: readonly DocumentRecord[]): Promise<void>;
  get(scope: Scope, id: string): Promise<DocumentRecord | null>;
  getByExternalId(scope: Scope, externalId: string): Promise<DocumentRecord | null>;
  /** Every document of the workspace that has an external id (a sync's view of what exists). */
  listExternalIds(scope: Scope): Promise<{ id: string; externalId: string }[]>;
  getMany(scope: Scope, ids: readonly string[]): Promise<DocumentRecord[]>;
  /** What a search result shows of its documents and who may read them, without their content (in no order). */
  getRefs(scope: Scope, ids: readonly string[]): Promise<DocumentRef[]>;
  /** A tenant's document in whichever workspace holds it (maintenance jobs only; requests use `get`). */
  locate(tenantId: string, id: string): Promise<DocumentRecord | null>;
  list(scope: Scope, options: ListOptions): Promise<Page<DocumentRecord>>;
  /**
   * Returns the updated record, or null when no such document exists in scope. A title or
   * content change, or `status: 'pending'`, bumps the revision (voiding in-flight ingest claims).
   */
  update(scope: Scope, id: string, patch: DocumentPatch): Promise<DocumentRecord | null>;
  delete(scope: Scope, id: string): Promise<boolean>;
  /** Up to `limit` documents of the workspace shown on `surface` (the help center), newest first. */
  listPublished(scope: Scope, surface: PublicSurface, limit: number): Promise<DocumentRecord[]>;
  /** Up to `limit` documents of the workspace naming any of `audiences`, newest first (a signed visitor's help center). */
  listReadable(scope: Scope, audiences: readonly string[], limit: number): Promise<DocumentRecord[]>;
  countByStatus(scope: Scope): Promise<Record<DocumentStatus, number>>;
  /**
   * The ingest queue (across tenants: the worker serves them all). Moves up to `limit` documents
   * that are `pending`, or `indexing` with an expired lease, to `indexing` under a new lease,
   * round-robin across tenants (each one's oldest first): one tenant's bulk import cannot starve another.
   */
  claimForIndexing(options: ClaimOptions): Promise<IndexingClaim[]>;
  /** Extends the leases `holder` still has on these documents; returns how many it still holds. */
  renewLeases(holder: string, ids: readonly string[], leaseUntil: string): Promise<number>;
  /**
   * Returns to the queue the documents leased by earlier incarnations of `node` (holders starting
   * with `node/` but not with `keepPrefix`): what a restarted node was indexing when it died.
   */
  reclaimLeases(node: string, keepPrefix: string): Promise<number>;
  /** Sends every document (of one tenant, or all) back to the ingest queue; returns how many. */
  requeueAll(at: string, tenantId?: string): Promise<number>;
  /**
   * Records the ingest outcome only if the document is still at `revision` and `indexing`
   * (an edit during indexing wins: the document stays queued). Returns whether it was recorded.
   */
  completeIndexing(scope: Scope, id: string, revision: number, outcome: IndexingOutcome, at: string): Promise<boolean>;
}

/** Who made a change: a signed-in user, an API key, the operator's CLI or jobs, or a webhook. */
export const AUDIT_ACTOR_KINDS = ['user', 'key', 'operator', 'webhook', 'system'] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

/**
 * One entry of a tenant's audit log. Entries are never updated; each carries its number in the
 * tenant's chain, the hash of the entry before it and its own hash (`audit/chain.ts`).
 */
export interface AuditEvent {
  id: string;
  tenantId: string;
  workspaceId: string | null;
  /** e.g. `doc.reindex`, `flow.completed`, `document.updated`, `api_key.created`. */
  type: string;
  /** The user, key or webhook id; `cli` or `system` for the operator's own tools. */
  actor: string;
  /** Entries written before the chain existed read as `system`. */
  actorKind: AuditActorKind;
  subjectId: string | null;
  data: Record<string, unknown>;
  /** A short summary of the subject before and after the change (no secrets, no content bodies). */
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  createdAt: string;
  /** 1, 2, 3… per tenant; null for entries written before the chain existed. */
  seq: number | null;
  prevHash: string | null;
  /** Hex SHA-256 of the entry's canonical JSON (hash excluded); null before the chain existed. */
  hash: string | null;
}

export interface AuditFilter {
  type?: string;
  subjectId?: string;
  actor?: string;
  workspaceId?: string;
  /** Entries created at or after / before these times. */
  since?: string;
  until?: string;
}

export interface AuditStore {
  /**
   * Appends the tenant's next entry atomically: reads the tenant's last chained entry (by `seq`)
   * and inserts what `next` builds from it, with appends of one tenant serialised so two never
   * take the same number. Joins the caller's transaction when called on one.
   */
  append(tenantId: string, next: (last: AuditEvent | null) => AuditEvent): Promise<AuditEvent>;
  list(tenantId: string, options?: { type?: string; subjectId?: string }): Promise<AuditEvent[]>;
  /** Newest first (entries written before the chain existed last); `before` is the `seq` to continue below. */
  page(tenantId: string, filter: AuditFilter, options: { before?: number; limit: number }): Promise<AuditEvent[]>;
  /** Chained entries oldest first, those with `seq` above `after`. */
  range(tenantId: string, options: { after: number; limit: number }): Promise<AuditEvent[]>;
  /** Deletes up to `limit` of the tenant's oldest entries created before `before` (the plan's retention), never its newest; returns how many. */
  purgeBefore(tenantId: string, before: string, limit: number): Promise<number>;
  /** Tenants that have entries created before `before` (the retention job's work list). */
  tenantsWithEntriesBefore(before: string, limit: number): Promise<string[]>;
}

/** The retention job's purge of a workspace's idle conversations. */
export interface RetentionStore {
  /**
   * One bounded step: deletes up to `limit` rows — messages of conversations idle since
   * `before` first, then those conversations once their messages are gone. Conversations the
   * resolution detector has still to count are kept. Returns how many of each went.
   */
  purgeIdleConversations(scope: Scope, before: string, limit: number): Promise<{ messages: number; conversations: number }>;
}

/** Tenant-wide browser access: the origins whose pages may call the API. */
export interface OriginStore {
  list(tenantId: string): Promise<string[]>;
  /** Replaces the tenant's list. */
  replace(tenantId: string, origins: readonly string[]): Promise<void>;
  /** Whether any tenant allows `origin` (a preflight on `/api` names no tenant). */
  allowedByAny(origin: string): Promise<boolean>;
}

/** Content-sync connectors: each tenant's webhook signing secret, and the event ids applied. */
export interface ConnectorStore {
  getSecret(tenantId: string): Promise<{ secret: string; createdAt: string } | null>;
  setSecret(tenantId: string, secret: string, at: string): Promise<void>;
  /** Records an event id; false when the tenant's event was recorded before (a replay). */
  recordEvent(tenantId: string, workspaceId: string, eventId: string, at: string): Promise<boolean>;
}

/** A response stored under an `Idempotency-Key`, replayed to a retry of the same request. */
export interface StoredResponse {
  status: number;
  /** The headers a replay repeats (content type, location, rate-limit headers). */
  headers: Record<string, string>;
  body: string;
}

/** An `Idempotency-Key` of a tenant: the request it was first used with, and its response once done. */
export interface IdempotencyRecord {
  tenantId: string;
  key: string;
  /** SHA-256 of the caller, method, path and body the key was first used with. */
  fingerprint: string;
  /** Null while the first request is still running. */
  response: StoredResponse | null;
  createdAt: string;
  expiresAt: string;
}

/** `Idempotency-Key`s, in the database so a retry reaching another node is recognised. */
export interface IdempotencyStore {
  /**
   * Takes `record.key` for a new request, or returns the record already holding it. An expired
   * record of the key, or one still in flight since before `staleBefore`, is replaced.
   */
  claim(record: Omit<IdempotencyRecord, 'response'>, staleBefore: string): Promise<{ claimed: true } | { claimed: false; existing: IdempotencyRecord }>;
  /** Stores the response of a claimed key. */
  complete(tenantId: string, key: string, response: StoredResponse): Promise<void>;
  /** Gives a claimed key back (the request did not run to an answer worth replaying). */
  release(tenantId: string, key: string): Promise<void>;
  /** Removes every record expired at `now`; returns how many. */
  purgeExpired(now: string): Promise<number>;
}

/** What a readiness probe asks of the database; answering at all proves it is reachable. */
export interface StoreHealth {
  /** The newest migration applied to the database. */
  schemaVersion: number;
  /** The newest migration this code knows; a lower `schemaVersion` means migrations are pending. */
  latestSchemaVersion: number;
  /** Documents waiting for the ingest worker (`pending`, or `indexing` under a lease), across tenants. */
  queuedDocuments: number;
}

/** What a store can do beyond the ports every store implements; the conformance suite skips what it lacks, naming it. */
export interface StoreCapabilities {
  /** `documents.insertMany`: a batch written in one transaction, off the calling thread. */
  readonly batchInsert: boolean;
  /** Other processes or nodes can open the same database (leases, change sequences and caches agree across them). */
  readonly sharedDatabase: boolean;
}

export interface Store {
  readonly capabilities: StoreCapabilities;
  readonly tenants: TenantStore;
  readonly workspaces: WorkspaceStore;
  readonly apiKeys: ApiKeyStore;
  readonly documents: DocumentStore;
  readonly audit: AuditStore;
  readonly retention: RetentionStore;
  readonly search: SearchIndex;
  readonly rateLimits: RateLimitStore;
  readonly usage: UsageStore;
  readonly users: UserStore;
  readonly jobs: JobStore;
  readonly conversations: ConversationStore;
  readonly hostnames: HostnameStore;
  /** Each workspace's visitor-identity key (tenancy/ports/visitor-keys.ts). */
  readonly visitorKeys: VisitorKeyStore;
  /** Verified visitor ids → visitor records (tenancy/ports/visitor-keys.ts). */
  readonly verifiedVisitors: VerifiedVisitorStore;
  /** Each tenant's single sign-on provider, attempts and sessions (sso/config.ts). */
  readonly sso: SsoStore;
  readonly tombstones: TombstoneStore;
  readonly billing: BillingStore;
  readonly resolutions: ResolutionStore;
  readonly flows: FlowStore;
  readonly origins: OriginStore;
  readonly connectors: ConnectorStore;
  readonly idempotency: IdempotencyStore;
  readonly tickets: TicketStore;
  readonly personas: PersonaStore;
  readonly visitors: VisitorStore;
  readonly customers: CustomerStore;
  readonly inbox: InboxStore;
  readonly curatedAnswers: CuratedAnswerStore;
  readonly evals: EvalStore;
  /** Every answer and chat turn with its evidence strength, and the content gaps computed from them. */
  readonly questions: QuestionLogStore;
  /** Feedback on answers with the passages (and document versions) they cited. */
  readonly feedback: FeedbackStore;
  /**
   * Runs `fn` atomically: all of its writes commit together or none do. `fn` must use the
   * `tx` it is given; other callers wait until the transaction ends.
   */
  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T>;
  /** Queries the database (throws when it cannot be reached or is closed). */
  health(): Promise<StoreHealth>;
  /**
   * After an erasure: leaves no copy of deleted rows where the backend can reach it (SQLite zeroes
   * deleted content as it goes and truncates its write-ahead logs here). Optional.
   */
  scrub?(): Promise<void>;
  close(): Promise<void>;
}
