import type { Page } from '../ports/page.js';
import type { Scope } from '../ports/scope.js';
import { page, rowCodec, type Conflict, type FieldPath, type Row, type RowCodec, type TableSpec } from './codec.js';
import type { SqlDriver } from './driver.js';
import { sql, type Sql } from './sql.js';

type Patch<T> = { [K in keyof T]?: T[K] | undefined };

const codecs = new WeakMap<TableSpec<never>, Map<string, RowCodec<never>>>();

/** One codec per spec and dialect: the codec caches its insert statements. */
function codecFor<T>(spec: TableSpec<T>, driver: SqlDriver): RowCodec<T> {
  let byDialect = codecs.get(spec as TableSpec<never>);
  if (!byDialect) codecs.set(spec as TableSpec<never>, (byDialect = new Map()));
  let codec = byDialect.get(driver.dialect.name) as RowCodec<T> | undefined;
  if (!codec) {
    codec = rowCodec(spec, driver.dialect, spec.table);
    byDialect.set(driver.dialect.name, codec as RowCodec<never>);
  }
  return codec;
}

/**
 * A table read and written through its spec on any SQL store: the storage kit's aggregates keep
 * only their own queries, written once with `sql`.
 */
export class SqlTable<T> {
  readonly codec: RowCodec<T>;
  /** The table in a statement: `sql\`SELECT * FROM ${rows.ref}\``. */
  readonly ref: Sql;

  constructor(
    readonly driver: SqlDriver,
    readonly spec: TableSpec<T>,
  ) {
    this.codec = codecFor(spec, driver);
    this.ref = sql.table(spec.table);
  }

  /** A column's name as a fragment: `sql\`… ORDER BY ${rows.col('createdAt')}\``. */
  col(field: FieldPath<T>): Sql {
    return sql.raw(this.codec.column(field));
  }

  /** A field's value as stored (booleans and JSON in the dialect's form), as a parameter. */
  value(field: FieldPath<T>, value: unknown): unknown {
    return this.codec.encode(field, value);
  }

  async one(statement: Sql): Promise<T | null> {
    const { rows } = await this.driver.query(statement);
    return rows[0] ? this.codec.decode(rows[0]) : null;
  }

  async all(statement: Sql): Promise<T[]> {
    const { rows } = await this.driver.query(statement);
    return rows.map((r) => this.codec.decode(r));
  }

  /** The first column of the first row as a number (`COUNT(*)`, `SUM(…)`); 0 when there is none. */
  async count(statement: Sql): Promise<number> {
    const { rows } = await this.driver.query(statement);
    const first = rows[0] as Row | undefined;
    return first ? Number(Object.values(first)[0] ?? 0) : 0;
  }

  /** Runs a statement that writes; returns how many rows it wrote. */
  async run(statement: Sql): Promise<number> {
    return (await this.driver.query(statement)).rowCount;
  }

  /** Inserts the record's fields; returns how many rows were written (0 when a conflict was ignored). */
  insert(record: Partial<T>, conflict?: Conflict<T>): Promise<number> {
    return this.insertMany([record], conflict);
  }

  /** Inserts every record in one statement, with the columns the first one has; returns how many rows were written. */
  async insertMany(records: readonly Partial<T>[], conflict?: Conflict<T>): Promise<number> {
    if (records.length === 0) return 0;
    const present = this.spec.columns.filter((c) => read(records[0], c.field) !== undefined);
    const names = sql.raw(present.map((c) => this.codec.column(c.field)).join(', '));
    const tuples = records.map((record) => sql`(${sql.join(present.map((c) => sql`${this.codec.encode(c.field, read(record, c.field))}`), ', ')})`);
    let statement = sql`INSERT INTO ${this.ref} (${names}) VALUES ${sql.join(tuples, ', ')}`;
    if (conflict === 'ignore') statement = sql`${statement} ON CONFLICT DO NOTHING`;
    else if (conflict) {
      const keys = new Set(conflict.on.map((f) => this.codec.column(f)));
      const updates = present.map((c) => this.codec.column(c.field)).filter((c) => !keys.has(c)).map((c) => `${c} = excluded.${c}`);
      statement = sql`${statement} ON CONFLICT (${sql.raw([...keys].join(', '))}) DO ${sql.raw(updates.length ? `UPDATE SET ${updates.join(', ')}` : 'NOTHING')}`;
    }
    return this.run(statement);
  }

  /** `UPDATE … SET <the patch's columns> WHERE <where> RETURNING *`; the row as it is now, or null. */
  async update(patch: Patch<T>, where: Sql): Promise<T | null> {
    const sets = this.sets(patch);
    if (sets.length === 0) return this.one(sql`SELECT * FROM ${this.ref} WHERE ${where}`);
    return this.one(sql`UPDATE ${this.ref} SET ${sql.join(sets, ', ')} WHERE ${where} RETURNING *`);
  }

  /** `column = value` for each field of the patch that is not undefined. */
  sets(patch: Patch<T>): Sql[] {
    const out: Sql[] = [];
    for (const column of this.spec.columns) {
      const value = read(patch, column.field);
      if (value !== undefined) out.push(sql`${this.col(column.field)} = ${this.codec.encode(column.field, value)}`);
    }
    return out;
  }

  // A workspace's records by id: what every workspace-scoped aggregate reads and writes alike.

  private scoped(scope: Scope, id: string): Sql {
    return sql`tenant_id = ${scope.tenantId} AND workspace_id = ${scope.workspaceId} AND id = ${id}`;
  }

  get(scope: Scope, id: string): Promise<T | null> {
    return this.one(sql`SELECT * FROM ${this.ref} WHERE ${this.scoped(scope, id)}`);
  }

  /** The workspace's records newest id first, after a cursor, with equality filters on fields (undefined: no filter). */
  async list(scope: Scope, options: { after?: string | undefined; limit: number }, filters: { [K in FieldPath<T>]?: unknown } = {}): Promise<Page<T>> {
    const where = [sql`tenant_id = ${scope.tenantId}`, sql`workspace_id = ${scope.workspaceId}`];
    if (options.after !== undefined) where.push(sql`id < ${options.after}`);
    for (const [field, value] of Object.entries(filters)) {
      if (value !== undefined) where.push(sql`${this.col(field as FieldPath<T>)} = ${this.codec.encode(field as FieldPath<T>, value)}`);
    }
    const rows = await this.all(sql`SELECT * FROM ${this.ref} WHERE ${sql.join(where, ' AND ')} ORDER BY id DESC LIMIT ${options.limit + 1}`);
    return page(rows as (T & { id: string })[], options.limit);
  }

  patch(scope: Scope, id: string, patch: Patch<T>): Promise<T | null> {
    return this.update(patch, this.scoped(scope, id));
  }

  async delete(scope: Scope, id: string): Promise<boolean> {
    return (await this.run(sql`DELETE FROM ${this.ref} WHERE ${this.scoped(scope, id)}`)) > 0;
  }
}

function read(record: unknown, field: string): unknown {
  const dot = field.indexOf('.');
  if (dot < 0) return (record as Record<string, unknown>)[field];
  const parent = (record as Record<string, unknown>)[field.slice(0, dot)] as Record<string, unknown> | null | undefined;
  return parent === undefined ? undefined : parent === null ? null : parent[field.slice(dot + 1)];
}
