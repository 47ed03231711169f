/**
 * The schema steps of the storage kit's tables, written once for every SQL store. Each store
 * applies them after its own numbered migrations, in this order, each once (recorded by id in
 * `kit_migrations`) and all-or-none. Append new steps at the end; never edit an applied one.
 */
import { addColumns, createTable, type KitStatements } from './ddl.js';
import type { RenderContext } from './sql.js';
import { DOCUMENTS, VERIFIED_VISITORS, VISITOR_KEYS } from './tables.js';

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

export const KIT_MIGRATIONS: readonly KitMigration[] = [
  { id: 'documents-audiences', statements: (ctx) => [...addColumns(DOCUMENTS, ['audiences'])(ctx), ...documentAudiences(ctx)] },
  { id: 'visitor-keys-v1', statements: createTable(VISITOR_KEYS, { primaryKey: ['tenantId', 'workspaceId'] }) },
  {
    id: 'verified-visitors-v1',
    statements: createTable(VERIFIED_VISITORS, { primaryKey: ['tenantId', 'workspaceId', 'verifiedId'], indexes: [{ name: 'verified_visitors_visitor', fields: ['tenantId', 'workspaceId', 'visitorId'] }] }),
  },
];

/** Where each store records the steps it applied. */
export const KIT_MIGRATIONS_TABLE = 'kit_migrations';
