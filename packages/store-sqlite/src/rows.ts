export { page } from '@panya/core/rows';
import type { Page, Scope } from '@panya/core';
import { page, rowCodec, type Conflict, type Dialect, type FieldPath, type Row, type RowCodec, type TableSpec } from '@panya/core/rows';
import type { Statements } from './database.js';

/** How SQLite stores what it has no type for: booleans as 0/1, JSON as text, times as ISO text. */
export const SQLITE: Dialect = {
  name: 'sqlite',
  param: () => '?',
  read: { bool: (v) => v === 1 || v === true, json: (v) => JSON.parse(v as string), time: (v) => v as string },
  write: { bool: (v) => (v ? 1 : 0), json: (v) => JSON.stringify(v) },
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

  /** Inserts every record in one statement; returns how many rows were written. */
  insertMany(records: readonly Partial<T>[], conflict?: Conflict<T>): number {
    if (records.length === 0) return 0;
    const { sql, values } = this.codec.insertMany(records, conflict);
    return this.sql.db.prepare(sql).run(...values).changes;
  }

  /** `UPDATE … SET <the patch's columns> WHERE <where> RETURNING *`; `where` takes positional parameters. */
  update(patch: { [K in keyof T]?: T[K] | undefined }, where: string, ...params: unknown[]): T | null {
    return this.updateSet(patch, [], where, ...params);
  }

  // A workspace's records by id: what every workspace-scoped aggregate reads and writes alike.

  /** The workspace's record with this id. */
  get(scope: Scope, id: string): T | null {
    return this.one(`SELECT * FROM ${this.codec.table} WHERE tenant_id = ? AND workspace_id = ? AND id = ?`, scope.tenantId, scope.workspaceId, id);
  }

  /** The workspace's records newest id first, after a cursor, with equality filters on fields (undefined: no filter). */
  list(scope: Scope, options: { after?: string | undefined; limit: number }, filters: { [K in FieldPath<T>]?: unknown } = {}): Page<T> {
    const where = ['tenant_id = ?', 'workspace_id = ?'];
    const params: unknown[] = [scope.tenantId, scope.workspaceId];
    if (options.after !== undefined) where.push('id < ?'), params.push(options.after);
    for (const [field, value] of Object.entries(filters)) {
      if (value !== undefined) where.push(`${this.codec.column(field as FieldPath<T>)} = ?`), params.push(value);
    }
    const rows = this.all(`SELECT * FROM ${this.codec.table} WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ?`, ...params, options.limit + 1);
    return page(rows as (T & { id: string })[], options.limit);
  }

  /** Patches the workspace's record with this id; null when it has none. */
  patch(scope: Scope, id: string, patch: { [K in keyof T]?: T[K] | undefined }): T | null {
    return this.update(patch, 'tenant_id = ? AND workspace_id = ? AND id = ?', scope.tenantId, scope.workspaceId, id);
  }

  /** Deletes the workspace's record with this id; false when it has none. */
  delete(scope: Scope, id: string): boolean {
    return this.sql.get(`DELETE FROM ${this.codec.table} WHERE tenant_id = ? AND workspace_id = ? AND id = ?`).run(scope.tenantId, scope.workspaceId, id).changes > 0;
  }

  /** Like `update`, with extra SET clauses (without parameters) before the patch's. */
  updateSet(patch: { [K in keyof T]?: T[K] | undefined }, extra: readonly string[], where: string, ...params: unknown[]): T | null {
    const { sets, values } = this.codec.patch(patch);
    const all = [...extra, ...sets];
    if (all.length === 0) return this.one(`SELECT * FROM ${this.codec.table} WHERE ${where}`, ...params);
    return this.one(`UPDATE ${this.codec.table} SET ${all.join(', ')} WHERE ${where} RETURNING *`, ...values, ...params);
  }
}
