/**
 * The schema steps of the storage kit's tables, written once for every SQL store. Each store
 * applies them after its own numbered migrations, in this order, each once (recorded by id in
 * `kit_migrations`) and all-or-none. Append new steps at the end; never edit an applied one.
 */
import { createTable, type KitStatements } from './ddl.js';
import { CURATED_ANSWERS, EVAL_RUNS, EVAL_SETS } from './tables.js';

export interface KitMigration {
  /** Stable and unique: `<table>-<what>`. */
  id: string;
  statements: KitStatements;
}

export const KIT_MIGRATIONS: readonly KitMigration[] = [
  {
    id: 'curated-answers-v1',
    statements: createTable(CURATED_ANSWERS, { primaryKey: ['id'], indexes: [{ name: 'curated_answers_workspace', fields: ['tenantId', 'workspaceId', 'createdAt'] }] }),
  },
  {
    id: 'eval-v1',
    statements: (ctx) => [
      ...createTable(EVAL_SETS, { primaryKey: ['id'], indexes: [{ name: 'eval_sets_workspace', fields: ['tenantId', 'workspaceId', 'createdAt'] }] })(ctx),
      ...createTable(EVAL_RUNS, { primaryKey: ['id'], indexes: [{ name: 'eval_runs_set', fields: ['tenantId', 'workspaceId', 'setId', 'createdAt'] }] })(ctx),
    ],
  },
];

/** Where each store records the steps it applied. */
export const KIT_MIGRATIONS_TABLE = 'kit_migrations';
