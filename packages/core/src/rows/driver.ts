import type { Row } from './codec.js';
import type { RenderContext, Sql } from './sql.js';

/**
 * What a SQL store gives the storage kit: its dialect, its table names, a way to run one
 * statement, and all-or-none blocks. Everything else an aggregate needs is written once over it.
 */
export interface SqlDriver extends RenderContext {
  /** Runs one statement; `rowCount` is the rows written (or returned, for a query). */
  query(statement: Sql): Promise<{ rows: Row[]; rowCount: number }>;
  /**
   * Runs `fn` all-or-none on a driver bound to the same transaction: the store's transaction
   * at the root, a savepoint inside one.
   */
  atomic<T>(fn: (driver: SqlDriver) => Promise<T>): Promise<T>;
}
