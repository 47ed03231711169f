import { isStoreConflict, StoreConflictError } from '@panya/core';
import type { Pool, PoolClient, QueryResult } from 'pg';
import { to as copyTo } from 'pg-copy-streams';

export type Row = Record<string, unknown>;

/**
 * Where a statement runs: the pool (each call on any free connection) or one connection inside
 * a transaction. `atomic` makes a block all-or-none either way: BEGIN/COMMIT on a pooled
 * connection at the root, a SAVEPOINT inside a transaction.
 */
export interface Conn {
  query<R extends Row = Row>(text: string, values?: readonly unknown[]): Promise<QueryResult<R>>;
  atomic<T>(fn: (conn: Conn) => Promise<T>): Promise<T>;
  /**
   * `COPY (query) TO STDOUT (FORMAT binary)` as the chunks it arrived in (see parseCopyBinary):
   * large `bytea` values as they are stored. COPY takes no parameters: quote values with pg's
   * `escapeLiteral`.
   */
  copyOut(query: string): Promise<Buffer[]>;
}

async function copyOut(client: PoolClient, query: string): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of client.query(copyTo(`COPY (${query}) TO STDOUT (FORMAT binary)`))) chunks.push(chunk as Buffer);
  return chunks;
}

/** Unique violations become the port's conflict error; everything else passes through. */
export function toStoreError(error: unknown): unknown {
  if ((error as { code?: unknown } | null)?.code === '23505' && !isStoreConflict(error)) {
    return new StoreConflictError((error as Error).message);
  }
  return error;
}

export class PoolConn implements Conn {
  constructor(private readonly pool: Pool) {}

  async query<R extends Row = Row>(text: string, values?: readonly unknown[]) {
    try {
      return await this.pool.query<R>(text, values as unknown[]);
    } catch (error) {
      throw toStoreError(error);
    }
  }

  async copyOut(query: string) {
    const client = await this.pool.connect();
    let failed: Error | undefined;
    try {
      return await copyOut(client, query);
    } catch (error) {
      // A copy stopped midway may leave the connection mid-protocol: drop it instead of pooling it.
      failed = error as Error;
      throw toStoreError(error);
    } finally {
      client.release(failed);
    }
  }

  async atomic<T>(fn: (conn: Conn) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await fn(new ClientConn(client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch (rollbackError) {
        // The connection is unusable (e.g. the server went away): drop it instead of pooling it.
        broken = rollbackError as Error;
      }
      throw toStoreError(error);
    } finally {
      client.release(broken);
    }
  }
}

let savepoints = 0;

/**
 * One connection inside a transaction. Statements are serialised so that a savepoint block
 * never interleaves with another statement of the same transaction (callers may fire queries
 * concurrently; pg would pipeline them in any order around the savepoint).
 */
export class ClientConn implements Conn {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly client: PoolClient) {}

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.tail.then(fn, fn);
    this.tail = run.catch(() => undefined);
    return run;
  }

  query<R extends Row = Row>(text: string, values?: readonly unknown[]) {
    return this.serial(async () => {
      try {
        return await this.client.query<R>(text, values as unknown[]);
      } catch (error) {
        throw toStoreError(error);
      }
    });
  }

  copyOut(query: string) {
    return this.serial(async () => {
      try {
        return await copyOut(this.client, query);
      } catch (error) {
        throw toStoreError(error);
      }
    });
  }

  atomic<T>(fn: (conn: Conn) => Promise<T>): Promise<T> {
    return this.serial(async () => {
      const name = `panya_sp_${++savepoints}`;
      await this.client.query(`SAVEPOINT ${name}`);
      try {
        const result = await fn(new ClientConn(this.client));
        await this.client.query(`RELEASE SAVEPOINT ${name}`);
        return result;
      } catch (error) {
        await this.client.query(`ROLLBACK TO SAVEPOINT ${name}`).catch(() => undefined);
        throw toStoreError(error);
      }
    });
  }
}

/** Quotes an SQL identifier (schema names come from configuration). */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Fully qualified names of the store's tables and of the extensions' objects it uses. */
export interface Names {
  schema: string;
  /** `"schema".table` */
  t(table: string): string;
  /** Schema-qualified pgvector type, e.g. `"public".vector`. */
  vector: string;
  /** `OPERATOR("public".<=>)`: cosine distance, whatever the connection's search_path. */
  cosine: string;
  vectorOps: string;
  trgmOps: string;
}

export function names(schema: string, vectorSchema: string, trgmSchema: string): Names {
  const s = ident(schema);
  return {
    schema,
    t: (table) => `${s}.${table}`,
    vector: `${ident(vectorSchema)}.vector`,
    cosine: `OPERATOR(${ident(vectorSchema)}.<=>)`,
    vectorOps: `${ident(vectorSchema)}.vector_cosine_ops`,
    trgmOps: `${ident(trgmSchema)}.gin_trgm_ops`,
  };
}

/** Timestamps are `timestamptz`; the ports speak ISO-8601 strings. */
export function iso(value: unknown): string {
  return value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString();
}

export function isoOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : iso(value);
}

/** jsonb arrives parsed, unless a user-supplied pool overrides pg's type parsers. */
export function json<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}
