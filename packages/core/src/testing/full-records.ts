/**
 * One record of each type a kit spec maps, every field set (optional ones too, `Required<…>`
 * makes a new field a compile error here until it has a value), none of them null: a field
 * without a column comes back missing from the round trip and fails the columns suite.
 */
import type { TableSpec } from '../rows/codec.js';
import { sql, type Sql } from '../rows/sql.js';
import * as tables from '../rows/tables.js';
import type { ApiKeyRecord, TenantRecord, WorkspaceRecord } from '../ports/store.js';
import type { MembershipRecord, SessionRecord, UserRecord } from '../ports/users.js';
import type { ApiQueryEvent, UsageRecord } from '../ports/usage.js';

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
  ];
  return list as FullRecords<never>[];
}
