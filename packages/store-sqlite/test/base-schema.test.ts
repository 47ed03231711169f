import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KIT_MIGRATIONS, KIT_MIGRATIONS_TABLE } from '@panya/core/rows';
import { applyMigrations, openDatabase, type Db } from '../src/database.js';
import { migrations } from '../src/migrations.js';
import { openSqliteStore } from '../src/store.js';

const dir = mkdtempSync(join(tmpdir(), 'panya-base-schema-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** SQL text compared without its layout: runs of blanks as one, none inside parentheses. */
const normal = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').replace(/\(\s/g, '(').replace(/\s\)/g, ')').replace(/\s\(/g, '(').trim();

/**
 * The schema as the catalog reads it. Columns by name (a spec writes them once, in one order;
 * an upgraded table has them in the order ALTER TABLE appended them), each with type, NOT NULL,
 * default and place in the primary key; foreign keys; indexes by what they index (the unique
 * constraints' automatic ones by their columns, as SQLite numbers them by position); triggers by
 * their text.
 */
function schemaOf(db: Db) {
  const objects = db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY name").all() as { type: string; name: string; tbl_name: string; sql: string | null }[];
  const tables: Record<string, unknown> = {};
  const indexes: Record<string, unknown> = {};
  const triggers: Record<string, string> = {};
  for (const o of objects.filter((o) => o.type === 'table')) {
    // A key column reads as NOT NULL: SQLite lets a rowid table's non-integer key hold NULL unless it says
    // NOT NULL (which the numbered migrations did not, and the generated tables do); no store writes one.
    const columns = db.prepare('SELECT name, type, "notnull" OR pk > 0 AS not_null, dflt_value AS dflt, pk FROM pragma_table_info(?) ORDER BY name').all(o.name);
    const foreignKeys = db.prepare('SELECT "table", "from", "to", on_delete AS onDelete FROM pragma_foreign_key_list(?) ORDER BY "from"').all(o.name);
    const virtual = /^CREATE VIRTUAL/i.test(o.sql ?? '') ? normal(o.sql) : undefined;
    tables[o.name] = { columns, foreignKeys, withoutRowid: /WITHOUT\s+ROWID\s*$/i.test(o.sql ?? ''), ...(virtual ? { virtual } : {}) };
    for (const index of db.prepare('SELECT name, "unique", origin, partial FROM pragma_index_list(?)').all(o.name) as { name: string; unique: number; origin: string; partial: number }[]) {
      const keys = (db.prepare('SELECT name, "desc", coll FROM pragma_index_xinfo(?) WHERE key ORDER BY seqno').all(index.name) as { name: string | null }[]).map((k) => k.name ?? 'expression');
      const sql = objects.find((x) => x.type === 'index' && x.name === index.name)?.sql ?? null;
      const where = /\sWHERE\s(.*)$/is.exec(sql ?? '')?.[1];
      const name = index.origin === 'c' ? index.name : `${o.name}:${index.origin}:${keys.join(',')}`;
      indexes[name] = { table: o.name, keys, unique: index.unique, ...(where ? { where: normal(where) } : {}), ...(keys.includes('expression') ? { sql: normal(sql) } : {}) };
    }
  }
  for (const o of objects.filter((o) => o.type === 'trigger')) triggers[o.name] = `${o.tbl_name}: ${normal(o.sql)}`;
  return { tables, indexes, triggers };
}

describe('a new database from the generated schema', () => {
  it('has the schema of one upgraded from the first numbered migration through every step', async () => {
    const oldest = join(dir, 'upgraded.db');
    const first = openDatabase({ path: oldest });
    first.exec(migrations[0]!.sql);
    first.pragma('user_version = 1');
    first.close();
    const upgraded = openSqliteStore({ path: oldest });
    const fresh = openSqliteStore({ path: join(dir, 'fresh.db') });
    try {
      const [a, b] = [schemaOf(upgraded.db), schemaOf(fresh.db)];
      expect(Object.keys(b.tables).length).toBeGreaterThan(40);
      expect(b.tables).toEqual(a.tables);
      expect(b.indexes).toEqual(a.indexes);
      expect(b.triggers).toEqual(a.triggers);
      // Every step is recorded on both: the next one added runs on both alike.
      const recorded = (db: Db) => db.prepare(`SELECT id FROM ${KIT_MIGRATIONS_TABLE} ORDER BY id`).pluck().all();
      expect(recorded(fresh.db)).toEqual(recorded(upgraded.db));
      expect(recorded(fresh.db)).toHaveLength(KIT_MIGRATIONS.length);
      expect(fresh.db.pragma('user_version', { simple: true })).toBe(migrations.at(-1)!.version);
    } finally {
      await upgraded.close();
      await fresh.close();
    }
  });

  it('puts document sources after the other columns, also in a database created before, keeping its rows', async () => {
    const columns = (db: Db) => db.prepare("SELECT name FROM pragma_table_info('documents') ORDER BY cid").pluck().all() as string[];
    const fresh = openSqliteStore({ path: join(dir, 'fresh-order.db') });
    expect(columns(fresh.db).at(-1)).toBe('content_md');
    await fresh.close();

    // The first layout: content_md before url, status and the rest; a tenant and a document in it.
    const oldest = join(dir, 'before-order.db');
    const first = openDatabase({ path: oldest });
    first.exec(migrations[0]!.sql);
    first.pragma('user_version = 1');
    expect(columns(first).indexOf('content_md')).toBeLessThan(columns(first).indexOf('status'));
    const now = new Date(0).toISOString();
    first.prepare("INSERT INTO tenants (id, slug, plan, created_at, updated_at) VALUES ('ten_a', 'a', 'free', ?, ?)").run(now, now);
    first.prepare("INSERT INTO workspaces (id, tenant_id, slug, name, is_default, created_at, updated_at) VALUES ('ws_a', 'ten_a', 'a', 'A', 1, ?, ?)").run(now, now);
    const source = 'long source '.repeat(10_000);
    first
      .prepare("INSERT INTO documents (id, tenant_id, workspace_id, title, content_md, url, status, created_at, updated_at) VALUES ('doc_a', 'ten_a', 'ws_a', 'T', ?, 'https://example.com/a', 'ready', ?, ?)")
      .run(source, now, now);
    // Then the steps up to the lease holder's column, and a document being indexed under a lease when the process stopped.
    applyMigrations(first, migrations.filter((m) => m.version <= 10));
    first
      .prepare("INSERT INTO documents (id, tenant_id, workspace_id, title, content_md, status, lease_until, lease_holder, created_at, updated_at) VALUES ('doc_b', 'ten_a', 'ws_a', 'B', 'text', 'indexing', '2030-01-01T00:00:30.000Z', 'node-a/run-1/t0', ?, ?)")
      .run(now, now);
    first.close();

    const upgraded = openSqliteStore({ path: oldest });
    try {
      expect(columns(upgraded.db).at(-1)).toBe('content_md');
      const row = upgraded.db.prepare("SELECT title, url, status, content_md FROM documents WHERE id = 'doc_a'").get() as Record<string, string>;
      expect(row).toMatchObject({ title: 'T', url: 'https://example.com/a', status: 'ready' });
      expect(row.content_md).toBe(source);
      // Its lease moved to the leases' table, and the document's row keeps none.
      expect(upgraded.db.prepare('SELECT tenant_id, document_id, lease_until, holder FROM document_leases').all()).toEqual([
        { tenant_id: 'ten_a', document_id: 'doc_b', lease_until: '2030-01-01T00:00:30.000Z', holder: 'node-a/run-1/t0' },
      ]);
      expect(columns(upgraded.db).filter((c) => c.startsWith('lease'))).toEqual([]);
      // Its indexes and triggers came back with it.
      const objects = upgraded.db.prepare("SELECT name FROM sqlite_schema WHERE tbl_name = 'documents' AND type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY name").pluck().all();
      expect(objects).toEqual(['documents_audiences_update', 'documents_external_id', 'documents_queue', 'documents_scope', 'documents_search_update', 'documents_source_delete', 'documents_source_update', 'documents_title_update']);
    } finally {
      await upgraded.close();
    }
  });
});
