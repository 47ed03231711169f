/**
 * The one mapping between port records and table rows, shared by every SQL store: a table spec
 * lists `{field, column, kind}` once, and each store supplies only its dialect (placeholders and
 * how booleans, JSON and timestamps travel). Mappers, insert lists and patch columns derive from it.
 */

export type DialectName = 'sqlite' | 'postgres';

/**
 * How a value is stored: `text` and `number` as themselves (numbers may arrive as strings from
 * bigint columns), `bool`, `json` and `time` (ISO-8601 in records) as the dialect stores them.
 */
export type ColumnKind = 'text' | 'number' | 'bool' | 'json' | 'time';

/**
 * A record field, or `field.part` for a nested object stored in several columns (a CSAT score,
 * a message's feedback): the object reads as null when its first column is NULL.
 */
export type FieldPath<T> = (keyof T & string) | `${keyof T & string}.${string}`;

export interface ColumnSpec<T> {
  field: FieldPath<T>;
  column: string;
  kind: ColumnKind;
  /** What a NULL reads as (default `null`). */
  nullAs?: unknown;
  /** The column's name in a store whose schema named it differently. */
  named?: Partial<Record<DialectName, string>>;
  /** For generated DDL: a `number` column's SQL type (default `integer`: 64 bits; `int32` is Postgres' `integer`). */
  type?: 'integer' | 'int32' | 'real';
  /** For generated DDL: compared and ordered byte by byte (Postgres `COLLATE "C"`, as SQLite does), for ids that page by cursor. */
  binary?: true;
  /** For generated DDL: the column may hold NULL (default NOT NULL). */
  nullable?: true;
  /** For generated DDL: the column's default, an SQL literal valid in both dialects (`0`, `'[]'`; `true`/`false` for a bool). */
  default?: string;
  /**
   * A long `text` column (a document's source: written once, read rarely): the dialect may store it
   * compressed, and generated tables put it after the other columns.
   */
  compressible?: true;
}

/** A column the store's own queries keep (a lease, a revision): in the table, never in the record. */
export type InternalColumn = Omit<ColumnSpec<never>, 'field' | 'nullAs'>;

export interface TableSpec<T> {
  table: string;
  columns: readonly ColumnSpec<T>[];
  /** Every other column of the table: the spec names each column the table has. */
  internal?: readonly InternalColumn[];
}

export function tableSpec<T>(table: string, columns: readonly ColumnSpec<T>[], internal?: readonly InternalColumn[]): TableSpec<T> {
  return internal ? { table, columns, internal } : { table, columns };
}

export interface Dialect {
  name: DialectName;
  /** The n-th (1-based) positional parameter. */
  param(n: number): string;
  read: { bool(value: unknown): boolean; json(value: unknown): unknown; time(value: unknown): string; compressed?(value: unknown): string };
  /** `compressed`: how a `compressible` column's text is stored, where the database does not compress it itself. */
  write: { bool(value: boolean): unknown; json(value: unknown): unknown; compressed?(text: string): unknown };
}

export type Row = Record<string, unknown>;

/** What an insert does when a row with the same key exists: nothing, or overwrite the other columns. */
export type Conflict<T> = 'ignore' | { on: readonly FieldPath<T>[]; update: true };

export interface RowCodec<T> {
  /** The table as the store's SQL names it (schema-qualified in Postgres). */
  readonly table: string;
  /** Column names in spec order (the insert list). */
  readonly columns: readonly string[];
  decode(row: Row): T;
  /**
   * `INSERT INTO table (…) VALUES (…)` for the fields the record has (an absent field leaves
   * its column to the schema's default), with its values in order.
   */
  insert(record: Partial<T>, conflict?: Conflict<T>): { sql: string; values: unknown[] };
  /** One statement inserting every record, with the columns the first one has. */
  insertMany(records: readonly Partial<T>[], conflict?: Conflict<T>): { sql: string; values: unknown[] };
  /**
   * `column = param` for each field of `patch` that is not undefined, parameters numbered from
   * `firstParam`; fields the spec does not list are ignored (they are the caller's to handle).
   */
  patch(patch: { [K in keyof T]?: T[K] | undefined }, firstParam?: number): { sets: string[]; values: unknown[] };
  /** The stored form of one field's value (for WHERE clauses of special queries). */
  encode(field: FieldPath<T>, value: unknown): unknown;
  /** The column name of a field. */
  column(field: FieldPath<T>): string;
  /**
   * `alias.column = <literal>` for each flag, joined with AND: a rule core states as flag values
   * (e.g. what is billable), rendered in the store's SQL. Boolean columns only, so the literals
   * are the dialect's own and never user input.
   */
  where(flags: { readonly [K in keyof T]?: boolean }, alias?: string): string;
}

export function rowCodec<T>(spec: TableSpec<T>, dialect: Dialect, table: string = spec.table): RowCodec<T> {
  const columns = spec.columns.map((c) => ({ ...c, column: c.named?.[dialect.name] ?? c.column }));
  const byField = new Map(columns.map((c) => [c.field as string, c]));
  const insertSql = new Map<string, string>();
  const get = (record: unknown, field: string): unknown => {
    const dot = field.indexOf('.');
    if (dot < 0) return (record as Record<string, unknown>)[field];
    const parent = (record as Record<string, unknown>)[field.slice(0, dot)] as Record<string, unknown> | null | undefined;
    return parent === undefined ? undefined : parent === null ? null : parent[field.slice(dot + 1)];
  };

  const read = (c: ColumnSpec<T>, value: unknown): unknown => {
    if (value === null || value === undefined) return c.nullAs ?? null;
    switch (c.kind) {
      case 'text':
        return c.compressible && dialect.read.compressed ? dialect.read.compressed(value) : value;
      case 'number':
        return Number(value);
      case 'bool':
        return dialect.read.bool(value);
      case 'json':
        return dialect.read.json(value);
      case 'time':
        return dialect.read.time(value);
    }
  };
  const write = (c: ColumnSpec<T>, value: unknown): unknown => {
    if (value === null || value === undefined) return null;
    if (c.kind === 'bool') return dialect.write.bool(value as boolean);
    if (c.kind === 'json') return dialect.write.json(value);
    if (c.compressible && dialect.write.compressed) return dialect.write.compressed(value as string);
    return value;
  };
  const fieldOf = (field: string) => {
    const c = byField.get(field);
    if (!c) throw new Error(`${spec.table} has no column for field ${field}`);
    return c;
  };

  return {
    table,
    columns: columns.map((c) => c.column),
    decode(row) {
      const record: Record<string, unknown> = {};
      for (const c of columns) {
        const value = read(c, row[c.column]);
        const dot = c.field.indexOf('.');
        if (dot < 0) {
          record[c.field] = value;
          continue;
        }
        const parent = c.field.slice(0, dot);
        if (!(parent in record)) record[parent] = value === null ? null : {};
        const group = record[parent] as Record<string, unknown> | null;
        if (group) group[c.field.slice(dot + 1)] = value;
      }
      return record as T;
    },
    insert(record, conflict) {
      return this.insertMany([record], conflict);
    },
    insertMany(records, conflict) {
      const present = columns.filter((c) => get(records[0], c.field) !== undefined);
      const key = `${records.length}|${present.map((c) => c.column).join(',')}` + (conflict === undefined ? '' : conflict === 'ignore' ? '|ignore' : `|${conflict.on.join(',')}`);
      let sql = insertSql.get(key);
      if (!sql) {
        const tuples = records.map((_, r) => `(${present.map((_, i) => dialect.param(r * present.length + i + 1)).join(', ')})`);
        sql = `INSERT INTO ${table} (${present.map((c) => c.column).join(', ')}) VALUES ${tuples.join(', ')}`;
        if (conflict === 'ignore') sql += ' ON CONFLICT DO NOTHING';
        else if (conflict) {
          const keys = new Set(conflict.on.map((f) => fieldOf(f).column));
          const updates = present.filter((c) => !keys.has(c.column)).map((c) => `${c.column} = excluded.${c.column}`);
          sql += ` ON CONFLICT (${[...keys].join(', ')}) DO UPDATE SET ${updates.join(', ')}`;
        }
        if (records.length === 1) insertSql.set(key, sql);
      }
      return { sql, values: records.flatMap((record) => present.map((c) => write(c, get(record, c.field)))) };
    },
    patch(patch, firstParam = 1) {
      const sets: string[] = [];
      const values: unknown[] = [];
      for (const c of columns) {
        const value = get(patch, c.field);
        if (value === undefined) continue;
        values.push(write(c, value));
        sets.push(`${c.column} = ${dialect.param(firstParam + values.length - 1)}`);
      }
      return { sets, values };
    },
    encode(field, value) {
      return write(fieldOf(field), value);
    },
    column(field) {
      return fieldOf(field).column;
    },
    where(flags, alias) {
      const prefix = alias ? `${alias}.` : '';
      return Object.entries(flags)
        .map(([field, value]) => {
          const c = fieldOf(field);
          if (c.kind !== 'bool' || typeof value !== 'boolean') throw new Error(`${spec.table}.${field}: where() takes boolean flags only`);
          return `${prefix}${c.column} = ${String(dialect.write.bool(value))}`;
        })
        .join(' AND ');
    },
  };
}

/** One page from `limit + 1` rows newest first: the extra row only says there is more. */
export function page<T extends { id: string }>(rows: T[], limit: number): { items: T[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  return { items, nextCursor: rows.length > limit ? (items.at(-1)?.id ?? null) : null };
}
