/**
 * The schema steps of the storage kit's tables, written once for every SQL store. Each store
 * applies them after its own numbered migrations, in this order, each once (recorded by id in
 * `kit_migrations`) and all-or-none. Append new steps at the end; never edit an applied one.
 */
import type { KitStatements } from './ddl.js';

export interface KitMigration {
  /** Stable and unique: `<table>-<what>`. */
  id: string;
  statements: KitStatements;
}

export const KIT_MIGRATIONS: readonly KitMigration[] = [
  {
    // Lexical segments (see search/lexical-segment.ts): bytes a spec's column kinds cannot say, so the
    // DDL is written here for both dialects. workspace_id NULL: the tenant's legacy chunks. A deletion
    // masks its chunk in the scope's segments written before it (lower seq). Scopes holding chunks
    // from before segments are pending until the backfill writes theirs (searches build from rows meanwhile).
    id: 'lexical-segments-v1',
    statements: ({ dialect, name }) => {
      const pg = dialect.name === 'postgres';
      const id = pg ? 'id bigserial PRIMARY KEY' : 'id INTEGER PRIMARY KEY AUTOINCREMENT';
      const int = pg ? 'bigint' : 'INTEGER';
      return [
        `CREATE TABLE ${name('lexical_segments')} (${id}, tenant_id text NOT NULL, workspace_id text, seq ${int} NOT NULL, chunks ${int} NOT NULL, data ${pg ? 'bytea' : 'BLOB'} NOT NULL)`,
        `CREATE INDEX lexical_segments_scope ON ${name('lexical_segments')} (tenant_id, workspace_id)`,
        `CREATE TABLE ${name('lexical_deletions')} (${id}, tenant_id text NOT NULL, workspace_id text, chunk_id text NOT NULL, seq ${int} NOT NULL)`,
        `CREATE INDEX lexical_deletions_scope ON ${name('lexical_deletions')} (tenant_id, workspace_id)`,
        `CREATE TABLE ${name('lexical_pending')} (tenant_id text NOT NULL, workspace_id text)`,
        `CREATE INDEX lexical_pending_scope ON ${name('lexical_pending')} (tenant_id, workspace_id)`,
        `INSERT INTO ${name('lexical_pending')} (tenant_id, workspace_id) SELECT DISTINCT tenant_id, workspace_id FROM ${name('chunks')}`,
      ];
    },
  },
];

/** Where each store records the steps it applied. */
export const KIT_MIGRATIONS_TABLE = 'kit_migrations';
