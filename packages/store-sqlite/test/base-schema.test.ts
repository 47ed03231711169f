import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KIT_MIGRATIONS, KIT_MIGRATIONS_TABLE } from '@panya/core/rows';
import { openDatabase, type Db } from '../src/database.js';
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

});
