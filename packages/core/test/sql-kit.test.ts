import { describe, expect, it } from 'vitest';
import { addColumns, createTable, sql, tableSpec, type Dialect, type RenderContext } from '@panya/core/rows';

const dialect = (name: 'sqlite' | 'postgres'): Dialect => ({
  name,
  param: name === 'postgres' ? (n) => `$${n}` : () => '?',
  read: { bool: Boolean, json: (v) => v, time: String },
  write: { bool: (v) => v, json: (v) => JSON.stringify(v) },
});
const sqlite: RenderContext = { dialect: dialect('sqlite'), name: (t) => t };
const postgres: RenderContext = { dialect: dialect('postgres'), name: (t) => `"app".${t}` };

describe('sql fragments', () => {
  const statement = sql`SELECT * FROM ${sql.table('notes')} WHERE tenant_id = ${'t1'} AND status ${sql.in(['a', 'b'])} AND ${sql.jsonArrayHas('tags', 'x')} LIMIT ${5}`;

  it('numbers Postgres parameters in order, with one array for a list and JSON for membership', () => {
    expect(statement.render(postgres)).toEqual({
      text: 'SELECT * FROM "app".notes WHERE tenant_id = $1 AND status = ANY($2) AND tags @> $3::jsonb LIMIT $4',
      values: ['t1', ['a', 'b'], '["x"]', 5],
    });
  });

  it('renders the same statement for SQLite with json_each', () => {
    expect(statement.render(sqlite)).toEqual({
      text: 'SELECT * FROM notes WHERE tenant_id = ? AND status IN (SELECT value FROM json_each(?)) AND EXISTS (SELECT 1 FROM json_each(tags) WHERE value = ?) LIMIT ?',
      values: ['t1', '["a","b"]', 'x', 5],
    });
  });

  it('splices nested fragments and joins with their parameters kept in order', () => {
    const where = sql.join([sql`a = ${1}`, sql`b = ${2}`, sql.raw('c IS NULL')], ' AND ');
    expect(sql`DELETE FROM t WHERE ${where} AND d = ${3}`.render(postgres)).toEqual({ text: 'DELETE FROM t WHERE a = $1 AND b = $2 AND c IS NULL AND d = $3', values: [1, 2, 3] });
  });
});

describe('generated DDL', () => {
  interface Row {
    id: string;
    score: number;
    hits: number;
    on: boolean;
    meta: unknown;
    at: string | null;
  }
  const spec = tableSpec<Row>('rows_x', [
    { field: 'id', column: 'id', kind: 'text' },
    { field: 'score', column: 'score', kind: 'number', type: 'real' },
    { field: 'hits', column: 'hits', kind: 'number', default: '0' },
    { field: 'on', column: 'is_on', kind: 'bool' },
    { field: 'meta', column: 'meta', kind: 'json' },
    { field: 'at', column: 'at', kind: 'time', nullable: true },
  ]);

  it("types each column for the dialect and names a partial index's predicate once", () => {
    const options = { primaryKey: ['id'] as const, indexes: [{ name: 'rows_x_open', fields: ['at'] as const, where: 'at IS NULL' }] };
    expect(createTable(spec, options)(postgres)).toEqual([
      'CREATE TABLE "app".rows_x (id text NOT NULL, score double precision NOT NULL, hits bigint NOT NULL DEFAULT 0, is_on boolean NOT NULL, meta jsonb NOT NULL, at timestamptz, PRIMARY KEY (id))',
      'CREATE INDEX rows_x_open ON "app".rows_x (at) WHERE at IS NULL',
    ]);
    expect(createTable(spec, options)(sqlite)[0]).toBe(
      'CREATE TABLE rows_x (id TEXT NOT NULL, score REAL NOT NULL, hits INTEGER NOT NULL DEFAULT 0, is_on INTEGER NOT NULL, meta TEXT NOT NULL, at TEXT, PRIMARY KEY (id))',
    );
  });

  it('writes byte-ordered ids, 32-bit integers, boolean defaults, unique constraints and foreign keys per dialect', () => {
    const child = tableSpec<{ id: string; parentId: string; rank: number; open: boolean }>('children', [
      { field: 'id', column: 'id', kind: 'text', binary: true },
      { field: 'parentId', column: 'parent_id', kind: 'text', binary: true },
      { field: 'rank', column: 'rank', kind: 'number', type: 'int32' },
      { field: 'open', column: 'open', kind: 'bool', default: 'false' },
    ]);
    const options = { primaryKey: ['id'] as const, unique: [['parentId', 'rank'] as const], references: [{ fields: ['parentId'] as const, table: 'parents', onDelete: 'cascade' as const }] };
    expect(createTable(child, options)(postgres)[0]).toBe(
      'CREATE TABLE "app".children (id text COLLATE "C" NOT NULL, parent_id text COLLATE "C" NOT NULL, rank integer NOT NULL, open boolean NOT NULL DEFAULT false, PRIMARY KEY (id), UNIQUE (parent_id, rank), FOREIGN KEY (parent_id) REFERENCES "app".parents(id) ON DELETE CASCADE)',
    );
    expect(createTable(child, options)(sqlite)[0]).toBe(
      'CREATE TABLE children (id TEXT NOT NULL, parent_id TEXT NOT NULL, rank INTEGER NOT NULL, open INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (id), UNIQUE (parent_id, rank), FOREIGN KEY (parent_id) REFERENCES parents(id) ON DELETE CASCADE)',
    );
  });

  it('refuses to add a NOT NULL column without a default to a table that has rows', () => {
    expect(addColumns(spec, ['at'])(sqlite)).toEqual(['ALTER TABLE rows_x ADD COLUMN at TEXT']);
    expect(() => addColumns(spec, ['score'])(sqlite)).toThrow(/nullable or a default/);
  });
});
