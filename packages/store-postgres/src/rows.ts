export { page } from '@panya/core/rows';
import type { Page, Scope } from '@panya/core';
import { page, rowCodec, type Conflict, type Dialect, type FieldPath, type RowCodec, type TableSpec } from '@panya/core/rows';
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

  /** Inserts every record in one statement; returns how many rows were written. */
  async insertMany(records: readonly Partial<T>[], conflict?: Conflict<T>): Promise<number> {
    if (records.length === 0) return 0;
    const { sql, values } = this.codec.insertMany(records, conflict);
    return (await this.db.query(sql, values)).rowCount ?? 0;
  }

  /** `UPDATE … SET <the patch's columns> WHERE <where> RETURNING *`; `where` numbers its parameters from $1. */
  update(patch: { [K in keyof T]?: T[K] | undefined }, where: string, params: readonly unknown[]): Promise<T | null> {
    return this.updateSet(patch, [], where, params);
  }

  // A workspace's records by id: what every workspace-scoped aggregate reads and writes alike.

  /** The workspace's record with this id. */
  get(scope: Scope, id: string): Promise<T | null> {
    return this.one(`SELECT * FROM ${this.name} WHERE tenant_id = $1 AND workspace_id = $2 AND id = $3`, [scope.tenantId, scope.workspaceId, id]);
  }

  /** The workspace's records newest id first, after a cursor, with equality filters on fields (undefined: no filter). */
  async list(scope: Scope, options: { after?: string | undefined; limit: number }, filters: { [K in FieldPath<T>]?: unknown } = {}): Promise<Page<T>> {
    const params: unknown[] = [scope.tenantId, scope.workspaceId];
    const where = ['tenant_id = $1', 'workspace_id = $2'];
    const add = (sql: (p: string) => string, value: unknown) => (params.push(value), where.push(sql(`$${params.length}`)));
    if (options.after !== undefined) add((p) => `id < ${p}`, options.after);
    for (const [field, value] of Object.entries(filters)) {
      if (value !== undefined) add((p) => `${this.codec.column(field as FieldPath<T>)} = ${p}`, value);
    }
    params.push(options.limit + 1);
    const rows = await this.all(`SELECT * FROM ${this.name} WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT $${params.length}`, params);
    return page(rows as (T & { id: string })[], options.limit);
  }

  /** Patches the workspace's record with this id; null when it has none. */
  patch(scope: Scope, id: string, patch: { [K in keyof T]?: T[K] | undefined }): Promise<T | null> {
    return this.update(patch, 'tenant_id = $1 AND workspace_id = $2 AND id = $3', [scope.tenantId, scope.workspaceId, id]);
  }

  /** Deletes the workspace's record with this id; false when it has none. */
  async delete(scope: Scope, id: string): Promise<boolean> {
    const { rowCount } = await this.db.query(`DELETE FROM ${this.name} WHERE tenant_id = $1 AND workspace_id = $2 AND id = $3`, [scope.tenantId, scope.workspaceId, id]);
    return (rowCount ?? 0) > 0;
  }

  /** Like `update`, with extra SET clauses (without parameters) before the patch's. */
  updateSet(patch: { [K in keyof T]?: T[K] | undefined }, extra: readonly string[], where: string, params: readonly unknown[]): Promise<T | null> {
    const { sets, values } = this.codec.patch(patch, params.length + 1);
    const all = [...extra, ...sets];
    if (all.length === 0) return this.one(`SELECT * FROM ${this.name} WHERE ${where}`, params);
    return this.one(`UPDATE ${this.name} SET ${all.join(', ')} WHERE ${where} RETURNING *`, [...params, ...values]);
  }
}
