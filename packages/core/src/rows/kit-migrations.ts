/**
 * The schema steps of the storage kit's tables, written once for every SQL store. Each store
 * applies them after its own numbered migrations, in this order, each once (recorded by id in
 * `kit_migrations`) and all-or-none. Append new steps at the end; never edit an applied one.
 */
import { addColumns, addIndexes, addInternalColumns, createTable, type KitStatements } from './ddl.js';
import type { RenderContext } from './sql.js';
import { BILLABLE_INDEX, LEGACY_BILLABLE_INDEX } from './billable-index.js';
import { DOCUMENT_LEASE_TABLE } from './aggregates/documents.js';
import { TENANTS, CONVERSATIONS, DOCUMENTS, DOCUMENT_LEASES, VISITOR_KEYS, CURATED_ANSWERS, EVAL_RUNS, EVAL_SETS, FEEDBACK, FEEDBACK_CITATIONS, GAP_SNAPSHOTS, QUESTION_LOG, VERIFIED_VISITORS, AUDIT_EVENTS, WORKSPACES, SSO_CONFIGS, SSO_STATES, SSO_SESSIONS } from './tables.js';

export interface KitMigration {
  /** Stable and unique: `<table>-<what>`. */
  id: string;
  statements: KitStatements;
}

/**
 * Published documents read as `public`, the rest `internal`. Search filters by audience inside
 * each channel, so a change of a document's audiences lists its chunks as changed (core's
 * in-memory lexical index re-reads them) and moves the tenant's search generation.
 */
function documentAudiences(ctx: RenderContext): string[] {
  const [documents, chunks, versions, changes] = ['documents', 'chunks', 'search_versions', 'search_changes'].map((t) => ctx.name(t)) as [string, string, string, string];
  if (ctx.dialect.name === 'sqlite') {
    return [
      `UPDATE ${documents} SET audiences = '["public"]' WHERE EXISTS (SELECT 1 FROM json_each(public_surfaces) WHERE value = 'help_center')`,
      `CREATE TRIGGER documents_audiences_update AFTER UPDATE OF audiences ON ${documents}
       WHEN OLD.audiences IS NOT NEW.audiences
       BEGIN
         INSERT INTO ${versions} (tenant_id, seq) VALUES (NEW.tenant_id, 1) ON CONFLICT (tenant_id) DO UPDATE SET seq = seq + 1;
         INSERT OR IGNORE INTO ${changes} (tenant_id, seq, chunk_id)
           SELECT NEW.tenant_id, v.seq, c.id FROM ${chunks} c JOIN ${versions} v ON v.tenant_id = NEW.tenant_id
           WHERE c.tenant_id = NEW.tenant_id AND c.document_id = NEW.id;
       END`,
    ];
  }
  const fn = ctx.name('documents_audiences_changed');
  return [
    `UPDATE ${documents} SET audiences = '["public"]' WHERE public_surfaces ? 'help_center'`,
    `CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $fn$
     BEGIN
       WITH bumped AS (
         INSERT INTO ${versions} AS v (tenant_id, seq) VALUES (NEW.tenant_id, 1)
         ON CONFLICT (tenant_id) DO UPDATE SET seq = v.seq + 1 RETURNING v.seq
       )
       INSERT INTO ${changes} (tenant_id, seq, chunk_id)
       SELECT NEW.tenant_id, b.seq, c.id FROM ${chunks} c CROSS JOIN bumped b
       WHERE c.tenant_id = NEW.tenant_id AND c.document_id = NEW.id ON CONFLICT DO NOTHING;
       RETURN NULL;
     END
     $fn$`,
    `CREATE TRIGGER documents_audiences_update AFTER UPDATE OF audiences ON ${documents}
     FOR EACH ROW WHEN (OLD.audiences IS DISTINCT FROM NEW.audiences) EXECUTE FUNCTION ${fn}()`,
  ];
}

/** The gap questions: refused, weakly grounded, thumbed down or handed off (a predicate both dialects read). */
export const GAP_QUESTION = "(outcome <> 'answered' OR thumbs_down OR handed_off)";
/**
 * Lexical segments carry each chunk's audiences (segment format 2): segments written before are
 * dropped and their scopes left to the backfill, which rewrites them from the chunk rows. A later
 * change of a document's audiences is recorded per chunk in `lexical_audiences` (the latest only),
 * read beside the segments until a merge rewrites the chunk with it.
 */
function lexicalAudiences(ctx: RenderContext): string[] {
  const [documents, chunks, versions, changes, segments, deletions, pending, audiences] = ['documents', 'chunks', 'search_versions', 'search_changes', 'lexical_segments', 'lexical_deletions', 'lexical_pending', 'lexical_audiences'].map((t) =>
    ctx.name(t),
  ) as [string, string, string, string, string, string, string, string];
  const sqlite = ctx.dialect.name === 'sqlite';
  const same = sqlite ? 'IS' : 'IS NOT DISTINCT FROM';
  const rebuild = [
    `DELETE FROM ${segments}`,
    `DELETE FROM ${deletions}`,
    `INSERT INTO ${pending} (tenant_id, workspace_id) SELECT DISTINCT c.tenant_id, c.workspace_id FROM ${chunks} c
     WHERE NOT EXISTS (SELECT 1 FROM ${pending} p WHERE p.tenant_id = c.tenant_id AND p.workspace_id ${same} c.workspace_id)`,
  ];
  const forget = `DELETE FROM ${audiences} WHERE tenant_id = NEW.tenant_id AND chunk_id IN (SELECT id FROM ${chunks} WHERE tenant_id = NEW.tenant_id AND document_id = NEW.id)`;
  if (sqlite) {
    return [
      `CREATE TABLE ${audiences} (tenant_id TEXT NOT NULL, workspace_id TEXT, chunk_id TEXT NOT NULL, seq INTEGER NOT NULL, audiences TEXT NOT NULL)`,
      `CREATE INDEX lexical_audiences_scope ON ${audiences}(tenant_id, workspace_id)`,
      ...rebuild,
      'DROP TRIGGER documents_audiences_update',
      `CREATE TRIGGER documents_audiences_update AFTER UPDATE OF audiences ON ${documents}
       WHEN OLD.audiences IS NOT NEW.audiences
       BEGIN
         INSERT INTO ${versions} (tenant_id, seq) VALUES (NEW.tenant_id, 1) ON CONFLICT (tenant_id) DO UPDATE SET seq = seq + 1;
         INSERT OR IGNORE INTO ${changes} (tenant_id, seq, chunk_id)
           SELECT NEW.tenant_id, v.seq, c.id FROM ${chunks} c JOIN ${versions} v ON v.tenant_id = NEW.tenant_id
           WHERE c.tenant_id = NEW.tenant_id AND c.document_id = NEW.id;
         ${forget};
         INSERT INTO ${audiences} (tenant_id, workspace_id, chunk_id, seq, audiences)
           SELECT NEW.tenant_id, c.workspace_id, c.id, v.seq, NEW.audiences FROM ${chunks} c JOIN ${versions} v ON v.tenant_id = NEW.tenant_id
           WHERE c.tenant_id = NEW.tenant_id AND c.document_id = NEW.id;
       END`,
    ];
  }
  return [
    `CREATE TABLE ${audiences} (id bigserial PRIMARY KEY, tenant_id text NOT NULL, workspace_id text, chunk_id text NOT NULL, seq bigint NOT NULL, audiences jsonb NOT NULL)`,
    `CREATE INDEX lexical_audiences_scope ON ${audiences}(tenant_id, workspace_id)`,
    ...rebuild,
    `CREATE OR REPLACE FUNCTION ${ctx.name('documents_audiences_changed')}() RETURNS trigger LANGUAGE plpgsql AS $fn$
     DECLARE next_seq bigint;
     BEGIN
       INSERT INTO ${versions} AS v (tenant_id, seq) VALUES (NEW.tenant_id, 1)
       ON CONFLICT (tenant_id) DO UPDATE SET seq = v.seq + 1 RETURNING v.seq INTO next_seq;
       INSERT INTO ${changes} (tenant_id, seq, chunk_id)
       SELECT NEW.tenant_id, next_seq, c.id FROM ${chunks} c
       WHERE c.tenant_id = NEW.tenant_id AND c.document_id = NEW.id ON CONFLICT DO NOTHING;
       ${forget};
       INSERT INTO ${audiences} (tenant_id, workspace_id, chunk_id, seq, audiences)
       SELECT NEW.tenant_id, c.workspace_id, c.id, next_seq, NEW.audiences FROM ${chunks} c
       WHERE c.tenant_id = NEW.tenant_id AND c.document_id = NEW.id;
       RETURN NULL;
     END
     $fn$`,
  ];
}

/** Billable indexes of earlier predicates, dropped when the current one is built. */
const dropBillable = [LEGACY_BILLABLE_INDEX];
/**
 * Chunk rows stop keeping their index terms (as long as their text): the segments hold the
 * postings searches read, and the paths without segments (the backfill in the ingest worker,
 * a search of a scope the backfill has not reached) tokenize the text again. SQLite's trigger
 * names the columns, so it is recreated without them (DROP COLUMN needs SQLite 3.35).
 */
function dropChunkTerms(ctx: RenderContext): string[] {
  const chunks = ctx.name('chunks');
  if (ctx.dialect.name !== 'sqlite') return [`ALTER TABLE ${chunks} DROP COLUMN IF EXISTS lexical_title, DROP COLUMN IF EXISTS lexical_body`];
  const [versions, changes] = [ctx.name('search_versions'), ctx.name('search_changes')];
  return [
    'DROP TRIGGER chunks_search_update',
    `ALTER TABLE ${chunks} DROP COLUMN lexical_title`,
    `ALTER TABLE ${chunks} DROP COLUMN lexical_body`,
    `CREATE TRIGGER chunks_search_update AFTER UPDATE OF id, tenant_id, workspace_id ON ${chunks} BEGIN
       INSERT INTO ${versions} (tenant_id, seq) VALUES (OLD.tenant_id, 1) ON CONFLICT (tenant_id) DO UPDATE SET seq = seq + 1;
       INSERT OR IGNORE INTO ${changes} (tenant_id, seq, chunk_id) SELECT OLD.tenant_id, seq, OLD.id FROM ${versions} WHERE tenant_id = OLD.tenant_id;
       INSERT INTO ${versions} (tenant_id, seq) VALUES (NEW.tenant_id, 1) ON CONFLICT (tenant_id) DO UPDATE SET seq = seq + 1;
       INSERT OR IGNORE INTO ${changes} (tenant_id, seq, chunk_id) SELECT NEW.tenant_id, seq, NEW.id FROM ${versions} WHERE tenant_id = NEW.tenant_id;
     END`,
  ];
}

/** The indexing queue's leases move out of the documents' rows into their own table (see DOCUMENT_LEASES). */
function documentLeases(ctx: RenderContext): string[] {
  const [documents, leases] = [ctx.name('documents'), ctx.name('document_leases')];
  return [
    ...createTable(DOCUMENT_LEASES, DOCUMENT_LEASE_TABLE)(ctx),
    `INSERT INTO ${leases} (tenant_id, document_id, lease_until, holder) SELECT tenant_id, id, lease_until, lease_holder FROM ${documents} WHERE status = 'indexing' AND lease_until IS NOT NULL`,
    `ALTER TABLE ${documents} DROP COLUMN lease_until`,
    `ALTER TABLE ${documents} DROP COLUMN lease_holder`,
  ];
}

export const KIT_MIGRATIONS: readonly KitMigration[] = [
  { id: 'documents-audiences', statements: (ctx) => [...addColumns(DOCUMENTS, ['audiences'])(ctx), ...documentAudiences(ctx)] },
  { id: 'visitor-keys-v1', statements: createTable(VISITOR_KEYS, { primaryKey: ['tenantId', 'workspaceId'] }) },
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
  {
    id: 'question-log-v1',
    statements: (ctx) => [
      ...createTable(QUESTION_LOG, {
        primaryKey: ['id'],
        indexes: [
          { name: 'question_log_gaps', fields: ['tenantId', 'workspaceId', 'createdAt', 'id'], where: GAP_QUESTION },
          { name: 'question_log_message', fields: ['tenantId', 'workspaceId', 'messageId'], where: 'message_id IS NOT NULL' },
          { name: 'question_log_conversation', fields: ['tenantId', 'workspaceId', 'conversationId'], where: 'conversation_id IS NOT NULL' },
        ],
      })(ctx),
      ...createTable(GAP_SNAPSHOTS, { primaryKey: ['tenantId', 'workspaceId', 'period'], indexes: [{ name: 'gap_snapshots_requested', fields: ['requestedAt'], where: 'requested_at IS NOT NULL' }] })(ctx),
    ],
  },
  {
    id: 'feedback-v1',
    statements: (ctx) => [
      ...createTable(FEEDBACK, { primaryKey: ['id'], indexes: [{ name: 'feedback_message', fields: ['tenantId', 'workspaceId', 'messageId'], unique: true }] })(ctx),
      ...createTable(FEEDBACK_CITATIONS, { primaryKey: ['feedbackId', 'position'], indexes: [{ name: 'feedback_citations_document', fields: ['tenantId', 'workspaceId', 'documentId'] }] })(ctx),
    ],
  },
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
  {
    id: 'verified-visitors-v1',
    statements: createTable(VERIFIED_VISITORS, { primaryKey: ['tenantId', 'workspaceId', 'verifiedId'], indexes: [{ name: 'verified_visitors_visitor', fields: ['tenantId', 'workspaceId', 'visitorId'] }] }),
  },
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
  { id: 'lexical-audiences-v1', statements: lexicalAudiences },
  // The billable index from core's predicate, replacing the numbered migrations' copy of it. Its
  // name (and so this step's id) follows the predicate: a changed rule runs the step again
  // everywhere; list the index it replaces in `dropBillable` then.
  {
    id: `index-${BILLABLE_INDEX.name}`,
    statements: (ctx) => [...dropBillable.map((name) => `DROP INDEX IF EXISTS ${ctx.name(name)}`), ...addIndexes(CONVERSATIONS, [BILLABLE_INDEX])(ctx)],
  },
  // Single sign-on: a tenant's provider, the attempts in flight, and the sessions it opened.
  {
    id: 'sso-v1',
    statements: (ctx) => [
      ...createTable(SSO_CONFIGS, { primaryKey: ['tenantId'] })(ctx),
      ...createTable(SSO_STATES, { primaryKey: ['id'], indexes: [{ name: 'sso_states_expiry', fields: ['tenantId', 'expiresAt'] }] })(ctx),
      ...createTable(SSO_SESSIONS, { primaryKey: ['sessionId', 'tenantId'] })(ctx),
    ],
  },
  { id: 'chunks-drop-index-terms', statements: dropChunkTerms },
  { id: 'tenants-version', statements: addInternalColumns(TENANTS, ['version']) },
  { id: 'document-leases-v1', statements: documentLeases },
];

/** Where each store records the steps it applied. */
export const KIT_MIGRATIONS_TABLE = 'kit_migrations';
