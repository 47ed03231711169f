/**
 * Every aggregate's table, once: which column holds which record field and how it is stored.
 * Both SQL stores derive their mappers, insert lists and patch columns from these; a new
 * aggregate costs one spec here plus the store's special queries.
 */
import type { CustomHostnameRecord, TenantTombstone } from '../hostnames/ports/record.js';
import type { VerifiedVisitorLink, VisitorKeyRecord } from '../tenancy/ports/visitor-keys.js';
import type { SsoConfigRecord, SsoSessionRecord, SsoStateRecord } from '../tenancy/ports/sso.js';
import type { MeterOutboxRecord, TenantBillingRecord } from '../billing/ports/billing.js';
import type { ConversationRecord, MessageRecord } from '../answers/ports/conversations.js';
import type { FeedbackCitation, FeedbackRecord, QuestionRecord, StoredGaps } from '../insights/ports/insights.js';
import type { FlowRecord, FlowRunRecord } from '../support/ports/flows.js';
import type { CuratedAnswerRecord } from '../answers/ports/curated-answers.js';
import type { EvalRunRecord, EvalSetRecord } from '../answers/ports/evaluation.js';
import type { ApiQueryEvent, UsageRecord } from '../tenancy/ports/usage.js';
import type { MembershipRecord, SessionRecord, UserRecord } from '../tenancy/ports/users.js';
import type { ResolutionRecord } from '../billing/ports/resolutions.js';
import type { ApiKeyRecord, AuditEvent, DocumentRecord, IdempotencyRecord, TenantRecord, WorkspaceRecord } from '../ports/store.js';
import type { CustomerRecord, PersonaRecord, TicketComment, TicketRecord, VisitorRecord } from '../support/ports/support.js';
import { tableSpec, type ColumnKind, type ColumnSpec, type FieldPath, type InternalColumn } from './codec.js';

/** `[field, column, kind]` rows, the compact form of a spec's columns. */
type Cols<T> = readonly (readonly [FieldPath<T>, string, ColumnKind] | readonly [FieldPath<T>, string, ColumnKind, Partial<ColumnSpec<T>>])[];

function table<T>(name: string, cols: Cols<T>, internal?: readonly InternalColumn[]) {
  return tableSpec<T>(
    name,
    cols.map(([field, column, kind, extra]) => ({ field, column, kind, ...extra })),
    internal,
  );
}

const tenantScoped = [
  ['id', 'id', 'text'],
  ['tenantId', 'tenant_id', 'text'],
  ['workspaceId', 'workspace_id', 'text'],
] as const;
const stamped = [
  ['createdAt', 'created_at', 'time'],
  ['updatedAt', 'updated_at', 'time'],
] as const;

/**
 * Flags of the generated DDL, short: `B` compared byte by byte (an id that pages by cursor:
 * Postgres `COLLATE "C"`), `N` nullable. The tables from before the kit carry their columns'
 * exact types this way, so a new database's generated tables equal an upgraded one's.
 */
const B = { binary: true } as const;
const N = { nullable: true } as const;
const BN = { binary: true, nullable: true } as const;
/** `tenantScoped` of the tables from before the kit: byte-ordered ids. */
const scopedIds = [
  ['id', 'id', 'text', B],
  ['tenantId', 'tenant_id', 'text', B],
  ['workspaceId', 'workspace_id', 'text', B],
] as const;

export const TENANTS = table<TenantRecord>('tenants', [
  ['id', 'id', 'text', B],
  ['slug', 'slug', 'text'],
  ['plan', 'plan', 'text'],
  ['quotas', 'quotas_json', 'json', { named: { postgres: 'quotas' }, default: "'{}'" }],
  ['paymentCustomerId', 'payment_customer_id', 'text', N],
  ...stamped,
], [
  // Moves with every write to the tenant or its workspaces: a process keeps what it resolved while it holds still.
  { column: 'version', kind: 'number', default: '0' },
]);

export const WORKSPACES = table<WorkspaceRecord>('workspaces', [
  ['id', 'id', 'text', B],
  ['tenantId', 'tenant_id', 'text', B],
  ['slug', 'slug', 'text'],
  ['name', 'name', 'text'],
  ['brandAccent', 'brand_accent', 'text', N],
  ['isDefault', 'is_default', 'bool', { default: 'false' }],
  ['deletedAt', 'deleted_at', 'time', N],
  ['suspendedAt', 'suspended_at', 'time', N],
  ['privacy', 'privacy', 'json', { nullable: true }],
  ...stamped,
]);

export const API_KEYS = table<ApiKeyRecord>('api_keys', [
  ['id', 'id', 'text', B],
  ['tenantId', 'tenant_id', 'text', B],
  // Keys written before publishable keys existed have no kind: they are secret keys.
  ['kind', 'kind', 'text', { nullAs: 'secret', default: "'secret'" }],
  ['workspaceId', 'workspace_id', 'text', BN],
  ['name', 'name', 'text'],
  ['prefix', 'prefix', 'text'],
  ['secretHash', 'secret_hash', 'text'],
  ['scopes', 'scopes', 'json'],
  ['createdAt', 'created_at', 'time'],
  ['revokedAt', 'revoked_at', 'time', N],
  ['surface', 'surface', 'text', N],
  ['embeddedKey', 'embedded_key', 'text', N],
  ['lastUsedAt', 'last_used_at', 'time', N],
]);

export const AUDIT_EVENTS = table<AuditEvent>('audit_events', [
  ['id', 'id', 'text', B],
  ['tenantId', 'tenant_id', 'text', B],
  ['workspaceId', 'workspace_id', 'text', BN],
  ['type', 'type', 'text'],
  ['actor', 'actor', 'text'],
  // Entries written before actors had kinds, summaries and the chain read as system entries outside it.
  ['actorKind', 'actor_kind', 'text', { nullAs: 'system', nullable: true }],
  ['subjectId', 'subject_id', 'text', N],
  ['data', 'data', 'json'],
  ['before', 'before_summary', 'json', { nullable: true }],
  ['after', 'after_summary', 'json', { nullable: true }],
  ['createdAt', 'created_at', 'time'],
  ['seq', 'seq', 'number', { nullable: true }],
  ['prevHash', 'prev_hash', 'text', { nullable: true }],
  ['hash', 'hash', 'text', { nullable: true }],
]);

export const DOCUMENTS = table<DocumentRecord>('documents', [
  ...scopedIds,
  ['title', 'title', 'text'],
  ['contentMd', 'content_md', 'text', { compressible: true }],
  ['url', 'url', 'text', N],
  ['publicSurfaces', 'public_surfaces', 'json', { default: "'[]'" }],
  ['audiences', 'audiences', 'json', { default: `'["internal"]'` }],
  ['externalId', 'external_id', 'text', N],
  ['metadata', 'metadata', 'json', { nullAs: {}, default: "'{}'" }],
  ['status', 'status', 'text'],
  ['error', 'error', 'text', N],
  ...stamped,
], [
  // The indexing queue's: a claim holds the revision it took (its lease is a row of DOCUMENT_LEASES).
  { column: 'revision', kind: 'number', type: 'int32', default: '1' },
]);

/** A claimed document's lease: who indexes it, until when. */
export interface DocumentLease {
  tenantId: string;
  documentId: string;
  leaseUntil: string;
  holder: string | null;
}

/**
 * The indexing queue's leases, a row per document being indexed, gone with its indexing. Kept in
 * the document's row, a claim grew every row it took by ~80 bytes after the row was written, which
 * split SQLite's full pages: a sixth of the documents table stayed empty for good.
 */
export const DOCUMENT_LEASES = table<DocumentLease>('document_leases', [
  ['tenantId', 'tenant_id', 'text', B],
  ['documentId', 'document_id', 'text', B],
  ['leaseUntil', 'lease_until', 'time'],
  ['holder', 'holder', 'text', N],
]);

export const USERS = table<UserRecord>('users', [
  ['id', 'id', 'text', B],
  ['email', 'email', 'text'],
  ['passwordHash', 'password_hash', 'text'],
  ['createdAt', 'created_at', 'time'],
]);

export const MEMBERSHIPS = table<MembershipRecord>('memberships', [
  ['id', 'id', 'text', B],
  ['userId', 'user_id', 'text', B],
  ['tenantId', 'tenant_id', 'text', B],
  ['workspaceId', 'workspace_id', 'text', BN],
  ['role', 'role', 'text'],
  ['createdAt', 'created_at', 'time'],
]);

export const SESSIONS = table<SessionRecord>('sessions', [
  ['id', 'id', 'text', B],
  ['userId', 'user_id', 'text', B],
  ['createdAt', 'created_at', 'time'],
  ['expiresAt', 'expires_at', 'time'],
  ['revokedAt', 'revoked_at', 'time', N],
]);

export const API_QUERY_EVENTS = table<ApiQueryEvent>('api_query_events', [
  ...scopedIds,
  ['keyId', 'key_id', 'text', N],
  ['kind', 'kind', 'text'],
  ['tool', 'tool', 'text', N],
  ['billingPeriod', 'billing_period', 'text'],
  ['createdAt', 'created_at', 'time'],
]);

/** One rate-limit counter: how many units a key has taken in one window. */
export interface RateCounter {
  key: string;
  window: string;
  count: number;
  resetAt: string;
}

export const RATE_COUNTERS = table<RateCounter>('rate_counters', [
  ['key', 'key', 'text', B],
  ['window', 'win', 'text', B],
  ['count', 'count', 'number', { type: 'int32' }],
  ['resetAt', 'reset_at', 'time'],
]);

export const USAGE_RECORDS = table<UsageRecord>('usage_records', [
  ['id', 'id', 'text', B],
  ['tenantId', 'tenant_id', 'text', B],
  ['workspaceId', 'workspace_id', 'text', BN],
  ['meter', 'meter', 'text'],
  ['quantity', 'quantity', 'number', { type: 'real' }],
  ['billingPeriod', 'billing_period', 'text'],
  ['data', 'data', 'json'],
  ['createdAt', 'created_at', 'time'],
]);

export const CONVERSATIONS = table<ConversationRecord>('conversations', [
  ...scopedIds,
  ['locale', 'locale', 'text'],
  ['hasGroundedAnswer', 'has_grounded_answer', 'bool', { default: 'false' }],
  ['hasThumbsDown', 'has_thumbs_down', 'bool', { default: 'false' }],
  ['handedOff', 'handed_off', 'bool', { default: 'false' }],
  ['createdAt', 'created_at', 'time'],
  ['lastMessageAt', 'last_message_at', 'time'],
  ['hasUngroundedAnswer', 'has_ungrounded_answer', 'bool', { default: 'false' }],
  ['visitorId', 'visitor_id', 'text', BN],
  ['csat.score', 'csat_score', 'number', { type: 'int32', nullable: true }],
  ['csat.comment', 'csat_comment', 'text', N],
  ['csat.at', 'csat_at', 'time', N],
  ['tags', 'tags', 'json', { default: "'[]'" }],
  ['startedBy', 'started_by', 'text', { nullAs: 'private', nullable: true }],
]);

export const MESSAGES = table<MessageRecord>('messages', [
  ...scopedIds,
  ['conversationId', 'conversation_id', 'text', B],
  ['role', 'role', 'text'],
  ['content', 'content', 'text'],
  ['citations', 'citations', 'json'],
  ['grounded', 'grounded', 'bool', N],
  ['createdAt', 'created_at', 'time'],
  ['feedback.rating', 'feedback_rating', 'text', N],
  ['feedback.comment', 'feedback_comment', 'text', N],
  ['feedback.at', 'feedback_at', 'time', N],
]);

export const RESOLUTIONS = table<ResolutionRecord>('resolutions', [
  ...scopedIds,
  ['conversationId', 'conversation_id', 'text', B],
  ['billingPeriod', 'billing_period', 'text'],
  ['createdAt', 'created_at', 'time'],
  ['reportedPeriod', 'reported_period', 'text', N],
  ['refundedAt', 'refunded_at', 'time', N],
  ['correctedPeriod', 'corrected_period', 'text', N],
]);

export const TENANT_BILLING = table<TenantBillingRecord>('tenant_billing', [
  ['tenantId', 'tenant_id', 'text', B],
  ['subscriptionId', 'subscription_id', 'text', N],
  ['subscriptionStatus', 'subscription_status', 'text', N],
  ['interval', 'billing_interval', 'text', N],
  ['lockedRates', 'locked_rates', 'json', N],
  ['lockedUntil', 'locked_until', 'time', N],
  ['addonSeats', 'addon_seats', 'number', { type: 'int32', default: '0' }],
  ['planHistory', 'plan_history', 'json', N],
  ['subscriptionEventAt', 'subscription_event_at', 'time', N],
  ['updatedAt', 'updated_at', 'time'],
]);

export const METER_OUTBOX = table<MeterOutboxRecord>('meter_event_outbox', [
  ['identifier', 'identifier', 'text', B],
  ['tenantId', 'tenant_id', 'text', B],
  ['period', 'period', 'text'],
  ['meter', 'meter', 'text'],
  ['eventName', 'event_name', 'text'],
  ['customerId', 'customer_id', 'text'],
  ['value', 'value', 'number'],
  ['occurredAt', 'occurred_at', 'time', N],
  ['createdAt', 'created_at', 'time'],
  ['sentAt', 'sent_at', 'time', N],
]);

export const FLOWS = table<FlowRecord>('flows', [...scopedIds, ['name', 'name', 'text'], ['steps', 'steps', 'json'], ...stamped]);

export const FLOW_RUNS = table<FlowRunRecord>('flow_runs', [
  ...scopedIds,
  ['flowId', 'flow_id', 'text', B],
  ['conversationId', 'conversation_id', 'text', N],
  ['status', 'status', 'text'],
  ['draft', 'draft', 'text', N],
  ['createdAt', 'created_at', 'time'],
  ['draftedAt', 'drafted_at', 'time', N],
  ['completedAt', 'completed_at', 'time', N],
]);

export const TICKETS = table<TicketRecord>('tickets', [
  ...scopedIds,
  ['subject', 'subject', 'text'],
  ['body', 'body', 'text'],
  ['priority', 'priority', 'text'],
  ['status', 'status', 'text'],
  ['conversationId', 'conversation_id', 'text', BN],
  ['visitorId', 'visitor_id', 'text', BN],
  ['dueAt', 'due_at', 'time'],
  ['breachedAt', 'breached_at', 'time', N],
  ['closedAt', 'closed_at', 'time', N],
  ...stamped,
]);

export const TICKET_COMMENTS = table<TicketComment>('ticket_comments', [
  ...scopedIds,
  ['ticketId', 'ticket_id', 'text', B],
  ['body', 'body', 'text'],
  ['author', 'author', 'text'],
  ['createdAt', 'created_at', 'time'],
]);

export const PERSONAS = table<PersonaRecord>('personas', [
  ...scopedIds,
  ['name', 'name', 'text'],
  ['tone', 'tone', 'text'],
  ['instructions', 'instructions', 'text'],
  ['locale', 'locale', 'text', N],
  ...stamped,
]);

export const VISITORS = table<VisitorRecord>('visitors', [...scopedIds, ['name', 'name', 'text', N], ['email', 'email', 'text', N], ...stamped]);

export const CUSTOMERS = table<CustomerRecord>('customers', [
  ...scopedIds,
  ['name', 'name', 'text'],
  ['domain', 'domain', 'text', N],
  ['externalId', 'external_id', 'text', N],
  ['notes', 'notes', 'text', { default: "''" }],
  ...stamped,
]);

export const CUSTOM_HOSTNAMES = table<CustomHostnameRecord>('custom_hostnames', [
  ['id', 'id', 'text', B],
  ['tenantId', 'tenant_id', 'text', B],
  ['hostname', 'hostname', 'text'],
  ['status', 'status', 'text'],
  ['edgeHostnameId', 'edge_hostname_id', 'text', N],
  ['txtName', 'txt_name', 'text'],
  ['txtValue', 'txt_value', 'text'],
  ['verificationError', 'verification_error', 'text', N],
  ['verificationDetail', 'verification_detail', 'text', N],
  ['statusChangedAt', 'status_changed_at', 'time'],
  ['lastCheckedAt', 'last_checked_at', 'time', N],
  ...stamped,
]);

export const TENANT_TOMBSTONES = table<TenantTombstone>('tenant_tombstones', [
  ['slug', 'slug', 'text'],
  ['tenantId', 'tenant_id', 'text'],
  ['hostnames', 'hostnames', 'json', { default: "'[]'" }],
  ['erasedAt', 'erased_at', 'time'],
  ['purgedAt', 'purged_at', 'time', N],
  ['purgeAttemptedAt', 'purge_attempted_at', 'time', N],
]);

export const IDEMPOTENCY_KEYS = table<IdempotencyRecord>('idempotency_keys', [
  ['tenantId', 'tenant_id', 'text', B],
  ['key', 'key', 'text'],
  ['fingerprint', 'fingerprint', 'text'],
  ['response', 'response', 'json', N],
  ['createdAt', 'created_at', 'time'],
  ['expiresAt', 'expires_at', 'time'],
]);

export const VISITOR_KEYS = table<VisitorKeyRecord>('visitor_keys', [
  ['tenantId', 'tenant_id', 'text'],
  ['workspaceId', 'workspace_id', 'text'],
  ['algorithm', 'algorithm', 'text'],
  ['key', 'key', 'text'],
  ['issuer', 'issuer', 'text', { nullable: true }],
  ['audience', 'audience', 'text', { nullable: true }],
  ...stamped,
]);

export const CURATED_ANSWERS = table<CuratedAnswerRecord>('curated_answers', [
  ...tenantScoped,
  ['question', 'question', 'text'],
  ['paraphrases', 'paraphrases', 'json'],
  ['answer', 'answer', 'text'],
  ['documentIds', 'document_ids', 'json'],
  ['origin', 'origin', 'text'],
  ['originRef', 'origin_ref', 'text', { nullable: true }],
  ['createdBy', 'created_by', 'text', { nullable: true }],
  ...stamped,
]);

export const EVAL_SETS = table<EvalSetRecord>('eval_sets', [...tenantScoped, ['name', 'name', 'text'], ['questions', 'questions', 'json'], ...stamped]);

export const EVAL_RUNS = table<EvalRunRecord>('eval_runs', [
  ...tenantScoped,
  ['setId', 'set_id', 'text'],
  ['status', 'status', 'text'],
  ['weights', 'weights', 'json', { nullable: true }],
  ['metrics', 'metrics', 'json', { nullable: true }],
  ['results', 'results', 'json'],
  ['previousRunId', 'previous_run_id', 'text', { nullable: true }],
  ['error', 'error', 'text', { nullable: true }],
  ['createdAt', 'created_at', 'time'],
  ['finishedAt', 'finished_at', 'time', { nullable: true }],
]);

export const QUESTION_LOG = table<QuestionRecord>('question_log', [
  ...tenantScoped,
  ['question', 'question', 'text'],
  ['source', 'source', 'text'],
  ['outcome', 'outcome', 'text'],
  ['topScore', 'top_score', 'number', { type: 'real', nullable: true }],
  ['groundedSentences', 'grounded_sentences', 'number'],
  ['sentences', 'sentences', 'number'],
  ['conversationId', 'conversation_id', 'text', { nullable: true }],
  ['messageId', 'message_id', 'text', { nullable: true }],
  ['citations', 'citations', 'json', { nullAs: [] }],
  ['thumbsDown', 'thumbs_down', 'bool'],
  ['handedOff', 'handed_off', 'bool'],
  ['createdAt', 'created_at', 'time'],
]);

export const GAP_SNAPSHOTS = table<StoredGaps & { tenantId: string; workspaceId: string }>('gap_snapshots', [
  ['tenantId', 'tenant_id', 'text'],
  ['workspaceId', 'workspace_id', 'text'],
  ['period', 'period', 'text'],
  ['computedAt', 'computed_at', 'time', { nullable: true }],
  ['questions', 'questions', 'number', { default: '0' }],
  ['clusters', 'clusters', 'json', { nullAs: [], nullable: true }],
  ['requestedAt', 'requested_at', 'time', { nullable: true }],
]);

/** Feedback on an answer; its cited passages are rows of `FEEDBACK_CITATIONS`. */
export const FEEDBACK = table<Omit<FeedbackRecord, 'citations'>>('feedback', [
  ...tenantScoped,
  ['messageId', 'message_id', 'text'],
  ['conversationId', 'conversation_id', 'text'],
  ['rating', 'rating', 'text'],
  ['comment', 'comment', 'text', { nullable: true }],
  ['question', 'question', 'text', { nullable: true }],
  ...stamped,
]);

export interface FeedbackCitationRow extends FeedbackCitation {
  tenantId: string;
  workspaceId: string;
  feedbackId: string;
  position: number;
  /** The feedback's rating and time, kept beside each passage for the per-document view. */
  rating: string;
  createdAt: string;
}

export const FEEDBACK_CITATIONS = table<FeedbackCitationRow>('feedback_citations', [
  ['tenantId', 'tenant_id', 'text'],
  ['workspaceId', 'workspace_id', 'text'],
  ['feedbackId', 'feedback_id', 'text'],
  ['position', 'position', 'number'],
  ['documentId', 'document_id', 'text'],
  ['chunkId', 'chunk_id', 'text'],
  ['documentVersion', 'document_version', 'text'],
  ['rating', 'rating', 'text'],
  ['createdAt', 'created_at', 'time'],
  ['addressedAt', 'addressed_at', 'time', { nullable: true }],
]);

export const VERIFIED_VISITORS = table<VerifiedVisitorLink>('verified_visitors', [
  ['tenantId', 'tenant_id', 'text'],
  ['workspaceId', 'workspace_id', 'text'],
  ['verifiedId', 'verified_id', 'text'],
  ['visitorId', 'visitor_id', 'text'],
  ['createdAt', 'created_at', 'time'],
]);

/** A job's lease: who runs it, until when (a row per job, taken and released by the job runner). */
export interface JobLeaseRow {
  job: string;
  holder: string;
  until: string;
}

export const JOB_LEASES = table<JobLeaseRow>('job_leases', [
  ['job', 'job', 'text'],
  ['holder', 'holder', 'text'],
  ['until', 'until', 'time'],
]);

/** A job's resumable state (a cursor, a checkpoint). */
export interface JobStateRow {
  job: string;
  state: Record<string, unknown>;
  updatedAt: string;
}

export const JOB_STATE = table<JobStateRow>('job_state', [
  ['job', 'job', 'text'],
  ['state', 'state', 'json'],
  ['updatedAt', 'updated_at', 'time'],
]);

/** A tenant's single sign-on provider (one row per tenant). */
export const SSO_CONFIGS = table<SsoConfigRecord>('sso_configs', [
  ['tenantId', 'tenant_id', 'text'],
  ['issuer', 'issuer', 'text'],
  ['clientId', 'client_id', 'text'],
  ['clientSecret', 'client_secret', 'text'],
  ['allowedDomains', 'allowed_domains', 'json'],
  ['roleClaim', 'role_claim', 'text', { nullable: true }],
  ['roleMap', 'role_map', 'json'],
  ['defaultRole', 'default_role', 'text', { nullable: true }],
  ['passwordLogin', 'password_login', 'bool'],
  ...stamped,
]);

/** Single sign-on attempts between the redirect and the callback. */
export const SSO_STATES = table<SsoStateRecord>('sso_states', [
  ['id', 'id', 'text'],
  ['tenantId', 'tenant_id', 'text'],
  ['nonce', 'nonce', 'text'],
  ['codeVerifier', 'code_verifier', 'text'],
  ['createdAt', 'created_at', 'time'],
  ['expiresAt', 'expires_at', 'time'],
]);

/** Sessions opened by a tenant's provider. */
export const SSO_SESSIONS = table<SsoSessionRecord>('sso_sessions', [
  ['sessionId', 'session_id', 'text'],
  ['tenantId', 'tenant_id', 'text'],
  ['userId', 'user_id', 'text'],
  ['createdAt', 'created_at', 'time'],
  ['expiresAt', 'expires_at', 'time'],
]);
