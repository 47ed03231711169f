/**
 * Tables of the storage kit are declared once, by their spec: the DDL of both dialects is
 * generated from the columns' kinds. Hand-written SQL stays for what a spec cannot say (FTS,
 * vectors); a partial index names its predicate here, once.
 */
import type { ColumnSpec, DialectName, FieldPath, TableSpec } from './codec.js';
import type { RenderContext } from './sql.js';

const TYPES: Record<DialectName, Record<string, string>> = {
  sqlite: { text: 'TEXT', integer: 'INTEGER', int32: 'INTEGER', real: 'REAL', bool: 'INTEGER', json: 'TEXT', time: 'TEXT' },
  postgres: { text: 'text', integer: 'bigint', int32: 'integer', real: 'double precision', bool: 'boolean', json: 'jsonb', time: 'timestamptz' },
};

/** SQLite keeps booleans as 0/1: a `true`/`false` default is written so. */
function defaultDdl(c: Omit<ColumnSpec<unknown>, 'field'>, dialect: DialectName): string {
  if (c.default === undefined) return '';
  const value = c.kind === 'bool' && dialect === 'sqlite' ? ({ true: '1', false: '0' }[c.default] ?? c.default) : c.default;
  return ` DEFAULT ${value}`;
}

function columnType(c: Omit<ColumnSpec<unknown>, 'field'>, dialect: DialectName): string {
  return TYPES[dialect][c.kind === 'number' ? (c.type ?? 'integer') : c.kind]!;
}

function columnDdl(c: Omit<ColumnSpec<unknown>, 'field'>, dialect: DialectName): string {
  const name = c.named?.[dialect] ?? c.column;
  // SQLite compares text byte by byte already; Postgres needs the "C" collation for that.
  const collate = c.binary && dialect === 'postgres' ? ' COLLATE "C"' : '';
  return `${name} ${columnType(c, dialect)}${collate}${c.nullable ? '' : ' NOT NULL'}${defaultDdl(c, dialect)}`;
}

export interface IndexSpec<T> {
  /** Unique across the store: `<table>_<what>`. */
  name: string;
  fields: readonly FieldPath<T>[];
  unique?: true;
  /**
   * A partial index's predicate, in SQL both dialects read, or rendered for the dialect (state
   * it once, beside the rule it serves).
   */
  where?: string | ((ctx: RenderContext) => string);
}

/** A foreign key: rows of this table go with the row they name. */
export interface ReferenceSpec<T> {
  fields: readonly FieldPath<T>[];
  /** The table named, by its primary key's single column `id` unless `columns` says otherwise. */
  table: string;
  columns?: readonly string[];
  onDelete: 'cascade';
}

export interface TableOptions<T> {
  primaryKey: readonly FieldPath<T>[];
  /** UNIQUE constraints (a unique index each, named by the store). */
  unique?: readonly (readonly FieldPath<T>[])[];
  references?: readonly ReferenceSpec<T>[];
  indexes?: readonly IndexSpec<T>[];
}

/** One step of the kit's schema: statements rendered for the store that applies them. */
export type KitStatements = (ctx: RenderContext) => string[];

function columnOf<T>(spec: TableSpec<T>, field: FieldPath<T>, dialect: DialectName): string {
  const c = spec.columns.find((col) => col.field === field);
  if (!c) throw new Error(`${spec.table} has no column for field ${field}`);
  return c.named?.[dialect] ?? c.column;
}

function indexDdl<T>(spec: TableSpec<T>, index: IndexSpec<T>, ctx: RenderContext): string {
  const cols = index.fields.map((f) => columnOf(spec, f, ctx.dialect.name)).join(', ');
  const where = typeof index.where === 'function' ? index.where(ctx) : index.where;
  return `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX ${index.name} ON ${ctx.name(spec.table)} (${cols})${where ? ` WHERE ${where}` : ''}`;
}

/** `CREATE TABLE` with every column of the spec, its primary key and its indexes. */
export function createTable<T>(spec: TableSpec<T>, options: TableOptions<T>): KitStatements {
  return (ctx) => {
    const d = ctx.dialect.name;
    const all = [...spec.columns, ...(spec.internal ?? [])] as ColumnSpec<unknown>[];
    // Long values last: SQLite stores a row's columns in order and reaches a column after a long
    // value only by walking its overflow pages (a 1 MB source read whole to learn a document's status).
    const columns = [...all.filter((c) => !c.compressible), ...all.filter((c) => c.compressible)].map((c) => columnDdl(c, d));
    const list = (fields: readonly FieldPath<T>[]) => fields.map((f) => columnOf(spec, f, d)).join(', ');
    const constraints = [
      `PRIMARY KEY (${list(options.primaryKey)})`,
      ...(options.unique ?? []).map((fields) => `UNIQUE (${list(fields)})`),
      ...(options.references ?? []).map((r) => `FOREIGN KEY (${list(r.fields)}) REFERENCES ${ctx.name(r.table)}(${(r.columns ?? ['id']).join(', ')}) ON DELETE CASCADE`),
    ];
    return [`CREATE TABLE ${ctx.name(spec.table)} (${[...columns, ...constraints].join(', ')})`, ...(options.indexes ?? []).map((i) => indexDdl(spec, i, ctx))];
  };
}

/** `ALTER TABLE … ADD COLUMN` for fields a spec gained (nullable or with a default: rows exist). */
export function addColumns<T>(spec: TableSpec<T>, fields: readonly FieldPath<T>[]): KitStatements {
  return (ctx) =>
    fields.map((field) => {
      const c = spec.columns.find((col) => col.field === field) as ColumnSpec<unknown> | undefined;
      if (!c) throw new Error(`${spec.table} has no column for field ${field}`);
      if (!c.nullable && c.default === undefined) throw new Error(`${spec.table}.${field}: a column added to a table with rows needs nullable or a default`);
      return `ALTER TABLE ${ctx.name(spec.table)} ADD COLUMN ${columnDdl(c, ctx.dialect.name)}`;
    });
}

/** Internal columns (see `TableSpec.internal`) a table gained after it was created. */
export function addInternalColumns<T>(spec: TableSpec<T>, columns: readonly string[]): KitStatements {
  return (ctx) =>
    columns.map((column) => {
      const c = spec.internal?.find((col) => col.column === column);
      if (!c) throw new Error(`${spec.table} has no internal column ${column}`);
      if (!c.nullable && c.default === undefined) throw new Error(`${spec.table}.${column}: a column added to a table with rows needs nullable or a default`);
      return `ALTER TABLE ${ctx.name(spec.table)} ADD COLUMN ${columnDdl(c, ctx.dialect.name)}`;
    });
}

/** Indexes a table gained after it was created. */
export function addIndexes<T>(spec: TableSpec<T>, indexes: readonly IndexSpec<T>[]): KitStatements {
  return (ctx) => indexes.map((i) => indexDdl(spec, i, ctx));
}
