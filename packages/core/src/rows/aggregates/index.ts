/**
 * Every aggregate the storage kit writes once, on one driver: a SQL store spreads these into its
 * `Store` and adds only the aggregates it still implements itself.
 */
import type { SearchIndex } from '../../search/ports/search-index.js';
import type { SqlDriver } from '../driver.js';
import type { CounterTables } from './counter-tables.js';
import { API_QUERY_EVENTS, RATE_COUNTERS } from '../tables.js';
import { SqlRateLimits } from './rate-limits.js';
import { SqlApiKeys, SqlTenants, SqlWorkspaces } from './tenancy.js';
import { SqlUsage } from './usage.js';
import { SqlUsers } from './users.js';
import { SqlAudit } from './audit.js';
import { SqlBilling } from './billing.js';
import { SqlCuratedAnswers } from './curated-answers.js';
import { SqlEvals } from './evaluation.js';
import { SqlFlows } from './flows.js';
import { SqlHostnames, SqlTombstones } from './hostnames.js';
import { SqlFeedback, SqlQuestionLog } from './insights.js';
import { SqlResolutions } from './resolutions.js';
import { SqlRetention } from './retention.js';
import { SqlConversations } from './conversations.js';
import { SqlJobs } from './jobs.js';
import { SqlCustomers, SqlInbox, SqlPersonas, SqlTickets, SqlVisitors } from './support.js';
import { SqlConnectors, SqlIdempotency, SqlOrigins } from './sync.js';
import { SqlSso } from './sso.js';
import { SqlVerifiedVisitors, SqlVisitorKeys } from './visitor-keys.js';


/** What the kit's aggregates need from the store beyond its driver. */
export interface KitPorts {
  /** The store's search index: a purged workspace's chunks go through it. */
  search: SearchIndex;
  /** The store's tenant erasure: it finds the tables with `tenant_id` in its own catalog and owns the index's files. */
  eraseTenant(id: string): Promise<Record<string, number>>;
  /**
   * A driver for the request counters, written on every counted request: a store may keep them
   * apart from its other tables (default: the kit's driver).
   */
  counters?: SqlDriver;
  /** Write the query events of concurrent requests together, one statement a batch (default false). */
  groupCommit?: boolean;
}

export function kitAggregates(kit: SqlDriver, ports: KitPorts) {
  const counters: CounterTables = { driver: ports.counters ?? kit, tables: new Set([RATE_COUNTERS.table, API_QUERY_EVENTS.table]) };
  return {
    tenants: new SqlTenants(kit, ports.eraseTenant),
    workspaces: new SqlWorkspaces(kit, ports.search, counters),
    apiKeys: new SqlApiKeys(kit),
    users: new SqlUsers(kit),
    rateLimits: new SqlRateLimits(counters.driver),
    usage: new SqlUsage(kit, counters.driver, ports.groupCommit ?? false),
    audit: new SqlAudit(kit),
    retention: new SqlRetention(kit),
    hostnames: new SqlHostnames(kit),
    tombstones: new SqlTombstones(kit),
    curatedAnswers: new SqlCuratedAnswers(kit),
    evals: new SqlEvals(kit),
    visitorKeys: new SqlVisitorKeys(kit),
    verifiedVisitors: new SqlVerifiedVisitors(kit),
    billing: new SqlBilling(kit),
    resolutions: new SqlResolutions(kit),
    flows: new SqlFlows(kit),
    origins: new SqlOrigins(kit),
    connectors: new SqlConnectors(kit),
    idempotency: new SqlIdempotency(kit),
    tickets: new SqlTickets(kit),
    personas: new SqlPersonas(kit),
    customers: new SqlCustomers(kit),
    questions: new SqlQuestionLog(kit),
    feedback: new SqlFeedback(kit),
    conversations: new SqlConversations(kit),
    visitors: new SqlVisitors(kit),
    inbox: new SqlInbox(kit),
    jobs: new SqlJobs(kit),
    sso: new SqlSso(kit),
  };
}
