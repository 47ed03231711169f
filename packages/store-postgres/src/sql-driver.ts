import type { Row, Sql, SqlDriver } from '@panya/core/rows';
import type { Conn, Names } from './database.js';
import { POSTGRES } from './rows.js';

/** The storage kit's driver on Postgres: a connection (the pool, or one inside a transaction) and the schema's names. */
export class PgDriver implements SqlDriver {
  readonly dialect = POSTGRES;

  constructor(
    private readonly conn: Conn,
    private readonly names: Names,
  ) {}

  name(table: string): string {
    return this.names.t(table);
  }

  async query(statement: Sql): Promise<{ rows: Row[]; rowCount: number }> {
    const { text, values } = statement.render(this);
    const result = await this.conn.query(text, values);
    return { rows: result.rows, rowCount: result.rowCount ?? 0 };
  }

  atomic<T>(fn: (driver: SqlDriver) => Promise<T>): Promise<T> {
    return this.conn.atomic((conn) => fn(new PgDriver(conn, this.names)));
  }
}
