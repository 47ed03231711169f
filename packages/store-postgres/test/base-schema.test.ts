import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { KIT_MIGRATIONS } from '@panya/core/rows';
import { openPostgresStore } from '@panya/store-postgres';
import { ident, names } from '../src/database.js';
import { migrations } from '../src/migrations.js';
import { withPostgres } from './fixtures/with-postgres.js';


/**
 * The schema as the catalog reads it, with the schema's own name taken out. Columns by name (a
 * spec writes them once, in one order; an upgraded table has them in the order ALTER TABLE
 * appended them, and keeps dropped ones), each with type, collation, NOT NULL, default and
 * identity; constraints (keys, unique, foreign keys, checks) and indexes by the definition
 * Postgres prints; triggers and their functions.
 */
async function schemaOf(pool: pg.Pool, schema: string) {
  const strip = (text: string | null | undefined) => (text ?? '').replaceAll(ident(schema), 'S').replaceAll(schema, 'S').replace(/\s+/g, ' ').trim();
  const q = async (text: string) => (await pool.query(text, [schema])).rows as Record<string, string | null>[];
  const tables: Record<string, Record<string, string>> = {};
  for (const c of await q(
    `SELECT table_name, column_name, data_type, collation_name, is_nullable, column_default, is_identity, identity_generation
     FROM information_schema.columns WHERE table_schema = $1 ORDER BY table_name, column_name`,
  )) {
    (tables[c.table_name!] ??= {})[c.column_name!] = [c.data_type, c.collation_name ?? '', c.is_nullable === 'YES' ? 'NULL' : 'NOT NULL', strip(c.column_default), c.is_identity === 'YES' ? c.identity_generation : ''].join(' | ');
  }
  const constraints = Object.fromEntries(
    (await q(`SELECT c.conrelid::regclass::text AS tbl, c.conname, pg_get_constraintdef(c.oid) AS def FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = $1`)).map((r) => [
      `${strip(r.tbl)}.${r.conname}`,
      strip(r.def),
    ]),
  );
  const indexes = Object.fromEntries((await q(`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = $1`)).map((r) => [r.indexname!, strip(r.indexdef)]));
  const triggers = Object.fromEntries(
    (await q(`SELECT t.tgname, pg_get_triggerdef(t.oid) AS def FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND NOT t.tgisinternal`)).map((r) => [
      r.tgname!,
      strip(r.def),
    ]),
  );
  const functions = Object.fromEntries((await q(`SELECT p.proname, p.prosrc FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = $1`)).map((r) => [r.proname!, strip(r.prosrc)]));
  return { tables, constraints, indexes, triggers, functions };
}

withPostgres('PostgreSQL base schema', (url) => {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const schemas = [`panya_fresh_${randomBytes(6).toString('hex')}`, `panya_upgraded_${randomBytes(6).toString('hex')}`];
  afterAll(async () => {
    for (const s of schemas) await pool.query(`DROP SCHEMA IF EXISTS ${ident(s)} CASCADE`);
    await pool.end();
  });

  describe('a new database from the generated schema', () => {
    it('has the schema of one upgraded from the first numbered migration through every step', async () => {
      const [freshSchema, upgradedSchema] = schemas as [string, string];
      // A new schema first: it creates the extensions the first migration's database had.
      const fresh = await openPostgresStore({ pool, schema: freshSchema });
      await fresh.close();
      const ext = (await pool.query<{ extname: string; nspname: string }>("SELECT e.extname, n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname IN ('vector', 'pg_trgm')")).rows;
      const at = (name: string) => ext.find((e) => e.extname === name)!.nspname;
      const n = names(upgradedSchema, at('vector'), at('pg_trgm'));
      await pool.query(`CREATE SCHEMA ${ident(upgradedSchema)}`);
      await pool.query(`CREATE TABLE ${n.t('panya_migrations')} (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
      await pool.query(migrations[0]!.sql(n));
      await pool.query(`INSERT INTO ${n.t('panya_migrations')} (version, name) VALUES (1, $1)`, [migrations[0]!.name]);
      // A document being indexed under a lease when the process stopped.
      await pool.query(`INSERT INTO ${n.t('tenants')} (id, slug, plan, created_at, updated_at) VALUES ('ten_a', 'a', 'free', now(), now())`);
      await pool.query(`INSERT INTO ${n.t('workspaces')} (id, tenant_id, slug, name, is_default, created_at, updated_at) VALUES ('ws_a', 'ten_a', 'a', 'A', true, now(), now())`);
      await pool.query(
        `INSERT INTO ${n.t('documents')} (id, tenant_id, workspace_id, title, content_md, status, lease_until, created_at, updated_at) VALUES ('doc_b', 'ten_a', 'ws_a', 'B', 'text', 'indexing', '2030-01-01T00:00:30Z', now(), now())`,
      );
      const upgraded = await openPostgresStore({ pool, schema: upgradedSchema });
      await upgraded.close();
      // Its lease moved to the leases' table.
      const leases = await pool.query(`SELECT tenant_id, document_id, lease_until, holder FROM ${ident(upgradedSchema)}.document_leases`);
      expect(leases.rows).toEqual([{ tenant_id: 'ten_a', document_id: 'doc_b', lease_until: new Date('2030-01-01T00:00:30Z'), holder: null }]);

      const [a, b] = [await schemaOf(pool, upgradedSchema), await schemaOf(pool, freshSchema)];
      expect(Object.keys(b.tables).length).toBeGreaterThan(40);
      expect(b.tables).toEqual(a.tables);
      expect(b.constraints).toEqual(a.constraints);
      expect(b.indexes).toEqual(a.indexes);
      expect(b.triggers).toEqual(a.triggers);
      expect(b.functions).toEqual(a.functions);
      // Every step is recorded on both: the next one added runs on both alike.
      const recorded = async (schema: string) => ({
        versions: (await pool.query(`SELECT version FROM ${ident(schema)}.panya_migrations ORDER BY version`)).rows.map((r) => r.version as number),
        kit: (await pool.query(`SELECT id FROM ${ident(schema)}.kit_migrations ORDER BY id`)).rows.map((r) => r.id as string),
      });
      const [ra, rb] = [await recorded(upgradedSchema), await recorded(freshSchema)];
      expect(rb).toEqual(ra);
      expect(rb.versions).toEqual(migrations.map((m) => m.version));
      expect(rb.kit).toHaveLength(KIT_MIGRATIONS.length);
    });
  });
});
