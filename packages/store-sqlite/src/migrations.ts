import { KIT_MIGRATIONS, KIT_MIGRATIONS_TABLE } from '@panya/core/rows';
import { SQLITE } from './rows.js';
import { SOURCE_TEXT_TRIGGERS } from './chunk-text.js';
import { moveCountersOut } from './counters.js';
import { COMPACT_VECTOR_TABLE } from './vector-table.js';
import { applyMigrations, type Db, type Migration } from './database.js';
import { baseSchemaStatements } from './base-schema.js';

/**
 * Versioned migrations, applied in order inside one transaction each; `PRAGMA user_version`
 * records the last one applied. Never edit a released migration: append a new one.
 */
export const migrations: (Migration & { name: string })[] = [
  {
    version: 1,
    name: 'tenancy and documents',
    sql: `
      CREATE TABLE tenants (
        id TEXT PRIMARY KEY,
        slug TEXT NOT NULL UNIQUE,
        plan TEXT NOT NULL,
        quotas_json TEXT NOT NULL DEFAULT '{}',
        payment_customer_id TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE workspaces (
        id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        slug TEXT NOT NULL,
        name TEXT NOT NULL,
        brand_accent TEXT,
        is_default INTEGER NOT NULL DEFAULT 0,
        deleted_at TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (tenant_id, slug)
      );
      CREATE UNIQUE INDEX workspaces_one_default ON workspaces(tenant_id) WHERE is_default = 1;
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        workspace_id TEXT REFERENCES workspaces(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        prefix TEXT NOT NULL,
        secret_hash TEXT NOT NULL UNIQUE,
        scopes TEXT NOT NULL,
        created_at TEXT NOT NULL,
        revoked_at TEXT
      );
      CREATE INDEX api_keys_tenant ON api_keys(tenant_id);
      CREATE TABLE documents (
        id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        title TEXT NOT NULL,
        content_md TEXT NOT NULL,
        url TEXT,
        public_surfaces TEXT NOT NULL DEFAULT '[]',
        status TEXT NOT NULL,
        error TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX documents_scope ON documents(tenant_id, workspace_id, id);
      CREATE INDEX documents_status ON documents(status) WHERE status IN ('pending', 'indexing');
      CREATE TABLE audit_events (
        id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        workspace_id TEXT,
        type TEXT NOT NULL,
        actor TEXT NOT NULL,
        subject_id TEXT,
        data TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX audit_events_tenant ON audit_events(tenant_id, type, id);
    `,
  },
  {
    version: 2,
    name: 'search index',
    // chunks_fts holds core-tokenized text (already segmented, folded and stemmed), so
    // unicode61 only splits on spaces; the scope column carries one token per tenant+workspace
    // that confines a MATCH to it. The vector table is created once the embedder's dimension is known.
    sql: `
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
      CREATE VIRTUAL TABLE chunks_fts USING fts5(
        scope, title, body,
        content = '', contentless_delete = 1,
        tokenize = "unicode61 remove_diacritics 0 categories 'L* N* Co M*'"
      );
      CREATE VIRTUAL TABLE chunks_trigram USING fts5(
        text, content = '', contentless_delete = 1, tokenize = 'trigram'
      );
      CREATE TABLE index_info (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        embedder_id TEXT NOT NULL,
        dimension INTEGER NOT NULL
      );
    `,
  },
  {
    version: 3,
    name: 'ingest queue',
    sql: `
      ALTER TABLE documents ADD COLUMN revision INTEGER NOT NULL DEFAULT 1;
      ALTER TABLE documents ADD COLUMN lease_until TEXT;
      DROP INDEX documents_status;
      CREATE INDEX documents_queue ON documents(status, updated_at) WHERE status IN ('pending', 'indexing');
    `,
  },
  {
    version: 4,
    name: 'limits, usage, users, jobs',
    sql: `
      CREATE TABLE rate_counters (
        key TEXT NOT NULL,
        win TEXT NOT NULL,
        count INTEGER NOT NULL,
        reset_at TEXT NOT NULL,
        PRIMARY KEY (key, win)
      ) WITHOUT ROWID;
      CREATE INDEX rate_counters_reset ON rate_counters(reset_at);
      CREATE TABLE api_query_events (
        id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        workspace_id TEXT NOT NULL,
        key_id TEXT,
        kind TEXT NOT NULL,
        tool TEXT,
        billing_period TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX api_query_events_period ON api_query_events(tenant_id, billing_period, kind);
      CREATE TABLE usage_records (
        id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        workspace_id TEXT,
        meter TEXT NOT NULL,
        quantity REAL NOT NULL,
        billing_period TEXT NOT NULL,
        data TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX usage_records_period ON usage_records(tenant_id, billing_period, meter);
      CREATE TABLE users (
        id TEXT PRIMARY KEY,
        email TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE TABLE memberships (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        workspace_id TEXT REFERENCES workspaces(id) ON DELETE CASCADE,
        role TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE UNIQUE INDEX memberships_unique ON memberships(user_id, tenant_id, COALESCE(workspace_id, ''));
      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        revoked_at TEXT
      );
      CREATE TABLE job_leases (
        job TEXT PRIMARY KEY,
        holder TEXT NOT NULL,
        until TEXT NOT NULL
      );
      CREATE TABLE job_state (
        job TEXT PRIMARY KEY,
        state TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
    `,
  },
  {
    version: 5,
    name: 'conversations',
    sql: `
      CREATE TABLE conversations (
        id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        locale TEXT NOT NULL,
        has_grounded_answer INTEGER NOT NULL DEFAULT 0,
        has_thumbs_down INTEGER NOT NULL DEFAULT 0,
        handed_off INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        last_message_at TEXT NOT NULL
      );
      CREATE INDEX conversations_billing ON conversations(tenant_id, last_message_at);
      CREATE TABLE messages (
        id TEXT PRIMARY KEY,
        conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        tenant_id TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        role TEXT NOT NULL,
        content TEXT NOT NULL,
        citations TEXT NOT NULL,
        grounded INTEGER,
        created_at TEXT NOT NULL
      );
      CREATE INDEX messages_conversation ON messages(conversation_id, id);
    `,
  },
  {
    version: 6,
    name: 'tokenizer version of the index',
    sql: `ALTER TABLE index_info ADD COLUMN tokenizer TEXT;`,
  },
  {
    version: 7,
    name: 'workspace lifecycle',
    // The cleanup job finds expired soft-deleted workspaces and deletes their rows in batches.
    sql: `
      CREATE INDEX workspaces_deleted ON workspaces(deleted_at) WHERE deleted_at IS NOT NULL;
      CREATE INDEX conversations_workspace ON conversations(tenant_id, workspace_id);
      CREATE INDEX messages_workspace ON messages(tenant_id, workspace_id);
      CREATE INDEX api_query_events_workspace ON api_query_events(tenant_id, workspace_id);
    `,
  },
  {
    version: 8,
    name: 'custom hostnames and tenant tombstones',
    sql: `
      CREATE TABLE custom_hostnames (
        id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        hostname TEXT NOT NULL UNIQUE,
        status TEXT NOT NULL,
        edge_hostname_id TEXT,
        txt_name TEXT NOT NULL,
        txt_value TEXT NOT NULL,
        verification_error TEXT,
        verification_detail TEXT,
        status_changed_at TEXT NOT NULL,
        last_checked_at TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX custom_hostnames_tenant ON custom_hostnames(tenant_id, status);
      CREATE INDEX custom_hostnames_status ON custom_hostnames(status, status_changed_at);
      -- Outlives its tenant on purpose: erased help-center URLs answer 410 Gone from it.
      CREATE TABLE tenant_tombstones (
        slug TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        hostnames TEXT NOT NULL DEFAULT '[]',
        erased_at TEXT NOT NULL,
        purged_at TEXT
      );
    `,
  },
  {
    version: 9,
    name: 'search change sequence',
    // Chunks keep their core index terms, so the in-memory lexical index can be rebuilt from
    // them (NULL for chunks written before: core re-tokenizes those). Triggers give every
    // change to a tenant's chunks the next number of the tenant's sequence and list the chunk
    // under it, whatever statement (or cascade) made the change.
    sql: `
      ALTER TABLE chunks ADD COLUMN lexical_title TEXT;
      ALTER TABLE chunks ADD COLUMN lexical_body TEXT;
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
      CREATE TRIGGER chunks_search_update AFTER UPDATE OF id, tenant_id, workspace_id, lexical_title, lexical_body ON chunks BEGIN
        INSERT INTO search_versions (tenant_id, seq) VALUES (OLD.tenant_id, 1) ON CONFLICT (tenant_id) DO UPDATE SET seq = seq + 1;
        INSERT OR IGNORE INTO search_changes (tenant_id, seq, chunk_id) SELECT OLD.tenant_id, seq, OLD.id FROM search_versions WHERE tenant_id = OLD.tenant_id;
        INSERT INTO search_versions (tenant_id, seq) VALUES (NEW.tenant_id, 1) ON CONFLICT (tenant_id) DO UPDATE SET seq = seq + 1;
        INSERT OR IGNORE INTO search_changes (tenant_id, seq, chunk_id) SELECT NEW.tenant_id, seq, NEW.id FROM search_versions WHERE tenant_id = NEW.tenant_id;
      END;
    `,
  },
  {
    version: 10,
    name: 'ingest lease holders',
    // Who holds an ingest lease (node/incarnation/thread): a restarted node takes back its
    // previous incarnation's documents at once instead of waiting for the lease to expire.
    sql: `ALTER TABLE documents ADD COLUMN lease_holder TEXT;`,
  },
  {
    version: 11,
    name: 'billing state and meter-event outbox',
    sql: `
      CREATE TABLE tenant_billing (
        tenant_id TEXT PRIMARY KEY REFERENCES tenants(id) ON DELETE CASCADE,
        subscription_id TEXT,
        subscription_status TEXT,
        billing_interval TEXT,
        locked_rates TEXT,
        locked_until TEXT,
        addon_seats INTEGER NOT NULL DEFAULT 0,
        updated_at TEXT NOT NULL
      );
      -- One row per (tenant, period, meter): the identifier is the processor's de-duplication key.
      CREATE TABLE meter_event_outbox (
        identifier TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        period TEXT NOT NULL,
        meter TEXT NOT NULL,
        event_name TEXT NOT NULL,
        customer_id TEXT NOT NULL,
        value INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        sent_at TEXT,
        UNIQUE (tenant_id, period, meter)
      );
      CREATE INDEX meter_event_outbox_pending ON meter_event_outbox(created_at) WHERE sent_at IS NULL;
      CREATE TABLE billing_webhook_events (
        id TEXT PRIMARY KEY,
        received_at TEXT NOT NULL
      );
    `,
  },
  {
    version: 12,
    name: 'resolutions and meter credits',
    sql: `
      -- One resolution per conversation (the detector's record), counted per billing period.
      CREATE TABLE resolutions (
        id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        workspace_id TEXT NOT NULL,
        conversation_id TEXT NOT NULL UNIQUE,
        billing_period TEXT NOT NULL,
        created_at TEXT NOT NULL,
        reported_period TEXT,
        refunded_at TEXT,
        corrected_period TEXT
      );
      CREATE INDEX resolutions_period ON resolutions(tenant_id, billing_period);
      CREATE INDEX resolutions_workspace ON resolutions(tenant_id, workspace_id);
      -- Refunds of reported resolutions still to subtract from a later report, per meter.
      CREATE TABLE meter_credits (
        tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        meter TEXT NOT NULL,
        balance INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, meter)
      );
    `,
  },
  {
    version: 13,
    name: 'guided flows',
    sql: `
      CREATE TABLE flows (
        id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        workspace_id TEXT NOT NULL,
        name TEXT NOT NULL,
        steps TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX flows_workspace ON flows(tenant_id, workspace_id, created_at);
      -- A run is billed once: only the move from drafted to completed writes flow.completed.
      CREATE TABLE flow_runs (
        id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        workspace_id TEXT NOT NULL,
        flow_id TEXT NOT NULL,
        conversation_id TEXT,
        status TEXT NOT NULL,
        draft TEXT,
        created_at TEXT NOT NULL,
        drafted_at TEXT,
        completed_at TEXT
      );
      CREATE INDEX flow_runs_workspace ON flow_runs(tenant_id, workspace_id);
    `,
  },
  {
    version: 14,
    name: 'support records: conversation fields, feedback, tickets, personas, visitors',
    sql: `
      ALTER TABLE conversations ADD COLUMN has_ungrounded_answer INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE conversations ADD COLUMN visitor_id TEXT;
      ALTER TABLE conversations ADD COLUMN csat_score INTEGER;
      ALTER TABLE conversations ADD COLUMN csat_comment TEXT;
      ALTER TABLE conversations ADD COLUMN csat_at TEXT;
      ALTER TABLE conversations ADD COLUMN tags TEXT NOT NULL DEFAULT '[]';
      CREATE INDEX conversations_list ON conversations(tenant_id, workspace_id, id);
      CREATE INDEX conversations_attention ON conversations(tenant_id, workspace_id, last_message_at)
        WHERE handed_off = 0 AND (has_thumbs_down = 1 OR has_ungrounded_answer = 1);
      ALTER TABLE messages ADD COLUMN feedback_rating TEXT;
      ALTER TABLE messages ADD COLUMN feedback_comment TEXT;
      ALTER TABLE messages ADD COLUMN feedback_at TEXT;
      CREATE TABLE visitors (
        id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        name TEXT,
        email TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (tenant_id, workspace_id, email)
      );
      CREATE INDEX visitors_scope ON visitors(tenant_id, workspace_id, id);
      CREATE TABLE tickets (
        id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        subject TEXT NOT NULL,
        body TEXT NOT NULL,
        priority TEXT NOT NULL,
        status TEXT NOT NULL,
        conversation_id TEXT,
        visitor_id TEXT,
        due_at TEXT NOT NULL,
        breached_at TEXT,
        closed_at TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX tickets_scope ON tickets(tenant_id, workspace_id, id);
      CREATE INDEX tickets_sla ON tickets(due_at) WHERE status = 'open' AND breached_at IS NULL;
      CREATE TABLE ticket_comments (
        id TEXT PRIMARY KEY,
        ticket_id TEXT NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
        tenant_id TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        body TEXT NOT NULL,
        author TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX ticket_comments_ticket ON ticket_comments(ticket_id, id);
      CREATE INDEX ticket_comments_workspace ON ticket_comments(tenant_id, workspace_id);
      CREATE TABLE personas (
        id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        tone TEXT NOT NULL,
        instructions TEXT NOT NULL,
        locale TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX personas_scope ON personas(tenant_id, workspace_id, id);
    `,
  },
  {
    version: 15,
    name: 'content sync and browser access',
    sql: `
      ALTER TABLE documents ADD COLUMN external_id TEXT;
      ALTER TABLE documents ADD COLUMN metadata TEXT NOT NULL DEFAULT '{}';
      CREATE UNIQUE INDEX documents_external_id ON documents(tenant_id, workspace_id, external_id) WHERE external_id IS NOT NULL;
      ALTER TABLE api_keys ADD COLUMN kind TEXT NOT NULL DEFAULT 'secret';
      CREATE TABLE tenant_origins (
        tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        origin TEXT NOT NULL,
        PRIMARY KEY (tenant_id, origin)
      );
      CREATE INDEX tenant_origins_origin ON tenant_origins(origin);
      CREATE TABLE connector_secrets (
        tenant_id TEXT PRIMARY KEY REFERENCES tenants(id) ON DELETE CASCADE,
        secret TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      -- Connector webhook event ids already applied: a replayed event is a no-op.
      CREATE TABLE connector_events (
        tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        event_id TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        received_at TEXT NOT NULL,
        PRIMARY KEY (tenant_id, event_id)
      );
    `,
  },
  {
    version: 16,
    name: 'conversations awaiting the resolution detector',
    sql: `CREATE INDEX conversations_billable ON conversations(last_message_at) WHERE has_grounded_answer = 1 AND has_thumbs_down = 0 AND handed_off = 0;`,
  },
  {
    version: 17,
    name: 'idempotency keys',
    sql: `
      -- Idempotency-Key of POST requests: the request's fingerprint and, once answered, its response.
      CREATE TABLE idempotency_keys (
        tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        response TEXT,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        PRIMARY KEY (tenant_id, key)
      );
      CREATE INDEX idempotency_keys_expiry ON idempotency_keys(expires_at);
    `,
  },
  {
    version: 18,
    name: 'lexical search reads core index terms only: FTS5 table dropped',
    // Ranking moved to core's in-memory index (built from chunks.lexical_title/lexical_body);
    // nothing reads chunks_fts any more. The trigram table stays: the trigram channel reads it.
    sql: `DROP TABLE IF EXISTS chunks_fts;`,
  },
  {
    version: 19,
    name: 'publishable keys restricted to the help center; the key a help center embeds',
    sql: `
      ALTER TABLE api_keys ADD COLUMN surface TEXT;
      ALTER TABLE api_keys ADD COLUMN embedded_key TEXT;
    `,
  },
  {
    version: 20,
    name: 'when each API key was last used',
    sql: `ALTER TABLE api_keys ADD COLUMN last_used_at TEXT;`,
  },
  {
    version: 21,
    name: 'customers: the organisations a workspace serves; visitors found by e-mail domain',
    sql: `
      CREATE TABLE customers (
        id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        domain TEXT,
        external_id TEXT,
        notes TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (tenant_id, workspace_id, domain),
        UNIQUE (tenant_id, workspace_id, external_id)
      );
      CREATE INDEX customers_scope ON customers(tenant_id, workspace_id, id);
      CREATE INDEX visitors_domain ON visitors(tenant_id, workspace_id, substr(email, instr(email, '@') + 1), id) WHERE email IS NOT NULL;
    `,
  },
  {
    version: 22,
    name: 'request counters (rate limits, API query events) move to their own file (counters.ts)',
    before: moveCountersOut,
    sql: `
      DROP TABLE IF EXISTS api_query_events;
      DROP TABLE IF EXISTS rate_counters;
    `,
  },
  {
    version: 23,
    name: 'a document address, public surfaces or workspace change moves the search generation',
    // Search answers carry each document's URL and, on public surfaces, only published
    // documents: a change to either is a new generation of the tenant's search (the cached
    // answers of every process go stale), without a chunk to re-index.
    sql: `
      CREATE TRIGGER documents_search_update AFTER UPDATE OF url, public_surfaces, workspace_id ON documents
      WHEN OLD.url IS NOT NEW.url OR OLD.public_surfaces IS NOT NEW.public_surfaces OR OLD.workspace_id IS NOT NEW.workspace_id
      BEGIN
        INSERT INTO search_versions (tenant_id, seq) VALUES (NEW.tenant_id, 1) ON CONFLICT (tenant_id) DO UPDATE SET seq = seq + 1;
      END;
    `,
  },
  {
    version: 24,
    name: 'a conversation records who started it (a public key continues only public conversations)',
    // NULL: started before this was recorded, read as private.
    sql: `ALTER TABLE conversations ADD COLUMN started_by TEXT;`,
  },
  {
    version: 25,
    name: 'plan history, subscription event order, per-segment meter events, suspended workspaces',
    // A period splits where the plan changed (each part bills under its own plan), so a meter
    // may carry one event per part: the outbox drops its one-row-per-meter constraint (SQLite
    // rebuilds the table for that) and keeps the instant each event belongs to.
    sql: `
      ALTER TABLE tenant_billing ADD COLUMN plan_history TEXT;
      ALTER TABLE tenant_billing ADD COLUMN subscription_event_at TEXT;
      ALTER TABLE workspaces ADD COLUMN suspended_at TEXT;
      CREATE TABLE meter_event_outbox_new (
        identifier TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        period TEXT NOT NULL,
        meter TEXT NOT NULL,
        event_name TEXT NOT NULL,
        customer_id TEXT NOT NULL,
        value INTEGER NOT NULL,
        occurred_at TEXT,
        created_at TEXT NOT NULL,
        sent_at TEXT
      );
      INSERT INTO meter_event_outbox_new (identifier, tenant_id, period, meter, event_name, customer_id, value, created_at, sent_at)
        SELECT identifier, tenant_id, period, meter, event_name, customer_id, value, created_at, sent_at FROM meter_event_outbox;
      DROP TABLE meter_event_outbox;
      ALTER TABLE meter_event_outbox_new RENAME TO meter_event_outbox;
      CREATE INDEX meter_event_outbox_pending ON meter_event_outbox(created_at) WHERE sent_at IS NULL;
      CREATE INDEX meter_event_outbox_period ON meter_event_outbox(tenant_id, period);
      -- The hostname poll takes the least recently checked records first.
      CREATE INDEX custom_hostnames_check ON custom_hostnames(last_checked_at, id) WHERE status IN ('pending', 'verifying_dns');
      ALTER TABLE tenant_tombstones ADD COLUMN purge_attempted_at TEXT;
    `,
  },
  {
    version: 26,
    name: 'vectors move from a vec0 table (a preallocated block per workspace) to a compact table',
    before: compactVectorTable,
    sql: 'SELECT 1;',
  },
  {
    version: 27,
    // The open that follows rebuilds it (syncTrigramTable) holding only workspaces larger than a scan.
    name: 'the trigram table no longer holds the chunks of workspaces a search scans',
    sql: 'DROP TABLE IF EXISTS chunks_trigram;',
  },
  {
    version: 28,
    // Chunks written from here on may keep their text only in their document (chunk-text.ts).
    name: 'a chunk that is its document’s whole source gets its text back before the source changes or goes',
    sql: SOURCE_TEXT_TRIGGERS,
  },
  {
    version: 29,
    // Such a chunk's document now keeps its source packed like any other: the triggers inflate it.
    name: 'a chunk that is its document’s whole source gets its text back from a packed source',
    sql: `DROP TRIGGER IF EXISTS documents_source_update; DROP TRIGGER IF EXISTS documents_source_delete; ${SOURCE_TEXT_TRIGGERS}`,
  },
  {
    version: 30,
    // Chunks written from here on keep their title only in their document (chunk-text.ts).
    name: 'a chunk gets its title back before its document’s title changes or the document goes',
    sql: `DROP TRIGGER IF EXISTS documents_source_delete; DROP TRIGGER IF EXISTS documents_title_update; ${SOURCE_TEXT_TRIGGERS}`,
  },
];

/**
 * Copies the vectors of a vec0 `chunk_vectors` into the compact table (COMPACT_VECTOR_TABLE) in one
 * write transaction; a no-op when there is none or it is already compact (another process did it).
 */
function compactVectorTable(db: Db): void {
  db.transaction(() => {
    const row = db.prepare("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'chunk_vectors'").get() as { sql: string } | undefined;
    if (!row || !/USING\s+vec0/i.test(row.sql)) return;
    // A vec0 table cannot be renamed (its shadow tables keep their names): the copy is renamed instead.
    db.exec(COMPACT_VECTOR_TABLE.replaceAll('chunk_vectors', 'chunk_vectors_compact'));
    db.exec('INSERT INTO chunk_vectors_compact (id, part, embedding) SELECT rowid, part, embedding FROM chunk_vectors');
    db.exec('DROP TABLE chunk_vectors; DROP INDEX chunk_vectors_compact_part; ALTER TABLE chunk_vectors_compact RENAME TO chunk_vectors;');
    db.exec('CREATE INDEX chunk_vectors_part ON chunk_vectors(part)');
  }).immediate();
}

/**
 * A new database is created from the generated schema (base-schema.ts) with every numbered
 * migration and kit step recorded as applied; one created before upgrades through the steps it lacks.
 */
export function migrate(db: Db): void {
  if (isNew(db)) createSchema(db);
  applyMigrations(db, migrations);
  applyKitMigrations(db);
  documentSourcesLast(db);
}

/**
 * Moves `documents.content_md` after the other columns, where generated tables put it, in a database
 * created before they did: SQLite reaches a column after a long value only by walking the value's
 * overflow pages, so reading a 1 MB document's url, audiences, status or lease read its whole
 * source (every search returning its chunks, every claim of the indexing queue). One transaction
 * copies the table into the generated layout and recreates its indexes and triggers as they were;
 * a no-op once done (by this process or another).
 */
function documentSourcesLast(db: Db): void {
  const lastColumn = () => (db.prepare("SELECT name FROM pragma_table_info('documents') ORDER BY cid DESC LIMIT 1").get() as { name: string } | undefined)?.name;
  const done = () => [undefined, 'content_md'].includes(lastColumn());
  if (!done()) {
    // Dropping the old table deletes its rows first, which would cascade to the rows that reference
    // them (document_leases): SQLite's procedure for rebuilding a table turns foreign keys off around it.
    const foreignKeys = db.pragma('foreign_keys', { simple: true }) as number;
    db.pragma('foreign_keys = OFF');
    try {
      rebuildDocuments();
    } finally {
      db.pragma(`foreign_keys = ${foreignKeys}`);
    }
  }

  function rebuildDocuments() {
    db.transaction(() => {
      if (done()) return;
      const dependents = db.prepare("SELECT sql FROM sqlite_schema WHERE tbl_name = 'documents' AND type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY type").all() as { sql: string }[];
      const create = baseSchemaStatements().find((s) => /^CREATE TABLE documents \(/.test(s));
      if (!create) throw new Error('The generated schema has no documents table.');
      const columns = (db.prepare("SELECT name FROM pragma_table_info('documents')").all() as { name: string }[]).map((c) => `"${c.name}"`).join(', ');
      db.exec(create.replace('CREATE TABLE documents (', 'CREATE TABLE documents_rebuilt ('));
      db.exec(`INSERT INTO documents_rebuilt (${columns}) SELECT ${columns} FROM documents`);
      db.exec('DROP TABLE documents');
      db.exec('ALTER TABLE documents_rebuilt RENAME TO documents');
      for (const { sql } of dependents) db.exec(sql);
      if ((db.pragma('foreign_key_check') as unknown[]).length > 0) throw new Error('The rebuilt documents table breaks a foreign key.');
    }).immediate();
  }
}

/** Nothing applied and no tables: a database this store has never opened. */
function isNew(db: Db): boolean {
  return (db.pragma('user_version', { simple: true }) as number) === 0 && !db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'tenants'").get();
}

function createSchema(db: Db): void {
  db.transaction(() => {
    // Asked again inside the write lock: another process may have created it meanwhile.
    if (!isNew(db)) return;
    for (const statement of baseSchemaStatements()) db.exec(statement);
    createKitMigrationsTable(db);
    const record = db.prepare(`INSERT INTO ${KIT_MIGRATIONS_TABLE} (id, applied_at) VALUES (?, ?)`);
    const at = new Date().toISOString();
    for (const step of KIT_MIGRATIONS) record.run(step.id, at);
    db.pragma(`user_version = ${migrations.at(-1)!.version}`);
  }).immediate();
}

function createKitMigrationsTable(db: Db): void {
  db.exec(`CREATE TABLE IF NOT EXISTS ${KIT_MIGRATIONS_TABLE} (id TEXT PRIMARY KEY, applied_at TEXT NOT NULL)`);
}

/** The storage kit's steps not applied yet, each in its own write transaction with its record. */
function applyKitMigrations(db: Db): void {
  const exists = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(KIT_MIGRATIONS_TABLE);
  if (!exists) createKitMigrationsTable(db);
  // Read without a lock: a step applied already takes no write lock, so opening beside a busy writer never waits on it.
  const applied = new Set(db.prepare(`SELECT id FROM ${KIT_MIGRATIONS_TABLE}`).pluck().all() as string[]);
  const ctx = { dialect: SQLITE, name: (table: string) => table };
  for (const step of KIT_MIGRATIONS) {
    if (applied.has(step.id)) continue;
    // Asked again inside the write lock: another process may have applied it meanwhile.
    db.transaction(() => {
      if (db.prepare(`SELECT 1 FROM ${KIT_MIGRATIONS_TABLE} WHERE id = ?`).get(step.id)) return;
      for (const statement of step.statements(ctx)) db.exec(statement);
      db.prepare(`INSERT INTO ${KIT_MIGRATIONS_TABLE} (id, applied_at) VALUES (?, ?)`).run(step.id, new Date().toISOString());
    }).immediate();
  }
}
