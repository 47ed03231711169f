import { baseSchema } from '@panya/core/rows';
import { sourceTextTriggers } from './chunk-text.js';
import type { Names } from './database.js';
import { POSTGRES } from './rows.js';

/**
 * What a table spec cannot say, as a new database gets it: the chunks (an identity key, a trigram
 * GIN index), the search index's tables, the trigger functions that number every change to a
 * tenant's chunks, GIN and expression indexes. Each equals the end state of the numbered
 * migrations and kit steps (the schema-equality test compares them). The vector table is the
 * index's (search-index.ts), created once the embedder's dimension is known.
 */
function search(n: Names): string {
  return `
    CREATE TABLE ${n.t('chunks')} (
      seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      id text COLLATE "C" NOT NULL UNIQUE,
      tenant_id text COLLATE "C" NOT NULL REFERENCES ${n.t('tenants')}(id) ON DELETE CASCADE,
      workspace_id text COLLATE "C",
      document_id text COLLATE "C" NOT NULL,
      ordinal integer NOT NULL,
      title text NOT NULL,
      heading_path jsonb NOT NULL,
      -- NULL: the chunk is its document's whole source (chunk-text.ts).
      text text,
      -- In the trigram index: its workspace is larger than a trigram search scans, or it is a legacy chunk.
      trigram boolean NOT NULL DEFAULT false
    );
    CREATE INDEX chunks_document ON ${n.t('chunks')}(tenant_id, document_id);
    CREATE INDEX chunks_scope ON ${n.t('chunks')}(tenant_id, workspace_id, trigram);
    CREATE INDEX chunks_legacy ON ${n.t('chunks')}(seq) WHERE workspace_id IS NULL;
    CREATE INDEX chunks_trigram ON ${n.t('chunks')} USING gin (lower(title || E'\\n' || text) ${n.trgmOps}) WHERE trigram;
    CREATE TABLE ${n.t('index_info')} (
      id integer PRIMARY KEY CHECK (id = 1),
      embedder_id text NOT NULL,
      dimension integer NOT NULL,
      tokenizer text
    );
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
    CREATE TABLE ${n.t('lexical_segments')} (id bigserial PRIMARY KEY, tenant_id text NOT NULL, workspace_id text, seq bigint NOT NULL, chunks bigint NOT NULL, data bytea NOT NULL);
    CREATE INDEX lexical_segments_scope ON ${n.t('lexical_segments')} (tenant_id, workspace_id);
    CREATE TABLE ${n.t('lexical_deletions')} (id bigserial PRIMARY KEY, tenant_id text NOT NULL, workspace_id text, chunk_id text NOT NULL, seq bigint NOT NULL);
    CREATE INDEX lexical_deletions_scope ON ${n.t('lexical_deletions')} (tenant_id, workspace_id);
    CREATE TABLE ${n.t('lexical_pending')} (tenant_id text NOT NULL, workspace_id text);
    CREATE INDEX lexical_pending_scope ON ${n.t('lexical_pending')} (tenant_id, workspace_id);
    CREATE TABLE ${n.t('lexical_audiences')} (id bigserial PRIMARY KEY, tenant_id text NOT NULL, workspace_id text, chunk_id text NOT NULL, seq bigint NOT NULL, audiences jsonb NOT NULL);
    CREATE INDEX lexical_audiences_scope ON ${n.t('lexical_audiences')}(tenant_id, workspace_id);
    CREATE FUNCTION ${n.t('documents_audiences_changed')}() RETURNS trigger LANGUAGE plpgsql AS $fn$
     DECLARE next_seq bigint;
     BEGIN
       INSERT INTO ${n.t('search_versions')} AS v (tenant_id, seq) VALUES (NEW.tenant_id, 1)
       ON CONFLICT (tenant_id) DO UPDATE SET seq = v.seq + 1 RETURNING v.seq INTO next_seq;
       INSERT INTO ${n.t('search_changes')} (tenant_id, seq, chunk_id)
       SELECT NEW.tenant_id, next_seq, c.id FROM ${n.t('chunks')} c
       WHERE c.tenant_id = NEW.tenant_id AND c.document_id = NEW.id ON CONFLICT DO NOTHING;
       DELETE FROM ${n.t('lexical_audiences')} WHERE tenant_id = NEW.tenant_id AND chunk_id IN (SELECT id FROM ${n.t('chunks')} WHERE tenant_id = NEW.tenant_id AND document_id = NEW.id);
       INSERT INTO ${n.t('lexical_audiences')} (tenant_id, workspace_id, chunk_id, seq, audiences)
       SELECT NEW.tenant_id, c.workspace_id, c.id, next_seq, NEW.audiences FROM ${n.t('chunks')} c
       WHERE c.tenant_id = NEW.tenant_id AND c.document_id = NEW.id;
       RETURN NULL;
     END
     $fn$;
    CREATE TRIGGER documents_audiences_update AFTER UPDATE OF audiences ON ${n.t('documents')}
      FOR EACH ROW WHEN (OLD.audiences IS DISTINCT FROM NEW.audiences) EXECUTE FUNCTION ${n.t('documents_audiences_changed')}();
    ${sourceTextTriggers(n)}
  `;
}

/** Indexes on expressions, a GIN index, and one whose NULLS FIRST a spec's index cannot write. */
function indexes(n: Names): string {
  return `
    CREATE UNIQUE INDEX memberships_unique ON ${n.t('memberships')}(user_id, tenant_id, COALESCE(workspace_id, ''));
    CREATE INDEX visitors_domain ON ${n.t('visitors')}(tenant_id, workspace_id, split_part(email, '@', 2), id) WHERE email IS NOT NULL;
    CREATE INDEX tenant_tombstones_hostnames ON ${n.t('tenant_tombstones')} USING gin (hostnames);
    CREATE INDEX custom_hostnames_check ON ${n.t('custom_hostnames')}(last_checked_at NULLS FIRST, id) WHERE status IN ('pending', 'verifying_dns');
  `;
}

/** A new database's schema: the tables generated from core's specs, then this store's own parts. */
export function baseSchemaStatements(n: Names): string[] {
  return [...baseSchema()({ dialect: POSTGRES, name: n.t }), search(n), indexes(n)];
}
