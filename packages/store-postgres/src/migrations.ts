import { TRIGRAM_SCAN_CHUNKS } from '@panya/core';
import { KIT_MIGRATIONS, KIT_MIGRATIONS_TABLE } from '@panya/core/rows';
import { sourceTextTriggers } from './chunk-text.js';
import { POSTGRES } from './rows.js';
import type { Pool, PoolClient } from 'pg';
import { ident, names, type Names } from './database.js';
import { baseSchemaStatements } from './base-schema.js';

/**
 * Versioned migrations, applied in order; `panya_migrations` in the store's schema records
 * each one. Never edit a released migration: append a new one. Ids use the "C" collation so
 * that ordering (cursor pagination) is by bytes, as in SQLite, whatever the database locale.
 */
export const migrations: { version: number; name: string; sql: (n: Names) => string }[] = [
  {
    version: 1,
    name: 'tenancy and documents',
    sql: (n) => `
      CREATE TABLE ${n.t('tenants')} (
        id text COLLATE "C" PRIMARY KEY,
        slug text NOT NULL UNIQUE,
        plan text NOT NULL,
        quotas jsonb NOT NULL DEFAULT '{}',
        payment_customer_id text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE TABLE ${n.t('workspaces')} (
        id text COLLATE "C" PRIMARY KEY,
        tenant_id text COLLATE "C" NOT NULL REFERENCES ${n.t('tenants')}(id) ON DELETE CASCADE,
        slug text NOT NULL,
        name text NOT NULL,
        brand_accent text,
        is_default boolean NOT NULL DEFAULT false,
        deleted_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        UNIQUE (tenant_id, slug)
      );
      CREATE UNIQUE INDEX workspaces_one_default ON ${n.t('workspaces')}(tenant_id) WHERE is_default;
      CREATE TABLE ${n.t('api_keys')} (
        id text COLLATE "C" PRIMARY KEY,
        tenant_id text COLLATE "C" NOT NULL REFERENCES ${n.t('tenants')}(id) ON DELETE CASCADE,
        workspace_id text COLLATE "C" REFERENCES ${n.t('workspaces')}(id) ON DELETE CASCADE,
        name text NOT NULL,
        prefix text NOT NULL,
        secret_hash text NOT NULL UNIQUE,
        scopes jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        revoked_at timestamptz
      );
      CREATE INDEX api_keys_tenant ON ${n.t('api_keys')}(tenant_id);
      CREATE TABLE ${n.t('documents')} (
        id text COLLATE "C" PRIMARY KEY,
        tenant_id text COLLATE "C" NOT NULL REFERENCES ${n.t('tenants')}(id) ON DELETE CASCADE,
        workspace_id text COLLATE "C" NOT NULL REFERENCES ${n.t('workspaces')}(id) ON DELETE CASCADE,
        title text NOT NULL,
        content_md text NOT NULL,
        url text,
        public_surfaces jsonb NOT NULL DEFAULT '[]',
        status text NOT NULL,
        error text,
        revision integer NOT NULL DEFAULT 1,
        lease_until timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE INDEX documents_scope ON ${n.t('documents')}(tenant_id, workspace_id, id);
      CREATE INDEX documents_queue ON ${n.t('documents')}(status, updated_at) WHERE status IN ('pending', 'indexing');
      CREATE TABLE ${n.t('audit_events')} (
        id text COLLATE "C" PRIMARY KEY,
        tenant_id text COLLATE "C" NOT NULL,
        workspace_id text COLLATE "C",
        type text NOT NULL,
        actor text NOT NULL,
        subject_id text,
        data jsonb NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX audit_events_tenant ON ${n.t('audit_events')}(tenant_id, type, id);
    `,
  },
  {
    version: 2,
    name: 'search index',
    // `lexical` holds core-tokenized terms (title weight A, body D) written as tsvector
    // literals, so no text-search parser re-splits them (it would cut Thai at combining marks).
    // chunk_vectors is created once the embedder's dimension is known (search-index.ts).
    sql: (n) => `
      CREATE TABLE ${n.t('chunks')} (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id text COLLATE "C" NOT NULL UNIQUE,
        tenant_id text COLLATE "C" NOT NULL REFERENCES ${n.t('tenants')}(id) ON DELETE CASCADE,
        workspace_id text COLLATE "C",
        document_id text COLLATE "C" NOT NULL,
        ordinal integer NOT NULL,
        title text NOT NULL,
        heading_path jsonb NOT NULL,
        text text NOT NULL,
        lexical tsvector NOT NULL,
        lexical_length integer NOT NULL
      );
      CREATE INDEX chunks_document ON ${n.t('chunks')}(tenant_id, document_id);
      CREATE INDEX chunks_scope ON ${n.t('chunks')}(tenant_id, workspace_id) INCLUDE (lexical_length);
      CREATE INDEX chunks_legacy ON ${n.t('chunks')}(seq) WHERE workspace_id IS NULL;
      CREATE INDEX chunks_lexical ON ${n.t('chunks')} USING gin (lexical);
      CREATE INDEX chunks_trigram ON ${n.t('chunks')} USING gin (lower(title || E'\\n' || text) ${n.trgmOps});
      CREATE TABLE ${n.t('index_info')} (
        id integer PRIMARY KEY CHECK (id = 1),
        embedder_id text NOT NULL,
        dimension integer NOT NULL
      );
    `,
  },
  {
    version: 3,
    name: 'limits, usage, users, jobs',
    sql: (n) => `
      CREATE TABLE ${n.t('rate_counters')} (
        key text COLLATE "C" NOT NULL,
        win text COLLATE "C" NOT NULL,
        count integer NOT NULL,
        reset_at timestamptz NOT NULL,
        PRIMARY KEY (key, win)
      );
      CREATE INDEX rate_counters_reset ON ${n.t('rate_counters')}(reset_at);
      CREATE TABLE ${n.t('api_query_events')} (
        id text COLLATE "C" PRIMARY KEY,
        tenant_id text COLLATE "C" NOT NULL REFERENCES ${n.t('tenants')}(id) ON DELETE CASCADE,
        workspace_id text COLLATE "C" NOT NULL,
        key_id text,
        kind text NOT NULL,
        tool text,
        billing_period text NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX api_query_events_period ON ${n.t('api_query_events')}(tenant_id, billing_period, kind);
      CREATE TABLE ${n.t('usage_records')} (
        id text COLLATE "C" PRIMARY KEY,
        tenant_id text COLLATE "C" NOT NULL REFERENCES ${n.t('tenants')}(id) ON DELETE CASCADE,
        workspace_id text COLLATE "C",
        meter text NOT NULL,
        quantity double precision NOT NULL,
        billing_period text NOT NULL,
        data jsonb NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX usage_records_period ON ${n.t('usage_records')}(tenant_id, billing_period, meter);
      CREATE TABLE ${n.t('users')} (
        id text COLLATE "C" PRIMARY KEY,
        email text NOT NULL UNIQUE,
        password_hash text NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE TABLE ${n.t('memberships')} (
        id text COLLATE "C" PRIMARY KEY,
        user_id text COLLATE "C" NOT NULL REFERENCES ${n.t('users')}(id) ON DELETE CASCADE,
        tenant_id text COLLATE "C" NOT NULL REFERENCES ${n.t('tenants')}(id) ON DELETE CASCADE,
        workspace_id text COLLATE "C" REFERENCES ${n.t('workspaces')}(id) ON DELETE CASCADE,
        role text NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE UNIQUE INDEX memberships_unique ON ${n.t('memberships')}(user_id, tenant_id, COALESCE(workspace_id, ''));
      CREATE TABLE ${n.t('sessions')} (
        id text COLLATE "C" PRIMARY KEY,
        user_id text COLLATE "C" NOT NULL REFERENCES ${n.t('users')}(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz
      );
      CREATE TABLE ${n.t('job_leases')} (
        job text PRIMARY KEY,
        holder text NOT NULL,
        until timestamptz NOT NULL
      );
      CREATE TABLE ${n.t('job_state')} (
        job text PRIMARY KEY,
        state jsonb NOT NULL,
        updated_at timestamptz NOT NULL
      );
    `,
  },
  {
    version: 4,
    name: 'conversations',
    sql: (n) => `
      CREATE TABLE ${n.t('conversations')} (
        id text COLLATE "C" PRIMARY KEY,
        tenant_id text COLLATE "C" NOT NULL REFERENCES ${n.t('tenants')}(id) ON DELETE CASCADE,
        workspace_id text COLLATE "C" NOT NULL REFERENCES ${n.t('workspaces')}(id) ON DELETE CASCADE,
        locale text NOT NULL,
        has_grounded_answer boolean NOT NULL DEFAULT false,
        has_thumbs_down boolean NOT NULL DEFAULT false,
        handed_off boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL,
        last_message_at timestamptz NOT NULL
      );
      CREATE INDEX conversations_billing ON ${n.t('conversations')}(tenant_id, last_message_at);
      CREATE TABLE ${n.t('messages')} (
        id text COLLATE "C" PRIMARY KEY,
        conversation_id text COLLATE "C" NOT NULL REFERENCES ${n.t('conversations')}(id) ON DELETE CASCADE,
        tenant_id text COLLATE "C" NOT NULL,
        workspace_id text COLLATE "C" NOT NULL,
        role text NOT NULL,
        content text NOT NULL,
        citations jsonb NOT NULL,
        grounded boolean,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX messages_conversation ON ${n.t('messages')}(conversation_id, id);
    `,
  },
  {
    version: 5,
    name: 'tokenizer version of the index',
    sql: (n) => `ALTER TABLE ${n.t('index_info')} ADD COLUMN tokenizer text;`,
  },
  {
    version: 6,
    name: 'workspace lifecycle',
    // The cleanup job finds expired soft-deleted workspaces and deletes their rows in batches.
    sql: (n) => `
      CREATE INDEX workspaces_deleted ON ${n.t('workspaces')}(deleted_at) WHERE deleted_at IS NOT NULL;
      CREATE INDEX conversations_workspace ON ${n.t('conversations')}(tenant_id, workspace_id);
      CREATE INDEX messages_workspace ON ${n.t('messages')}(tenant_id, workspace_id);
      CREATE INDEX api_query_events_workspace ON ${n.t('api_query_events')}(tenant_id, workspace_id);
    `,
  },
  {
    version: 7,
    name: 'custom hostnames and tenant tombstones',
    sql: (n) => `
      CREATE TABLE ${n.t('custom_hostnames')} (
        id text COLLATE "C" PRIMARY KEY,
        tenant_id text COLLATE "C" NOT NULL REFERENCES ${n.t('tenants')}(id) ON DELETE CASCADE,
        hostname text NOT NULL UNIQUE,
        status text NOT NULL,
        edge_hostname_id text,
        txt_name text NOT NULL,
        txt_value text NOT NULL,
        verification_error text,
        verification_detail text,
        status_changed_at timestamptz NOT NULL,
        last_checked_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE INDEX custom_hostnames_tenant ON ${n.t('custom_hostnames')}(tenant_id, status);
      CREATE INDEX custom_hostnames_status ON ${n.t('custom_hostnames')}(status, status_changed_at);
      -- Outlives its tenant on purpose: erased help-center URLs answer 410 Gone from it.
      CREATE TABLE ${n.t('tenant_tombstones')} (
        slug text PRIMARY KEY,
        tenant_id text NOT NULL,
        hostnames jsonb NOT NULL DEFAULT '[]',
        erased_at timestamptz NOT NULL,
        purged_at timestamptz
      );
      CREATE INDEX tenant_tombstones_hostnames ON ${n.t('tenant_tombstones')} USING gin (hostnames);
    `,
  },
  {
    version: 8,
    name: 'search change sequence',
    // Chunks keep their core index terms, so the in-memory lexical index can be rebuilt from
    // them (NULL for chunks written before: core re-tokenizes those). Statement triggers give
    // every change to a tenant's chunks the next number of the tenant's sequence and list the
    // chunks under it, whatever statement (or cascade) made the change. The upsert locks the
    // tenant's row until commit, so a tenant's numbers become visible in commit order.
    sql: (n) => `
      ALTER TABLE ${n.t('chunks')} ADD COLUMN lexical_title text, ADD COLUMN lexical_body text;
      CREATE TABLE ${n.t('search_versions')} (
        tenant_id text COLLATE "C" PRIMARY KEY,
        seq bigint NOT NULL,
        floor bigint NOT NULL DEFAULT 0
      );
      CREATE TABLE ${n.t('search_changes')} (
        tenant_id text COLLATE "C" NOT NULL,
        seq bigint NOT NULL,
        chunk_id text COLLATE "C" NOT NULL,
        PRIMARY KEY (tenant_id, seq, chunk_id)
      );
      CREATE FUNCTION ${n.t('chunks_search_changed')}() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
          WITH bumped AS (
            INSERT INTO ${n.t('search_versions')} AS v (tenant_id, seq) SELECT DISTINCT tenant_id, 1 FROM new_rows
            ON CONFLICT (tenant_id) DO UPDATE SET seq = v.seq + 1 RETURNING v.tenant_id, v.seq
          )
          INSERT INTO ${n.t('search_changes')} (tenant_id, seq, chunk_id)
          SELECT DISTINCT r.tenant_id, b.seq, r.id FROM new_rows r JOIN bumped b ON b.tenant_id = r.tenant_id ON CONFLICT DO NOTHING;
        END IF;
        IF TG_OP IN ('DELETE', 'UPDATE') THEN
          WITH bumped AS (
            INSERT INTO ${n.t('search_versions')} AS v (tenant_id, seq) SELECT DISTINCT tenant_id, 1 FROM old_rows
            ON CONFLICT (tenant_id) DO UPDATE SET seq = v.seq + 1 RETURNING v.tenant_id, v.seq
          )
          INSERT INTO ${n.t('search_changes')} (tenant_id, seq, chunk_id)
          SELECT DISTINCT r.tenant_id, b.seq, r.id FROM old_rows r JOIN bumped b ON b.tenant_id = r.tenant_id ON CONFLICT DO NOTHING;
        END IF;
        RETURN NULL;
      END
      $fn$;
      CREATE TRIGGER chunks_search_insert AFTER INSERT ON ${n.t('chunks')}
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${n.t('chunks_search_changed')}();
      CREATE TRIGGER chunks_search_update AFTER UPDATE ON ${n.t('chunks')}
        REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${n.t('chunks_search_changed')}();
      CREATE TRIGGER chunks_search_delete AFTER DELETE ON ${n.t('chunks')}
        REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${n.t('chunks_search_changed')}();
    `,
  },
  {
    version: 9,
    name: 'ingest lease holders',
    // Who holds an ingest lease (node/incarnation/thread): a restarted node takes back its
    // previous incarnation's documents at once instead of waiting for the lease to expire.
    sql: (n) => `ALTER TABLE ${n.t('documents')} ADD COLUMN lease_holder text;`,
  },
  {
    version: 10,
    name: 'billing state and meter-event outbox',
    sql: (n) => `
      CREATE TABLE ${n.t('tenant_billing')} (
        tenant_id text COLLATE "C" PRIMARY KEY REFERENCES ${n.t('tenants')}(id) ON DELETE CASCADE,
        subscription_id text,
        subscription_status text,
        billing_interval text,
        locked_rates jsonb,
        locked_until timestamptz,
        addon_seats integer NOT NULL DEFAULT 0,
        updated_at timestamptz NOT NULL
      );
      -- One row per (tenant, period, meter): the identifier is the processor's de-duplication key.
      CREATE TABLE ${n.t('meter_event_outbox')} (
        identifier text COLLATE "C" PRIMARY KEY,
        tenant_id text COLLATE "C" NOT NULL REFERENCES ${n.t('tenants')}(id) ON DELETE CASCADE,
        period text NOT NULL,
        meter text NOT NULL,
        event_name text NOT NULL,
        customer_id text NOT NULL,
        value bigint NOT NULL,
        created_at timestamptz NOT NULL,
        sent_at timestamptz,
        UNIQUE (tenant_id, period, meter)
      );
      CREATE INDEX meter_event_outbox_pending ON ${n.t('meter_event_outbox')}(created_at) WHERE sent_at IS NULL;
      CREATE TABLE ${n.t('billing_webhook_events')} (
        id text PRIMARY KEY,
        received_at timestamptz NOT NULL
      );
    `,
  },
  {
    version: 11,
    name: 'resolutions and meter credits',
    sql: (n) => `
      -- One resolution per conversation (the detector's record), counted per billing period.
      CREATE TABLE ${n.t('resolutions')} (
        id text COLLATE "C" PRIMARY KEY,
        tenant_id text COLLATE "C" NOT NULL REFERENCES ${n.t('tenants')}(id) ON DELETE CASCADE,
        workspace_id text COLLATE "C" NOT NULL,
        conversation_id text COLLATE "C" NOT NULL UNIQUE,
        billing_period text NOT NULL,
        created_at timestamptz NOT NULL,
        reported_period text,
        refunded_at timestamptz,
        corrected_period text
      );
      CREATE INDEX resolutions_period ON ${n.t('resolutions')}(tenant_id, billing_period);
      CREATE INDEX resolutions_workspace ON ${n.t('resolutions')}(tenant_id, workspace_id);
      -- Refunds of reported resolutions still to subtract from a later report, per meter.
      CREATE TABLE ${n.t('meter_credits')} (
        tenant_id text COLLATE "C" NOT NULL REFERENCES ${n.t('tenants')}(id) ON DELETE CASCADE,
        meter text NOT NULL,
        balance bigint NOT NULL,
        PRIMARY KEY (tenant_id, meter)
      );
    `,
  },
  {
    version: 12,
    name: 'guided flows',
    sql: (n) => `
      CREATE TABLE ${n.t('flows')} (
        id text COLLATE "C" PRIMARY KEY,
        tenant_id text COLLATE "C" NOT NULL REFERENCES ${n.t('tenants')}(id) ON DELETE CASCADE,
        workspace_id text COLLATE "C" NOT NULL,
        name text NOT NULL,
        steps jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE INDEX flows_workspace ON ${n.t('flows')}(tenant_id, workspace_id, created_at);
      -- A run is billed once: only the move from drafted to completed writes flow.completed.
      CREATE TABLE ${n.t('flow_runs')} (
        id text COLLATE "C" PRIMARY KEY,
        tenant_id text COLLATE "C" NOT NULL REFERENCES ${n.t('tenants')}(id) ON DELETE CASCADE,
        workspace_id text COLLATE "C" NOT NULL,
        flow_id text COLLATE "C" NOT NULL,
        conversation_id text,
        status text NOT NULL,
        draft text,
        created_at timestamptz NOT NULL,
        drafted_at timestamptz,
        completed_at timestamptz
      );
      CREATE INDEX flow_runs_workspace ON ${n.t('flow_runs')}(tenant_id, workspace_id);
    `,
  },
  {
    version: 13,
    name: 'support records: conversation fields, feedback, tickets, personas, visitors',
    sql: (n) => `
      ALTER TABLE ${n.t('conversations')}
        ADD COLUMN has_ungrounded_answer boolean NOT NULL DEFAULT false,
        ADD COLUMN visitor_id text COLLATE "C",
        ADD COLUMN csat_score integer,
        ADD COLUMN csat_comment text,
        ADD COLUMN csat_at timestamptz,
        ADD COLUMN tags jsonb NOT NULL DEFAULT '[]';
      CREATE INDEX conversations_list ON ${n.t('conversations')}(tenant_id, workspace_id, id);
      CREATE INDEX conversations_attention ON ${n.t('conversations')}(tenant_id, workspace_id, last_message_at)
        WHERE NOT handed_off AND (has_thumbs_down OR has_ungrounded_answer);
      ALTER TABLE ${n.t('messages')}
        ADD COLUMN feedback_rating text,
        ADD COLUMN feedback_comment text,
        ADD COLUMN feedback_at timestamptz;
      CREATE TABLE ${n.t('visitors')} (
        id text COLLATE "C" PRIMARY KEY,
        tenant_id text COLLATE "C" NOT NULL REFERENCES ${n.t('tenants')}(id) ON DELETE CASCADE,
        workspace_id text COLLATE "C" NOT NULL REFERENCES ${n.t('workspaces')}(id) ON DELETE CASCADE,
        name text,
        email text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        UNIQUE (tenant_id, workspace_id, email)
      );
      CREATE INDEX visitors_scope ON ${n.t('visitors')}(tenant_id, workspace_id, id);
      CREATE TABLE ${n.t('tickets')} (
        id text COLLATE "C" PRIMARY KEY,
        tenant_id text COLLATE "C" NOT NULL REFERENCES ${n.t('tenants')}(id) ON DELETE CASCADE,
        workspace_id text COLLATE "C" NOT NULL REFERENCES ${n.t('workspaces')}(id) ON DELETE CASCADE,
        subject text NOT NULL,
        body text NOT NULL,
        priority text NOT NULL,
        status text NOT NULL,
        conversation_id text COLLATE "C",
        visitor_id text COLLATE "C",
        due_at timestamptz NOT NULL,
        breached_at timestamptz,
        closed_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE INDEX tickets_scope ON ${n.t('tickets')}(tenant_id, workspace_id, id);
      CREATE INDEX tickets_sla ON ${n.t('tickets')}(due_at) WHERE status = 'open' AND breached_at IS NULL;
      CREATE TABLE ${n.t('ticket_comments')} (
        id text COLLATE "C" PRIMARY KEY,
        ticket_id text COLLATE "C" NOT NULL REFERENCES ${n.t('tickets')}(id) ON DELETE CASCADE,
        tenant_id text COLLATE "C" NOT NULL,
        workspace_id text COLLATE "C" NOT NULL,
        body text NOT NULL,
        author text NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX ticket_comments_ticket ON ${n.t('ticket_comments')}(ticket_id, id);
      CREATE INDEX ticket_comments_workspace ON ${n.t('ticket_comments')}(tenant_id, workspace_id);
      CREATE TABLE ${n.t('personas')} (
        id text COLLATE "C" PRIMARY KEY,
        tenant_id text COLLATE "C" NOT NULL REFERENCES ${n.t('tenants')}(id) ON DELETE CASCADE,
        workspace_id text COLLATE "C" NOT NULL REFERENCES ${n.t('workspaces')}(id) ON DELETE CASCADE,
        name text NOT NULL,
        tone text NOT NULL,
        instructions text NOT NULL,
        locale text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE INDEX personas_scope ON ${n.t('personas')}(tenant_id, workspace_id, id);
    `,
  },
  {
    version: 14,
    name: 'content sync and browser access',
    sql: (n) => `
      ALTER TABLE ${n.t('documents')} ADD COLUMN external_id text;
      ALTER TABLE ${n.t('documents')} ADD COLUMN metadata jsonb NOT NULL DEFAULT '{}';
      CREATE UNIQUE INDEX documents_external_id ON ${n.t('documents')}(tenant_id, workspace_id, external_id) WHERE external_id IS NOT NULL;
      ALTER TABLE ${n.t('api_keys')} ADD COLUMN kind text NOT NULL DEFAULT 'secret';
      CREATE TABLE ${n.t('tenant_origins')} (
        tenant_id text COLLATE "C" NOT NULL REFERENCES ${n.t('tenants')}(id) ON DELETE CASCADE,
        origin text NOT NULL,
        PRIMARY KEY (tenant_id, origin)
      );
      CREATE INDEX tenant_origins_origin ON ${n.t('tenant_origins')}(origin);
      CREATE TABLE ${n.t('connector_secrets')} (
        tenant_id text COLLATE "C" PRIMARY KEY REFERENCES ${n.t('tenants')}(id) ON DELETE CASCADE,
        secret text NOT NULL,
        created_at timestamptz NOT NULL
      );
      -- Connector webhook event ids already applied: a replayed event is a no-op.
      CREATE TABLE ${n.t('connector_events')} (
        tenant_id text COLLATE "C" NOT NULL REFERENCES ${n.t('tenants')}(id) ON DELETE CASCADE,
        event_id text NOT NULL,
        workspace_id text COLLATE "C" NOT NULL,
        received_at timestamptz NOT NULL,
        PRIMARY KEY (tenant_id, event_id)
      );
    `,
  },
  {
    version: 15,
    name: 'conversations awaiting the resolution detector',
    sql: (n) => `CREATE INDEX conversations_billable ON ${n.t('conversations')}(last_message_at) WHERE has_grounded_answer AND NOT has_thumbs_down AND NOT handed_off;`,
  },
  {
    version: 16,
    name: 'idempotency keys',
    sql: (n) => `
      -- Idempotency-Key of POST requests: the request's fingerprint and, once answered, its response.
      CREATE TABLE ${n.t('idempotency_keys')} (
        tenant_id text COLLATE "C" NOT NULL REFERENCES ${n.t('tenants')}(id) ON DELETE CASCADE,
        key text NOT NULL,
        fingerprint text NOT NULL,
        response jsonb,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (tenant_id, key)
      );
      CREATE INDEX idempotency_keys_expiry ON ${n.t('idempotency_keys')}(expires_at);
    `,
  },
  {
    version: 17,
    name: 'lexical search reads core index terms only: tsvector dropped',
    // Ranking moved to core's in-memory index (built from lexical_title/lexical_body); nothing reads
    // the tsvector or its length any more. Dropping the columns drops their indexes: the scope index returns without INCLUDE.
    sql: (n) => `
      ALTER TABLE ${n.t('chunks')} DROP COLUMN lexical, DROP COLUMN lexical_length;
      CREATE INDEX IF NOT EXISTS chunks_scope ON ${n.t('chunks')}(tenant_id, workspace_id);
    `,
  },
  {
    version: 18,
    name: 'publishable keys restricted to the help center; the key a help center embeds',
    sql: (n) => `
      ALTER TABLE ${n.t('api_keys')} ADD COLUMN surface text;
      ALTER TABLE ${n.t('api_keys')} ADD COLUMN embedded_key text;
    `,
  },
  {
    version: 19,
    name: 'when each API key was last used',
    sql: (n) => `ALTER TABLE ${n.t('api_keys')} ADD COLUMN last_used_at timestamptz;`,
  },
  {
    version: 20,
    name: 'customers: the organisations a workspace serves; visitors found by e-mail domain',
    sql: (n) => `
      CREATE TABLE ${n.t('customers')} (
        id text COLLATE "C" PRIMARY KEY,
        tenant_id text COLLATE "C" NOT NULL REFERENCES ${n.t('tenants')}(id) ON DELETE CASCADE,
        workspace_id text COLLATE "C" NOT NULL REFERENCES ${n.t('workspaces')}(id) ON DELETE CASCADE,
        name text NOT NULL,
        domain text,
        external_id text,
        notes text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        UNIQUE (tenant_id, workspace_id, domain),
        UNIQUE (tenant_id, workspace_id, external_id)
      );
      CREATE INDEX customers_scope ON ${n.t('customers')}(tenant_id, workspace_id, id);
      CREATE INDEX visitors_domain ON ${n.t('visitors')}(tenant_id, workspace_id, split_part(email, '@', 2), id) WHERE email IS NOT NULL;
    `,
  },
  {
    version: 21,
    name: 'a document address, public surfaces or workspace change moves the search generation',
    // Search answers carry each document's URL and, on public surfaces, only published
    // documents: a change to either is a new generation of the tenant's search (the cached
    // answers of every node go stale), without a chunk to re-index. Row-level: such changes
    // are single-document edits, and a column list cannot have transition tables.
    sql: (n) => `
      CREATE FUNCTION ${n.t('documents_search_changed')}() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        INSERT INTO ${n.t('search_versions')} AS v (tenant_id, seq) VALUES (NEW.tenant_id, 1)
        ON CONFLICT (tenant_id) DO UPDATE SET seq = v.seq + 1;
        RETURN NULL;
      END
      $fn$;
      CREATE TRIGGER documents_search_update AFTER UPDATE OF url, public_surfaces, workspace_id ON ${n.t('documents')}
        FOR EACH ROW
        WHEN (OLD.url IS DISTINCT FROM NEW.url OR OLD.public_surfaces IS DISTINCT FROM NEW.public_surfaces OR OLD.workspace_id IS DISTINCT FROM NEW.workspace_id)
        EXECUTE FUNCTION ${n.t('documents_search_changed')}();
    `,
  },
  {
    version: 22,
    name: 'a conversation records who started it (a public key continues only public conversations)',
    // NULL: started before this was recorded, read as private.
    sql: (n) => `ALTER TABLE ${n.t('conversations')} ADD COLUMN started_by text;`,
  },
  {
    version: 23,
    name: 'plan history, subscription event order, per-segment meter events, suspended workspaces',
    // A period splits where the plan changed (each part bills under its own plan), so a meter
    // may carry one event per part, each with the instant it belongs to.
    sql: (n) => `
      ALTER TABLE ${n.t('tenant_billing')} ADD COLUMN plan_history jsonb;
      ALTER TABLE ${n.t('tenant_billing')} ADD COLUMN subscription_event_at timestamptz;
      ALTER TABLE ${n.t('workspaces')} ADD COLUMN suspended_at timestamptz;
      ALTER TABLE ${n.t('meter_event_outbox')} DROP CONSTRAINT IF EXISTS meter_event_outbox_tenant_id_period_meter_key;
      ALTER TABLE ${n.t('meter_event_outbox')} ADD COLUMN occurred_at timestamptz;
      CREATE INDEX meter_event_outbox_period ON ${n.t('meter_event_outbox')}(tenant_id, period);
      CREATE INDEX custom_hostnames_check ON ${n.t('custom_hostnames')}(last_checked_at NULLS FIRST, id) WHERE status IN ('pending', 'verifying_dns');
      ALTER TABLE ${n.t('tenant_tombstones')} ADD COLUMN purge_attempted_at timestamptz;
    `,
  },
  {
    version: 24,
    name: 'the trigram index holds only chunks of workspaces larger than a scan (and legacy chunks)',
    sql: (n) => `
      ALTER TABLE ${n.t('chunks')} ADD COLUMN trigram boolean NOT NULL DEFAULT false;
      UPDATE ${n.t('chunks')} c SET trigram = true
      WHERE c.workspace_id IS NULL OR (c.tenant_id, c.workspace_id) IN (
        SELECT w.tenant_id, w.workspace_id FROM ${n.t('chunks')} w WHERE w.workspace_id IS NOT NULL GROUP BY w.tenant_id, w.workspace_id
        HAVING count(*) + (SELECT count(*) FROM ${n.t('chunks')} l WHERE l.tenant_id = w.tenant_id AND l.workspace_id IS NULL) > ${TRIGRAM_SCAN_CHUNKS}
      );
      DROP INDEX ${n.t('chunks_trigram')};
      CREATE INDEX chunks_trigram ON ${n.t('chunks')} USING gin (lower(title || E'\\n' || text) ${n.trgmOps}) WHERE trigram;
      DROP INDEX ${n.t('chunks_scope')};
      CREATE INDEX chunks_scope ON ${n.t('chunks')}(tenant_id, workspace_id, trigram);
    `,
  },
  {
    version: 25,
    name: 'a chunk that is its document\'s whole source keeps no copy of it (NULL text)',
    sql: (n) => `
      ALTER TABLE ${n.t('chunks')} ALTER COLUMN text DROP NOT NULL;
      ${sourceTextTriggers(n)}
    `,
  },
];

const EXTENSIONS = ['vector', 'pg_trgm'] as const;

/** The storage kit's steps not applied yet, inside the migration's transaction and lock. */
async function applyKitMigrations(client: PoolClient, n: Names): Promise<void> {
  const table = n.t(KIT_MIGRATIONS_TABLE);
  await client.query(`CREATE TABLE IF NOT EXISTS ${table} (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
  const { rows } = await client.query<{ id: string }>(`SELECT id FROM ${table}`);
  const applied = new Set(rows.map((r) => r.id));
  const ctx = { dialect: POSTGRES, name: n.t };
  for (const step of KIT_MIGRATIONS) {
    if (applied.has(step.id)) continue;
    for (const statement of step.statements(ctx)) await client.query(statement);
    await client.query(`INSERT INTO ${table} (id) VALUES ($1)`, [step.id]);
  }
}

/** The schema of a new database (base-schema.ts), recorded as every step applied; returns the last version. */
async function createSchema(client: PoolClient, n: Names): Promise<number> {
  for (const statement of baseSchemaStatements(n)) await client.query(statement);
  await client.query(`INSERT INTO ${n.t('panya_migrations')} (version, name) SELECT * FROM unnest($1::int[], $2::text[])`, [migrations.map((m) => m.version), migrations.map((m) => m.name)]);
  await client.query(`CREATE TABLE ${n.t(KIT_MIGRATIONS_TABLE)} (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
  await client.query(`INSERT INTO ${n.t(KIT_MIGRATIONS_TABLE)} (id) SELECT unnest($1::text[])`, [KIT_MIGRATIONS.map((step) => step.id)]);
  return migrations.at(-1)!.version;
}

/** One lock for every Panya schema in the database: also serialises CREATE EXTENSION. */
const MIGRATION_LOCK = 'panya:migrate';

async function extensionSchemas(client: PoolClient): Promise<Map<string, string>> {
  const { rows } = await client.query<{ extname: string; nspname: string }>(
    'SELECT e.extname, n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = ANY($1::text[])',
    [EXTENSIONS],
  );
  return new Map(rows.map((r) => [r.extname, r.nspname]));
}

/**
 * Creates the schema and the extensions if missing and applies pending migrations, all under
 * an advisory lock so that nodes starting together migrate once. Returns the extensions'
 * schemas, which queries name explicitly (the pool's search_path is not ours to rely on).
 */
export async function migrate(pool: Pool, schema: string): Promise<{ vector: string; trgm: string }> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [MIGRATION_LOCK]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${ident(schema)}`);
    let found = await extensionSchemas(client);
    for (const ext of EXTENSIONS) {
      if (found.has(ext)) continue;
      try {
        await client.query(`CREATE EXTENSION IF NOT EXISTS ${ext}`);
      } catch (error) {
        throw new Error(
          `PostgreSQL extension "${ext}" is missing and could not be created (${(error as Error).message}). ` +
            `Install it (pgvector, pg_trgm) and run "CREATE EXTENSION ${ext}" as a superuser once.`,
        );
      }
    }
    found = await extensionSchemas(client);
    const n = names(schema, found.get('vector')!, found.get('pg_trgm')!);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${n.t('panya_migrations')} (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const { rows } = await client.query<{ v: number | null; tenants: string | null }>(
      `SELECT (SELECT max(version) FROM ${n.t('panya_migrations')}) AS v, to_regclass($1)::text AS tenants`,
      [n.t('tenants')],
    );
    let current = rows[0]?.v ?? 0;
    // A new database: the generated schema, with every numbered migration and kit step recorded as applied.
    if (current === 0 && rows[0]?.tenants === null) current = await createSchema(client, n);
    for (const m of migrations) {
      if (m.version <= current) continue;
      await client.query(m.sql(n));
      await client.query(`INSERT INTO ${n.t('panya_migrations')} (version, name) VALUES ($1, $2)`, [m.version, m.name]);
    }
    await applyKitMigrations(client, n);
    await client.query('COMMIT');
    return { vector: found.get('vector')!, trgm: found.get('pg_trgm')! };
  } catch (error) {
    await client.query('ROLLBACK').catch((e: Error) => (broken = e));
    throw error;
  } finally {
    client.release(broken);
  }
}
