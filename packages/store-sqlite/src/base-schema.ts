import { baseSchema } from '@panya/core/rows';
import { SOURCE_TEXT_TRIGGERS } from './chunk-text.js';
import { COUNTER_TABLES } from './counters.js';
import { SQLITE } from './rows.js';

/**
 * What a table spec cannot say, as a new database gets it: the chunks and the search index's
 * tables (WITHOUT ROWID, a CHECK, the lexical segments), the triggers that number every change to
 * a tenant's chunks, and indexes on expressions. Each equals the end state of the numbered
 * migrations and kit steps (the schema-equality test compares them). The trigram table is the
 * open's (trigram-table.ts), the vector table the index's (vector-table.ts).
 */
const SEARCH = `
  CREATE TABLE chunks (
    rowid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    workspace_id TEXT,
    document_id TEXT NOT NULL,
    ordinal INTEGER NOT NULL,
    title TEXT NOT NULL,
    heading_path TEXT NOT NULL,
    text TEXT NOT NULL
  );
  CREATE INDEX chunks_document ON chunks(tenant_id, document_id);
  CREATE INDEX chunks_workspace ON chunks(tenant_id, workspace_id);
  CREATE TABLE index_info (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    embedder_id TEXT NOT NULL,
    dimension INTEGER NOT NULL,
    tokenizer TEXT
  );
  CREATE TABLE search_versions (
    tenant_id TEXT PRIMARY KEY,
    seq INTEGER NOT NULL,
    floor INTEGER NOT NULL DEFAULT 0
  ) WITHOUT ROWID;
  CREATE TABLE search_changes (
    tenant_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    chunk_id TEXT NOT NULL,
    PRIMARY KEY (tenant_id, seq, chunk_id)
  ) WITHOUT ROWID;
  CREATE TRIGGER chunks_search_insert AFTER INSERT ON chunks BEGIN
    INSERT INTO search_versions (tenant_id, seq) VALUES (NEW.tenant_id, 1) ON CONFLICT (tenant_id) DO UPDATE SET seq = seq + 1;
    INSERT OR IGNORE INTO search_changes (tenant_id, seq, chunk_id) SELECT NEW.tenant_id, seq, NEW.id FROM search_versions WHERE tenant_id = NEW.tenant_id;
  END;
  CREATE TRIGGER chunks_search_delete AFTER DELETE ON chunks BEGIN
    INSERT INTO search_versions (tenant_id, seq) VALUES (OLD.tenant_id, 1) ON CONFLICT (tenant_id) DO UPDATE SET seq = seq + 1;
    INSERT OR IGNORE INTO search_changes (tenant_id, seq, chunk_id) SELECT OLD.tenant_id, seq, OLD.id FROM search_versions WHERE tenant_id = OLD.tenant_id;
  END;
  CREATE TRIGGER chunks_search_update AFTER UPDATE OF id, tenant_id, workspace_id ON chunks BEGIN
    INSERT INTO search_versions (tenant_id, seq) VALUES (OLD.tenant_id, 1) ON CONFLICT (tenant_id) DO UPDATE SET seq = seq + 1;
    INSERT OR IGNORE INTO search_changes (tenant_id, seq, chunk_id) SELECT OLD.tenant_id, seq, OLD.id FROM search_versions WHERE tenant_id = OLD.tenant_id;
    INSERT INTO search_versions (tenant_id, seq) VALUES (NEW.tenant_id, 1) ON CONFLICT (tenant_id) DO UPDATE SET seq = seq + 1;
    INSERT OR IGNORE INTO search_changes (tenant_id, seq, chunk_id) SELECT NEW.tenant_id, seq, NEW.id FROM search_versions WHERE tenant_id = NEW.tenant_id;
  END;
  CREATE TRIGGER documents_search_update AFTER UPDATE OF url, public_surfaces, workspace_id ON documents
  WHEN OLD.url IS NOT NEW.url OR OLD.public_surfaces IS NOT NEW.public_surfaces OR OLD.workspace_id IS NOT NEW.workspace_id
  BEGIN
    INSERT INTO search_versions (tenant_id, seq) VALUES (NEW.tenant_id, 1) ON CONFLICT (tenant_id) DO UPDATE SET seq = seq + 1;
  END;
  CREATE TABLE lexical_segments (id INTEGER PRIMARY KEY AUTOINCREMENT, tenant_id text NOT NULL, workspace_id text, seq INTEGER NOT NULL, chunks INTEGER NOT NULL, data BLOB NOT NULL);
  CREATE INDEX lexical_segments_scope ON lexical_segments (tenant_id, workspace_id);
  CREATE TABLE lexical_deletions (id INTEGER PRIMARY KEY AUTOINCREMENT, tenant_id text NOT NULL, workspace_id text, chunk_id text NOT NULL, seq INTEGER NOT NULL);
  CREATE INDEX lexical_deletions_scope ON lexical_deletions (tenant_id, workspace_id);
  CREATE TABLE lexical_pending (tenant_id text NOT NULL, workspace_id text);
  CREATE INDEX lexical_pending_scope ON lexical_pending (tenant_id, workspace_id);
  CREATE TABLE lexical_audiences (tenant_id TEXT NOT NULL, workspace_id TEXT, chunk_id TEXT NOT NULL, seq INTEGER NOT NULL, audiences TEXT NOT NULL);
  CREATE INDEX lexical_audiences_scope ON lexical_audiences(tenant_id, workspace_id);
  CREATE TRIGGER documents_audiences_update AFTER UPDATE OF audiences ON documents
  WHEN OLD.audiences IS NOT NEW.audiences
  BEGIN
    INSERT INTO search_versions (tenant_id, seq) VALUES (NEW.tenant_id, 1) ON CONFLICT (tenant_id) DO UPDATE SET seq = seq + 1;
    INSERT OR IGNORE INTO search_changes (tenant_id, seq, chunk_id)
      SELECT NEW.tenant_id, v.seq, c.id FROM chunks c JOIN search_versions v ON v.tenant_id = NEW.tenant_id
      WHERE c.tenant_id = NEW.tenant_id AND c.document_id = NEW.id;
    DELETE FROM lexical_audiences WHERE tenant_id = NEW.tenant_id AND chunk_id IN (SELECT id FROM chunks WHERE tenant_id = NEW.tenant_id AND document_id = NEW.id);
    INSERT INTO lexical_audiences (tenant_id, workspace_id, chunk_id, seq, audiences)
      SELECT NEW.tenant_id, c.workspace_id, c.id, v.seq, NEW.audiences FROM chunks c JOIN search_versions v ON v.tenant_id = NEW.tenant_id
      WHERE c.tenant_id = NEW.tenant_id AND c.document_id = NEW.id;
  END;
  ${SOURCE_TEXT_TRIGGERS}
`;

/** Indexes on expressions, and one whose column order a spec's index cannot write. */
const EXPRESSIONS = `
  CREATE UNIQUE INDEX memberships_unique ON memberships(user_id, tenant_id, COALESCE(workspace_id, ''));
  CREATE INDEX visitors_domain ON visitors(tenant_id, workspace_id, substr(email, instr(email, '@') + 1), id) WHERE email IS NOT NULL;
`;

/** The hostname poll takes the least recently checked records first (a predicate of the statuses it polls). */
const HOSTNAMES_CHECK = "CREATE INDEX custom_hostnames_check ON custom_hostnames(last_checked_at, id) WHERE status IN ('pending', 'verifying_dns')";

/** A new database's schema: the tables generated from core's specs (but the counters, in their own file), then this store's own parts. */
export function baseSchemaStatements(): string[] {
  const ctx = { dialect: SQLITE, name: (table: string) => table };
  return [...baseSchema(COUNTER_TABLES)(ctx), SEARCH, EXPRESSIONS, HOSTNAMES_CHECK];
}
