import type { Row, Sql, SqlDriver } from '@panya/core/rows';
import type { Db, Runner, Statements } from './database.js';
import { SQLITE } from './rows.js';

let savepoints = 0;

/** SQLite binds no booleans: the kit's flags travel as 0/1 like the codec's. */
const bindable = (v: unknown) => (typeof v === 'boolean' ? (v ? 1 : 0) : v);

/**
 * The storage kit's driver on SQLite: statements run through the store's runner (which waits
 * out other connections' locks and this connection's open transaction) from its statement cache.
 */
export class SqliteDriver implements SqlDriver {
  readonly dialect = SQLITE;

  constructor(
    private readonly db: Db,
    private readonly statements: Statements,
    private readonly run: Runner,
    /** All-or-none at the root: the store's transaction, handing `fn` the transaction's driver. */
    private readonly begin: (<T>(fn: (driver: SqlDriver) => Promise<T>) => Promise<T>) | null,
  ) {}

  name(table: string): string {
    return table;
  }

  query(statement: Sql): Promise<{ rows: Row[]; rowCount: number }> {
    const { text, values } = statement.render(this);
    const params = values.map(bindable);
    return this.run(() => {
      const stmt = this.statements.get(text);
      if (stmt.reader) {
        const rows = stmt.all(...params) as Row[];
        return { rows, rowCount: rows.length };
      }
      return { rows: [], rowCount: stmt.run(...params).changes };
    });
  }

  async atomic<T>(fn: (driver: SqlDriver) => Promise<T>): Promise<T> {
    if (this.begin) return this.begin(fn);
    // Inside the store's transaction (which holds the connection): a savepoint.
    const name = `panya_kit_${++savepoints}`;
    this.db.exec(`SAVEPOINT ${name}`);
    try {
      const result = await fn(this);
      this.db.exec(`RELEASE ${name}`);
      return result;
    } catch (error) {
      this.db.exec(`ROLLBACK TO ${name}`);
      this.db.exec(`RELEASE ${name}`);
      throw error;
    }
  }
}
