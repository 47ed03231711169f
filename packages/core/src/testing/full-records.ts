/**
 * One record of each type a kit spec maps, every field set (optional ones too, `Required<…>`
 * makes a new field a compile error here until it has a value), none of them null: a field
 * without a column comes back missing from the round trip and fails the columns suite.
 */
import type { TableSpec } from '../rows/codec.js';
import { sql, type Sql } from '../rows/sql.js';
import * as tables from '../rows/tables.js';
import type { ApiKeyRecord, TenantRecord, WorkspaceRecord } from '../ports/store.js';
import type { MembershipRecord, SessionRecord, UserRecord } from '../tenancy/ports/users.js';
import type { ApiQueryEvent, UsageRecord } from '../tenancy/ports/usage.js';
import type { MeterOutboxRecord, TenantBillingRecord } from '../billing/ports/billing.js';
import type { ConversationRecord, MessageRecord } from '../answers/ports/conversations.js';
import type { CuratedAnswerRecord } from '../answers/ports/curated-answers.js';
import type { FlowRecord, FlowRunRecord } from '../support/ports/flows.js';
import type { ResolutionRecord } from '../billing/ports/resolutions.js';
import type { AuditEvent, DocumentRecord, IdempotencyRecord } from '../ports/store.js';
import type { EvalRunRecord, EvalSetRecord } from '../answers/ports/evaluation.js';
import type { FeedbackRecord, QuestionRecord, StoredGaps } from '../insights/ports/insights.js';
import type { CustomerRecord, PersonaRecord, TicketComment, TicketRecord, VisitorRecord } from '../support/ports/support.js';
import type { CustomHostnameRecord, TenantTombstone } from '../hostnames/ports/record.js';
import type { SsoConfigRecord, SsoSessionRecord, SsoStateRecord } from '../tenancy/ports/sso.js';
import type { VerifiedVisitorLink, VisitorKeyRecord } from '../tenancy/ports/visitor-keys.js';

export interface FullRecords<T> {
  spec: TableSpec<T>;
  /** Parents first: the rows the later ones reference. */
  records: T[];
  /** The statement that reads one record back. */
  read(ref: Sql, record: T): Sql;
}

const T0 = '2030-01-02T03:04:05.000Z';
const T1 = '2030-02-03T04:05:06.000Z';
const T2 = '2030-03-04T05:06:07.000Z';
const byId = (ref: Sql, r: { id: string }) => sql`SELECT * FROM ${ref} WHERE id = ${r.id}`;
const full = <T>(spec: TableSpec<T>, records: Required<T>[], read: (ref: Sql, record: T) => Sql = byId as never): FullRecords<T> => ({ spec, records: records as T[], read });

/** Records within the given (seeded) tenant and workspace. */
export function fullRecords(scope: { tenantId: string; workspaceId: string }): FullRecords<never>[] {
  const { tenantId, workspaceId } = scope;
  const list: FullRecords<any>[] = [
    full<TenantRecord>(tables.TENANTS, [
      { id: 'ten_full', slug: 'full-tenant', plan: 'team', quotas: { queriesPerDay: 5, legacyPlan: 'business' }, paymentCustomerId: 'cus_full', createdAt: T0, updatedAt: T1 },
    ]),
    full<WorkspaceRecord>(tables.WORKSPACES, [
      {
        id: 'ws_full',
        tenantId,
        slug: 'full-ws',
        name: 'Full',
        brandAccent: '#123456',
        isDefault: false,
        deletedAt: T2,
        suspendedAt: T1,
        privacy: { redactPii: true, patterns: [{ name: 'order', pattern: 'ORD-\\d+' }], retentionDays: 30 },
        createdAt: T0,
        updatedAt: T1,
      },
    ]),
    full<ApiKeyRecord>(tables.API_KEYS, [
      {
        id: 'key_full',
        tenantId,
        kind: 'publishable',
        workspaceId,
        name: 'widget',
        prefix: 'pk_full',
        secretHash: 'hash_full',
        scopes: ['read', 'mcp'],
        createdAt: T0,
        revokedAt: T1,
        surface: 'help_center',
        embeddedKey: 'embedded_full',
        lastUsedAt: T2,
      },
    ]),
    full<UserRecord>(tables.USERS, [{ id: 'usr_full', email: 'full@example.com', passwordHash: 'scrypt$1$2$3$salt$hash', createdAt: T0 }]),
    full<MembershipRecord>(tables.MEMBERSHIPS, [{ id: 'mem_full', userId: 'usr_full', tenantId, workspaceId, role: 'admin', createdAt: T0 }]),
    full<SessionRecord>(tables.SESSIONS, [{ id: 'ses_full', userId: 'usr_full', createdAt: T0, expiresAt: T1, revokedAt: T2 }]),
    full<ApiQueryEvent>(tables.API_QUERY_EVENTS, [
      { id: 'evt_full', tenantId, workspaceId, keyId: 'key_full', kind: 'mcp_tool', tool: 'svc_search', billingPeriod: '2030-01', createdAt: T0 },
    ]),
    full<UsageRecord>(tables.USAGE_RECORDS, [
      { id: 'use_full', tenantId, workspaceId, meter: 'resolution', quantity: 2.5, billingPeriod: '2030-01', createdAt: T0, data: { conversationId: 'cnv_1', refunded: false } },
    ]),
    full<tables.RateCounter>(tables.RATE_COUNTERS, [{ key: 'q:day:full', window: '2030-01-02', count: 3, resetAt: T1 }], (ref, r) => sql`SELECT * FROM ${ref} WHERE key = ${r.key} AND win = ${r.window}`),
    full<TenantBillingRecord>(tables.TENANT_BILLING, [
      {
        tenantId,
        subscriptionId: 'sub_full',
        subscriptionStatus: 'past_due',
        interval: 'year',
        lockedRates: { resolutionSatang: 150, apiQuerySatang: 2 },
        lockedUntil: T2,
        addonSeats: 3,
        planHistory: [{ at: T0, from: 'free', to: 'team' }],
        subscriptionEventAt: T1,
        updatedAt: T1,
      },
    ], (ref, r) => sql`SELECT * FROM ${ref} WHERE tenant_id = ${r.tenantId}`),
    full<MeterOutboxRecord>(tables.METER_OUTBOX, [
      { identifier: 'mev_full', tenantId, period: '2030-01', meter: 'svc_api_queries', eventName: 'api_queries', customerId: 'cus_full', value: 42, occurredAt: T0, createdAt: T1, sentAt: T2 },
    ], (ref, r) => sql`SELECT * FROM ${ref} WHERE identifier = ${r.identifier}`),
    full<VisitorRecord>(tables.VISITORS, [{ id: 'vis_full', tenantId, workspaceId, name: 'Somchai', email: 'somchai@example.com', createdAt: T0, updatedAt: T1 }]),
    full<ConversationRecord>(tables.CONVERSATIONS, [
      {
        id: 'cnv_full',
        tenantId,
        workspaceId,
        locale: 'th',
        hasGroundedAnswer: true,
        hasThumbsDown: true,
        handedOff: true,
        createdAt: T0,
        lastMessageAt: T1,
        startedBy: 'public',
        hasUngroundedAnswer: true,
        visitorId: 'vis_full',
        csat: { score: 4, comment: 'good', at: T2 },
        tags: ['billing', 'ไทย'],
      },
    ]),
    full<MessageRecord>(tables.MESSAGES, [
      {
        id: 'msg_full',
        conversationId: 'cnv_full',
        tenantId,
        workspaceId,
        role: 'assistant',
        content: 'answer',
        citations: [],
        grounded: true,
        createdAt: T1,
        feedback: { rating: 'down', comment: 'wrong', at: T2 },
      },
    ]),
    full<ResolutionRecord>(tables.RESOLUTIONS, [
      { id: 'res_full', tenantId, workspaceId, conversationId: 'cnv_full', billingPeriod: '2030-01', createdAt: T1, reportedPeriod: '2030-01', refundedAt: T2, correctedPeriod: '2030-02' },
    ]),
    full<FlowRecord>(tables.FLOWS, [{ id: 'flw_full', tenantId, workspaceId, name: 'Refund', steps: [{ title: 'Ask', instructions: 'Ask for the order' }], createdAt: T0, updatedAt: T1 }]),
    full<FlowRunRecord>(tables.FLOW_RUNS, [
      { id: 'frn_full', tenantId, workspaceId, flowId: 'flw_full', conversationId: 'cnv_full', status: 'completed', draft: 'draft text', createdAt: T0, draftedAt: T1, completedAt: T2 },
    ]),
    full<TicketRecord>(tables.TICKETS, [
      {
        id: 'tkt_full',
        tenantId,
        workspaceId,
        subject: 'Refund',
        body: 'Please refund',
        priority: 'urgent',
        status: 'closed',
        conversationId: 'cnv_full',
        visitorId: 'vis_full',
        dueAt: T1,
        breachedAt: T1,
        closedAt: T2,
        createdAt: T0,
        updatedAt: T2,
      },
    ]),
    full<TicketComment>(tables.TICKET_COMMENTS, [{ id: 'tcm_full', ticketId: 'tkt_full', tenantId, workspaceId, body: 'Done', author: 'usr_full', createdAt: T2 }]),
    full<PersonaRecord>(tables.PERSONAS, [{ id: 'per_full', tenantId, workspaceId, name: 'Friendly', tone: 'warm', instructions: 'Be kind', locale: 'en', createdAt: T0, updatedAt: T1 }]),
    full<CustomerRecord>(tables.CUSTOMERS, [{ id: 'cst_full', tenantId, workspaceId, name: 'Acme', domain: 'acme.example', externalId: 'crm_1', notes: 'VIP', createdAt: T0, updatedAt: T1 }]),
    full<CustomHostnameRecord>(tables.CUSTOM_HOSTNAMES, [
      {
        id: 'hst_full',
        tenantId,
        hostname: 'help.full.example',
        status: 'failed',
        edgeHostnameId: 'edge_full',
        txtName: '_panya.help.full.example',
        txtValue: 'token',
        verificationError: 'txt_mismatch',
        verificationDetail: 'found another value',
        statusChangedAt: T1,
        lastCheckedAt: T2,
        createdAt: T0,
        updatedAt: T2,
      },
    ]),
    full<TenantTombstone>(tables.TENANT_TOMBSTONES, [
      { slug: 'erased-full', tenantId: 'ten_erased', hostnames: ['help.erased.example'], erasedAt: T0, purgedAt: T2, purgeAttemptedAt: T1 },
    ], (ref, r) => sql`SELECT * FROM ${ref} WHERE slug = ${r.slug}`),
    full<IdempotencyRecord>(tables.IDEMPOTENCY_KEYS, [
      { tenantId, key: 'idem_full', fingerprint: 'fp', response: { status: 201, headers: { location: '/api/x' }, body: '{"ok":true}' }, createdAt: T0, expiresAt: T1 },
    ], (ref, r) => sql`SELECT * FROM ${ref} WHERE tenant_id = ${r.tenantId} AND key = ${r.key}`),
    full<VisitorKeyRecord>(tables.VISITOR_KEYS, [
      { tenantId, workspaceId, algorithm: 'EdDSA', key: '-----BEGIN PUBLIC KEY-----', issuer: 'https://id.example', audience: 'panya', createdAt: T0, updatedAt: T1 },
    ], (ref, r) => sql`SELECT * FROM ${ref} WHERE tenant_id = ${r.tenantId} AND workspace_id = ${r.workspaceId}`),
    full<VerifiedVisitorLink>(tables.VERIFIED_VISITORS, [{ tenantId, workspaceId, verifiedId: 'ext_full', visitorId: 'vis_full', createdAt: T0 }], (ref, r) =>
      sql`SELECT * FROM ${ref} WHERE tenant_id = ${r.tenantId} AND workspace_id = ${r.workspaceId} AND verified_id = ${r.verifiedId}`,
    ),
    full<CuratedAnswerRecord>(tables.CURATED_ANSWERS, [
      {
        id: 'cur_full',
        tenantId,
        workspaceId,
        question: 'How to refund?',
        paraphrases: ['refund please'],
        answer: 'Like this',
        documentIds: ['doc_1'],
        origin: 'feedback',
        originRef: 'fbk_1',
        createdBy: 'usr_full',
        createdAt: T0,
        updatedAt: T1,
      },
    ]),
    full<AuditEvent>(tables.AUDIT_EVENTS, [
      {
        id: 'aud_full',
        tenantId,
        workspaceId,
        type: 'api_key.created',
        actor: 'usr_full',
        actorKind: 'user',
        subjectId: 'key_full',
        data: { name: 'widget' },
        before: { scopes: ['read'] },
        after: { scopes: ['read', 'mcp'] },
        createdAt: T0,
        seq: 99,
        prevHash: 'prev',
        hash: 'hash',
      },
    ]),
    full<DocumentRecord>(tables.DOCUMENTS, [
      {
        id: 'doc_full',
        tenantId,
        workspaceId,
        title: 'Refunds',
        contentMd: '# Refunds',
        url: 'https://docs.example/refunds',
        publicSurfaces: ['help_center'],
        audiences: ['internal', 'partners'],
        externalId: 'ext_doc',
        metadata: { owner: 'billing' },
        status: 'failed',
        error: 'no text',
        createdAt: T0,
        updatedAt: T1,
      },
    ]),
    full<tables.DocumentLease>(tables.DOCUMENT_LEASES, [{ tenantId, documentId: 'doc_full', leaseUntil: T2, holder: 'node-a/run-1/t0' }], (ref, r) => sql`SELECT * FROM ${ref} WHERE document_id = ${r.documentId}`),
    full<EvalSetRecord>(tables.EVAL_SETS, [
      { id: 'evs_full', tenantId, workspaceId, name: 'Golden', questions: [{ id: 'q1', question: 'How to refund?', documentIds: ['doc_full'], source: 'manual' }], createdAt: T0, updatedAt: T1 },
    ]),
    full<EvalRunRecord>(tables.EVAL_RUNS, [
      {
        id: 'evr_full',
        tenantId,
        workspaceId,
        setId: 'evs_full',
        status: 'failed',
        weights: { lexical: 1, semantic: 0.5 },
        metrics: { hitAt1: 1, hitAt5: 1, mrr: 1, ndcgAt10: 1, citationAccuracy: 0.5, questions: 1 },
        results: [],
        previousRunId: 'evr_before',
        error: 'embedder down',
        createdAt: T0,
        finishedAt: T1,
      },
    ]),
    full<QuestionRecord>(tables.QUESTION_LOG, [
      {
        id: 'qst_full',
        tenantId,
        workspaceId,
        question: 'How to refund?',
        source: 'chat',
        outcome: 'low_evidence',
        topScore: 0.25,
        groundedSentences: 1,
        sentences: 3,
        conversationId: 'cnv_full',
        messageId: 'msg_full',
        citations: [{ documentId: 'doc_full', chunkId: 'chk_1', documentVersion: 'v1' }],
        thumbsDown: true,
        handedOff: true,
        createdAt: T1,
      },
    ]),
    full<StoredGaps & { tenantId: string; workspaceId: string }>(tables.GAP_SNAPSHOTS, [
      { tenantId, workspaceId, period: '2030-01', computedAt: T1, questions: 12, clusters: [{ label: 'refunds', size: 3 }], requestedAt: T0 },
    ], (ref, r) => sql`SELECT * FROM ${ref} WHERE tenant_id = ${r.tenantId} AND workspace_id = ${r.workspaceId} AND period = ${r.period}`),
    full<Omit<FeedbackRecord, 'citations'>>(tables.FEEDBACK, [
      { id: 'fbk_full', tenantId, workspaceId, messageId: 'msg_full', conversationId: 'cnv_full', rating: 'down', comment: 'wrong', question: 'How to refund?', createdAt: T1, updatedAt: T2 },
    ]),
    full<tables.FeedbackCitationRow>(tables.FEEDBACK_CITATIONS, [
      { tenantId, workspaceId, feedbackId: 'fbk_full', position: 0, documentId: 'doc_full', chunkId: 'chk_1', documentVersion: 'v1', rating: 'down', createdAt: T1, addressedAt: T2 },
    ], (ref, r) => sql`SELECT * FROM ${ref} WHERE feedback_id = ${r.feedbackId} AND position = ${r.position}`),
    full<tables.JobLeaseRow>(tables.JOB_LEASES, [{ job: 'full-job', holder: 'node-1/worker', until: T1 }], (ref, r) => sql`SELECT * FROM ${ref} WHERE job = ${r.job}`),
    full<tables.JobStateRow>(tables.JOB_STATE, [{ job: 'full-job', state: { cursor: 'c1', done: 2 }, updatedAt: T1 }], (ref, r) => sql`SELECT * FROM ${ref} WHERE job = ${r.job}`),
    full<SsoConfigRecord>(tables.SSO_CONFIGS, [
      { tenantId, issuer: 'https://id.example.com', clientId: 'panya', clientSecret: 'sec_full', allowedDomains: ['example.com'], roleClaim: 'groups', roleMap: { admins: 'admin' }, defaultRole: 'viewer', passwordLogin: false, createdAt: T0, updatedAt: T1 },
    ], (ref, r) => sql`SELECT * FROM ${ref} WHERE tenant_id = ${r.tenantId}`),
    full<SsoStateRecord>(tables.SSO_STATES, [{ id: 'sso_state_full', tenantId, nonce: 'n1', codeVerifier: 'v1', createdAt: T0, expiresAt: T1 }]),
    full<SsoSessionRecord>(tables.SSO_SESSIONS, [{ sessionId: 'ses_full', tenantId, userId: 'usr_full', createdAt: T0, expiresAt: T1 }], (ref, r) => sql`SELECT * FROM ${ref} WHERE session_id = ${r.sessionId} AND tenant_id = ${r.tenantId}`),
  ];
  return list as FullRecords<never>[];
}
