import type { SqlDriver } from '../driver.js';

/** The request counters' tables (rate-limit windows, query events) and the driver that holds them. */
export interface CounterTables {
  driver: SqlDriver;
  tables: ReadonlySet<string>;
}
