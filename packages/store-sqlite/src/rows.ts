import { rowCodec, type Conflict, type Dialect, type Row, type RowCodec, type TableSpec } from '@panya/core/rows';
import type { Statements } from './database.js';
import { readSource, storedSource } from './source-text.js';

/** How SQLite stores what it has no type for: booleans as 0/1, JSON as text, times as ISO text. */
export const SQLITE: Dialect = {
  name: 'sqlite',
  param: () => '?',
  read: {
    bool: (v) => v === 1 || v === true,
    json: (v) => JSON.parse(v as string),
    time: (v) => v as string,
    compressed: readSource,
  },
  write: { bool: (v) => (v ? 1 : 0), json: (v) => JSON.stringify(v), compressed: storedSource },
};

const codecs = new WeakMap<TableSpec<never>, RowCodec<never>>();

function codecFor<T>(spec: TableSpec<T>): RowCodec<T> {
  let codec = codecs.get(spec as TableSpec<never>) as RowCodec<T> | undefined;
  if (!codec) {
    codec = rowCodec(spec, SQLITE);
    codecs.set(spec as TableSpec<never>, codec as RowCodec<never>);
  }
  return codec;
}

/** A table read and written through its spec; the aggregates keep only their special SQL. */
export class Table<T> {
  readonly codec: RowCodec<T>;

  constructor(private readonly sql: Statements, spec: TableSpec<T>) {
    this.codec = codecFor(spec);
  }

  one(query: string, ...params: unknown[]): T | null {
    const row = this.sql.get(query).get(...params) as Row | undefined;
    return row ? this.codec.decode(row) : null;
  }

  all(query: string, ...params: unknown[]): T[] {
    return (this.sql.get(query).all(...params) as Row[]).map((r) => this.codec.decode(r));
  }

  /** Inserts the record's fields; returns how many rows were written (0 when a conflict was ignored). */
  insert(record: Partial<T>, conflict?: Conflict<T>): number {
    const { sql, values } = this.codec.insert(record, conflict);
    return this.sql.get(sql).run(...values).changes;
  }

  /** `UPDATE … SET <the patch's columns> WHERE <where> RETURNING *`; `where` takes positional parameters. */
  update(patch: { [K in keyof T]?: T[K] | undefined }, where: string, ...params: unknown[]): T | null {
    const { sets, values } = this.codec.patch(patch);
    if (sets.length === 0) return this.one(`SELECT * FROM ${this.codec.table} WHERE ${where}`, ...params);
    return this.one(`UPDATE ${this.codec.table} SET ${sets.join(', ')} WHERE ${where} RETURNING *`, ...values, ...params);
  }
}
