/**
 * The storage kit: what the SQL stores share and nothing else needs. The row codec and every
 * aggregate's table spec; `sql` and the `SqlDriver` a store implements; `SqlTable` and the
 * aggregates written once over it; the kit's schema steps; the workspace purge loop. Imported as
 * `@panya/core/rows`; not part of the engine API.
 */
export { page, rowCodec, tableSpec, type ColumnKind, type ColumnSpec, type Conflict, type Dialect, type DialectName, type FieldPath, type InternalColumn, type Row, type RowCodec, type TableSpec } from './codec.js';
export * as tables from './tables.js';
export type { RateCounter } from './tables.js';
export { purgeWorkspace, WORKSPACE_CASCADE, WORKSPACE_KEPT, type CascadeStep, type WorkspacePurgeStatements } from './workspace-purge.js';
export { BILLABLE_CONVERSATION, DISQUALIFYING_FLAG } from '../billing/resolutions.js';
export { sql, Sql, type RenderContext } from './sql.js';
export type { SqlDriver } from './driver.js';
export { SqlTable } from './table.js';
export { addColumns, addIndexes, createTable, type IndexSpec, type KitStatements, type ReferenceSpec, type TableOptions } from './ddl.js';
export { BASE_TABLES, baseSchema, type BaseTable } from './base-schema.js';
export { BILLABLE_INDEX, billableWhere, LEGACY_BILLABLE_INDEX } from './billable-index.js';
export { KIT_MIGRATIONS, KIT_MIGRATIONS_TABLE, type KitMigration } from './kit-migrations.js';
export { SqlBilling } from './aggregates/billing.js';
export { SqlFlows } from './aggregates/flows.js';
export { SqlHostnames, SqlTombstones } from './aggregates/hostnames.js';
export { SqlResolutions } from './aggregates/resolutions.js';
export { SqlCustomers, SqlInbox, SqlPersonas, SqlTickets, SqlVisitors } from './aggregates/support.js';
export { SqlConversations } from './aggregates/conversations.js';
export { SqlJobs } from './aggregates/jobs.js';
export { claimable, QUEUED, SqlDocuments } from './aggregates/documents.js';
export { SqlConnectors, SqlIdempotency, SqlOrigins } from './aggregates/sync.js';
export { SqlVisitorKeys, SqlVerifiedVisitors } from './aggregates/visitor-keys.js';
export { SqlCuratedAnswers } from './aggregates/curated-answers.js';
export { SqlEvals } from './aggregates/evaluation.js';
export { SqlFeedback, SqlQuestionLog } from './aggregates/insights.js';
export { SqlAudit } from './aggregates/audit.js';
export { SqlRetention } from './aggregates/retention.js';
export { kitAggregates, type KitPorts } from './aggregates/index.js';
export type { CounterTables } from './aggregates/counter-tables.js';
export { SqlApiKeys, SqlTenants, SqlWorkspaces } from './aggregates/tenancy.js';
export { SqlUsers } from './aggregates/users.js';
export { SqlRateLimits } from './aggregates/rate-limits.js';
export { SqlUsage } from './aggregates/usage.js';
