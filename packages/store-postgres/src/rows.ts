import { rowCodec, type Conflict, type Dialect, type RowCodec, type TableSpec } from '@panya/core/rows';
import { iso, json, type Conn, type Names } from './database.js';

/** Postgres has the types: booleans, jsonb (written as JSON text) and timestamptz (read as Dates). */
export const POSTGRES: Dialect = {
  name: 'postgres',
  param: (n) => `$${n}`,
  read: { bool: (v) => v === true, json: (v) => json(v), time: iso },
  write: { bool: (v) => v, json: (v) => JSON.stringify(v) },
};

const codecs = new WeakMap<TableSpec<never>, Map<string, RowCodec<never>>>();

function codecFor<T>(spec: TableSpec<T>, n: Names): RowCodec<T> {
  let bySchema = codecs.get(spec as TableSpec<never>);
  if (!bySchema) codecs.set(spec as TableSpec<never>, (bySchema = new Map()));
  let codec = bySchema.get(n.schema) as RowCodec<T> | undefined;
  if (!codec) {
    codec = rowCodec(spec, POSTGRES, n.t(spec.table));
    bySchema.set(n.schema, codec as RowCodec<never>);
  }
  return codec;
}

/** A table read and written through its spec; the aggregates keep only their special SQL. */
export class Table<T> {
  readonly codec: RowCodec<T>;

  constructor(private readonly db: Conn, n: Names, spec: TableSpec<T>) {
    this.codec = codecFor(spec, n);
  }

  /** The schema-qualified table name, for the special queries' SQL. */
  get name(): string {
    return this.codec.table;
  }

  async one(query: string, params: readonly unknown[] = []): Promise<T | null> {
    const { rows } = await this.db.query(query, params);
    return rows[0] ? this.codec.decode(rows[0]) : null;
  }

  async all(query: string, params: readonly unknown[] = []): Promise<T[]> {
    const { rows } = await this.db.query(query, params);
    return rows.map((r) => this.codec.decode(r));
  }

  /** Inserts the record's fields; returns how many rows were written (0 when a conflict was ignored). */
  async insert(record: Partial<T>, conflict?: Conflict<T>): Promise<number> {
    const { sql, values } = this.codec.insert(record, conflict);
    return (await this.db.query(sql, values)).rowCount ?? 0;
  }

  /** `UPDATE … SET <the patch's columns> WHERE <where> RETURNING *`; `where` numbers its parameters from $1. */
  update(patch: { [K in keyof T]?: T[K] | undefined }, where: string, params: readonly unknown[]): Promise<T | null> {
    const { sets, values } = this.codec.patch(patch, params.length + 1);
    if (sets.length === 0) return this.one(`SELECT * FROM ${this.name} WHERE ${where}`, params);
    return this.one(`UPDATE ${this.name} SET ${sets.join(', ')} WHERE ${where} RETURNING *`, [...params, ...values]);
  }
}
