/**
 * What the SQL stores share and nothing else needs: the row codec, every aggregate's table
 * spec, and the workspace purge loop. Imported as `@panya/core/rows`; not part of the engine API.
 */
export { page, rowCodec, tableSpec, type ColumnKind, type ColumnSpec, type Conflict, type Dialect, type DialectName, type FieldPath, type Row, type RowCodec, type TableSpec } from './codec.js';
export * as tables from './tables.js';
export { purgeWorkspace, WORKSPACE_CASCADE, type CascadeStep, type WorkspacePurgeStatements } from './workspace-purge.js';
export { BILLABLE_CONVERSATION, DISQUALIFYING_FLAG } from '../services/resolutions.js';
