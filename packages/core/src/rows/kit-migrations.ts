/**
 * The schema steps of the storage kit's tables, written once for every SQL store. Each store
 * applies them after its own numbered migrations, in this order, each once (recorded by id in
 * `kit_migrations`) and all-or-none. Append new steps at the end; never edit an applied one.
 */
import { addColumns, addIndexes, type KitStatements } from './ddl.js';
import { AUDIT_EVENTS, WORKSPACES } from './tables.js';

export interface KitMigration {
  /** Stable and unique: `<table>-<what>`. */
  id: string;
  statements: KitStatements;
}

export const KIT_MIGRATIONS: readonly KitMigration[] = [
  // A workspace's redaction and retention settings; null on workspaces created before them.
  { id: 'workspaces-privacy', statements: addColumns(WORKSPACES, ['privacy']) },
  // The tenant audit chain: actor kinds, before/after summaries, sequence numbers and hashes.
  {
    id: 'audit-events-chain',
    statements: (ctx) => [
      ...addColumns(AUDIT_EVENTS, ['actorKind', 'before', 'after', 'seq', 'prevHash', 'hash'])(ctx),
      ...addIndexes(AUDIT_EVENTS, [
        { name: 'audit_events_chain', fields: ['tenantId', 'seq'], unique: true },
        { name: 'audit_events_created', fields: ['tenantId', 'createdAt'] },
      ])(ctx),
    ],
  },
];

/** Where each store records the steps it applied. */
export const KIT_MIGRATIONS_TABLE = 'kit_migrations';
