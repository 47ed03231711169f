/**
 * The schema of a new database, generated: every table with a spec, created whole with its
 * primary key, unique constraints, foreign keys and plain indexes (declared here, once). A store
 * adds only what a spec cannot say (search and vector tables, triggers, expression indexes) and
 * records every numbered migration and kit step as applied. A database created before keeps
 * upgrading through those steps; a test on each store proves both paths end in the same schema.
 */
import { BILLABLE_INDEX } from './billable-index.js';
import { tableSpec, type TableSpec } from './codec.js';
import { createTable, type IndexSpec, type KitStatements, type TableOptions } from './ddl.js';
import type { RenderContext } from './sql.js';
import { DOCUMENT_LEASE_TABLE, QUEUED } from './aggregates/documents.js';
import * as t from './tables.js';
import { GAP_QUESTION } from './kit-migrations.js';

/** Tables whose rows no record maps (sets and balances kept by the store's own queries): a spec for their DDL only. */
export const TENANT_ORIGINS = tableSpec<{ tenantId: string; origin: string }>('tenant_origins', [
  { field: 'tenantId', column: 'tenant_id', kind: 'text', binary: true },
  { field: 'origin', column: 'origin', kind: 'text' },
]);
export const CONNECTOR_SECRETS = tableSpec<{ tenantId: string; secret: string; createdAt: string }>('connector_secrets', [
  { field: 'tenantId', column: 'tenant_id', kind: 'text', binary: true },
  { field: 'secret', column: 'secret', kind: 'text' },
  { field: 'createdAt', column: 'created_at', kind: 'time' },
]);
export const CONNECTOR_EVENTS = tableSpec<{ tenantId: string; eventId: string; workspaceId: string; receivedAt: string }>('connector_events', [
  { field: 'tenantId', column: 'tenant_id', kind: 'text', binary: true },
  { field: 'eventId', column: 'event_id', kind: 'text' },
  { field: 'workspaceId', column: 'workspace_id', kind: 'text', binary: true },
  { field: 'receivedAt', column: 'received_at', kind: 'time' },
]);
export const BILLING_WEBHOOK_EVENTS = tableSpec<{ id: string; receivedAt: string }>('billing_webhook_events', [
  { field: 'id', column: 'id', kind: 'text' },
  { field: 'receivedAt', column: 'received_at', kind: 'time' },
]);
export const METER_CREDITS = tableSpec<{ tenantId: string; meter: string; balance: number }>('meter_credits', [
  { field: 'tenantId', column: 'tenant_id', kind: 'text', binary: true },
  { field: 'meter', column: 'meter', kind: 'text' },
  { field: 'balance', column: 'balance', kind: 'number' },
]);

export interface BaseTable<T> extends TableOptions<T> {
  spec: TableSpec<T>;
}

function base<T>(spec: TableSpec<T>, options: TableOptions<T>): BaseTable<unknown> {
  return { spec, ...options } as unknown as BaseTable<unknown>;
}

const tenant = { fields: ['tenantId'], table: 'tenants', onDelete: 'cascade' } as const;
const workspace = { fields: ['workspaceId'], table: 'workspaces', onDelete: 'cascade' } as const;
const scope = <T>(name: string, more: IndexSpec<T>['fields'] = []): IndexSpec<T> => ({ name, fields: ['tenantId', 'workspaceId', ...more] as IndexSpec<T>['fields'] });
/** A predicate the two dialects write differently (SQLite keeps booleans as 0/1). */
const perDialect = (sqlite: string, postgres: string) => (ctx: RenderContext) => (ctx.dialect.name === 'sqlite' ? sqlite : postgres);

/** Every table with a spec, in an order its foreign keys allow. */
export const BASE_TABLES: readonly BaseTable<unknown>[] = [
  base(t.TENANTS, { primaryKey: ['id'], unique: [['slug']] }),
  base(t.WORKSPACES, {
    primaryKey: ['id'],
    unique: [['tenantId', 'slug']],
    references: [tenant],
    indexes: [
      { name: 'workspaces_one_default', fields: ['tenantId'], unique: true, where: perDialect('is_default = 1', 'is_default') },
      { name: 'workspaces_deleted', fields: ['deletedAt'], where: 'deleted_at IS NOT NULL' },
    ],
  }),
  base(t.API_KEYS, { primaryKey: ['id'], unique: [['secretHash']], references: [tenant, workspace], indexes: [{ name: 'api_keys_tenant', fields: ['tenantId'] }] }),
  base(t.DOCUMENTS, {
    primaryKey: ['id'],
    references: [tenant, workspace],
    indexes: [
      scope('documents_scope', ['id']),
      // The indexing queue's index, from the queue's own condition (a partial index serves only a query naming it).
      { name: 'documents_queue', fields: ['status', 'updatedAt'], where: (ctx) => QUEUED.render(ctx).text },
      { ...scope('documents_external_id', ['externalId']), unique: true, where: 'external_id IS NOT NULL' },
    ],
  }),
  base(t.DOCUMENT_LEASES, DOCUMENT_LEASE_TABLE),
  base(t.AUDIT_EVENTS, {
    primaryKey: ['id'],
    indexes: [
      { name: 'audit_events_tenant', fields: ['tenantId', 'type', 'id'] },
      { name: 'audit_events_chain', fields: ['tenantId', 'seq'], unique: true },
      { name: 'audit_events_created', fields: ['tenantId', 'createdAt'] },
    ],
  }),
  base(t.RATE_COUNTERS, { primaryKey: ['key', 'window'], indexes: [{ name: 'rate_counters_reset', fields: ['resetAt'] }] }),
  base(t.API_QUERY_EVENTS, {
    primaryKey: ['id'],
    references: [tenant],
    indexes: [{ name: 'api_query_events_period', fields: ['tenantId', 'billingPeriod', 'kind'] }, scope('api_query_events_workspace')],
  }),
  base(t.USAGE_RECORDS, { primaryKey: ['id'], references: [tenant], indexes: [{ name: 'usage_records_period', fields: ['tenantId', 'billingPeriod', 'meter'] }] }),
  base(t.USERS, { primaryKey: ['id'], unique: [['email']] }),
  base(t.MEMBERSHIPS, { primaryKey: ['id'], references: [{ fields: ['userId'], table: 'users', onDelete: 'cascade' }, tenant, workspace] }),
  base(t.SESSIONS, { primaryKey: ['id'], references: [{ fields: ['userId'], table: 'users', onDelete: 'cascade' }] }),
  base(t.JOB_LEASES, { primaryKey: ['job'] }),
  base(t.JOB_STATE, { primaryKey: ['job'] }),
  base(t.CONVERSATIONS, {
    primaryKey: ['id'],
    references: [tenant, workspace],
    indexes: [
      { name: 'conversations_billing', fields: ['tenantId', 'lastMessageAt'] },
      scope('conversations_workspace'),
      scope('conversations_list', ['id']),
      {
        ...scope('conversations_attention', ['lastMessageAt']),
        where: perDialect('handed_off = 0 AND (has_thumbs_down = 1 OR has_ungrounded_answer = 1)', 'NOT handed_off AND (has_thumbs_down OR has_ungrounded_answer)'),
      },
      BILLABLE_INDEX,
    ],
  }),
  base(t.MESSAGES, {
    primaryKey: ['id'],
    references: [{ fields: ['conversationId'], table: 'conversations', onDelete: 'cascade' }],
    indexes: [{ name: 'messages_conversation', fields: ['conversationId', 'id'] }, scope('messages_workspace')],
  }),
  base(t.CUSTOM_HOSTNAMES, {
    primaryKey: ['id'],
    unique: [['hostname']],
    references: [tenant],
    indexes: [
      { name: 'custom_hostnames_tenant', fields: ['tenantId', 'status'] },
      { name: 'custom_hostnames_status', fields: ['status', 'statusChangedAt'] },
    ],
  }),
  // Outlives its tenant on purpose: erased help-center URLs answer 410 Gone from it.
  base(t.TENANT_TOMBSTONES, { primaryKey: ['slug'] }),
  base(t.TENANT_BILLING, { primaryKey: ['tenantId'], references: [tenant] }),
  base(t.METER_OUTBOX, {
    primaryKey: ['identifier'],
    references: [tenant],
    indexes: [
      { name: 'meter_event_outbox_pending', fields: ['createdAt'], where: 'sent_at IS NULL' },
      { name: 'meter_event_outbox_period', fields: ['tenantId', 'period'] },
    ],
  }),
  base(BILLING_WEBHOOK_EVENTS, { primaryKey: ['id'] }),
  base(t.RESOLUTIONS, {
    primaryKey: ['id'],
    unique: [['conversationId']],
    references: [tenant],
    indexes: [{ name: 'resolutions_period', fields: ['tenantId', 'billingPeriod'] }, scope('resolutions_workspace')],
  }),
  base(METER_CREDITS, { primaryKey: ['tenantId', 'meter'], references: [tenant] }),
  base(t.FLOWS, { primaryKey: ['id'], references: [tenant], indexes: [scope('flows_workspace', ['createdAt'])] }),
  base(t.FLOW_RUNS, { primaryKey: ['id'], references: [tenant], indexes: [scope('flow_runs_workspace')] }),
  base(t.VISITORS, { primaryKey: ['id'], unique: [['tenantId', 'workspaceId', 'email']], references: [tenant, workspace], indexes: [scope('visitors_scope', ['id'])] }),
  base(t.TICKETS, {
    primaryKey: ['id'],
    references: [tenant, workspace],
    indexes: [scope('tickets_scope', ['id']), { name: 'tickets_sla', fields: ['dueAt'], where: "status = 'open' AND breached_at IS NULL" }],
  }),
  base(t.TICKET_COMMENTS, {
    primaryKey: ['id'],
    references: [{ fields: ['ticketId'], table: 'tickets', onDelete: 'cascade' }],
    indexes: [{ name: 'ticket_comments_ticket', fields: ['ticketId', 'id'] }, scope('ticket_comments_workspace')],
  }),
  base(t.PERSONAS, { primaryKey: ['id'], references: [tenant, workspace], indexes: [scope('personas_scope', ['id'])] }),
  base(TENANT_ORIGINS, { primaryKey: ['tenantId', 'origin'], references: [tenant], indexes: [{ name: 'tenant_origins_origin', fields: ['origin'] }] }),
  base(CONNECTOR_SECRETS, { primaryKey: ['tenantId'], references: [tenant] }),
  // Connector webhook event ids already applied: a replayed event is a no-op.
  base(CONNECTOR_EVENTS, { primaryKey: ['tenantId', 'eventId'], references: [tenant] }),
  base(t.IDEMPOTENCY_KEYS, { primaryKey: ['tenantId', 'key'], references: [tenant], indexes: [{ name: 'idempotency_keys_expiry', fields: ['expiresAt'] }] }),
  base(t.CUSTOMERS, {
    primaryKey: ['id'],
    unique: [
      ['tenantId', 'workspaceId', 'domain'],
      ['tenantId', 'workspaceId', 'externalId'],
    ],
    references: [tenant, workspace],
    indexes: [scope('customers_scope', ['id'])],
  }),
  base(t.VISITOR_KEYS, { primaryKey: ['tenantId', 'workspaceId'] }),
  base(t.CURATED_ANSWERS, { primaryKey: ['id'], indexes: [scope('curated_answers_workspace', ['createdAt'])] }),
  base(t.EVAL_SETS, { primaryKey: ['id'], indexes: [scope('eval_sets_workspace', ['createdAt'])] }),
  base(t.EVAL_RUNS, { primaryKey: ['id'], indexes: [scope('eval_runs_set', ['setId', 'createdAt'])] }),
  base(t.QUESTION_LOG, {
    primaryKey: ['id'],
    indexes: [
      { ...scope('question_log_gaps', ['createdAt', 'id']), where: GAP_QUESTION },
      { ...scope('question_log_message', ['messageId']), where: 'message_id IS NOT NULL' },
      { ...scope('question_log_conversation', ['conversationId']), where: 'conversation_id IS NOT NULL' },
    ],
  }),
  base(t.GAP_SNAPSHOTS, { primaryKey: ['tenantId', 'workspaceId', 'period'], indexes: [{ name: 'gap_snapshots_requested', fields: ['requestedAt'], where: 'requested_at IS NOT NULL' }] }),
  base(t.FEEDBACK, { primaryKey: ['id'], indexes: [{ ...scope('feedback_message', ['messageId']), unique: true }] }),
  base(t.FEEDBACK_CITATIONS, { primaryKey: ['feedbackId', 'position'], indexes: [scope('feedback_citations_document', ['documentId'])] }),
  base(t.VERIFIED_VISITORS, { primaryKey: ['tenantId', 'workspaceId', 'verifiedId'], indexes: [scope('verified_visitors_visitor', ['visitorId'])] }),
  base(t.SSO_CONFIGS, { primaryKey: ['tenantId'] }),
  base(t.SSO_STATES, { primaryKey: ['id'], indexes: [{ name: 'sso_states_expiry', fields: ['tenantId', 'expiresAt'] }] }),
  base(t.SSO_SESSIONS, { primaryKey: ['sessionId', 'tenantId'] }),
];

/** The generated part of a new database: `CREATE TABLE` and indexes of every base table but those kept elsewhere (SQLite's counters file). */
export function baseSchema(except: ReadonlySet<string> = new Set()): KitStatements {
  return (ctx) => BASE_TABLES.filter((b) => !except.has(b.spec.table)).flatMap((b) => createTable(b.spec, b)(ctx));
}
