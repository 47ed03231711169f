/**
 * Every table spec against the store's real tables after migration: a spec column the table
 * lacks, a table column the spec does not list, or a record field no column keeps fails here.
 */
import { describe, expect, it } from 'vitest';
import type { TableSpec } from '../rows/codec.js';
import type { SqlDriver } from '../rows/driver.js';
import { sql } from '../rows/sql.js';
import { SqlTable } from '../rows/table.js';
import * as tables from '../rows/tables.js';
import type { Store } from '../ports/store.js';
import { seedTwoTenants } from './fixtures.js';
import { fullRecords } from './full-records.js';

/** Where the store keeps the kit's tables: the request counters may sit on a driver of their own. */
export interface KitDrivers {
  kit: SqlDriver;
  counters?: SqlDriver | undefined;
}

const COUNTER_TABLES = new Set([tables.RATE_COUNTERS.table, tables.API_QUERY_EVENTS.table]);

/** Every spec of the kit, by table. */
export const KIT_SPECS: readonly TableSpec<unknown>[] = Object.values(tables).filter(
  (v): v is TableSpec<unknown> => typeof v === 'object' && v !== null && 'table' in v && 'columns' in v,
);

function driverFor(drivers: KitDrivers, table: string): SqlDriver {
  return COUNTER_TABLES.has(table) ? (drivers.counters ?? drivers.kit) : drivers.kit;
}

/** The real table's column names, from the store's catalog. */
export async function tableColumns(driver: SqlDriver, table: string): Promise<string[]> {
  const statement =
    driver.dialect.name === 'postgres'
      ? sql`SELECT attname AS name FROM pg_attribute WHERE attrelid = to_regclass(${driver.name(table)}) AND attnum > 0 AND NOT attisdropped`
      : sql`SELECT name FROM pragma_table_info(${table})`;
  const { rows } = await driver.query(statement);
  return rows.map((r) => r.name as string).sort();
}

export function columnsSuite(getStore: () => Store, getDrivers: () => KitDrivers | undefined): void {
  describe('table specs and the real tables', () => {
    it('maps every column of every kit table, and every spec column exists', async () => {
      const drivers = getDrivers();
      if (!drivers) return;
      const mismatches: Record<string, { missingInTable: string[]; notInSpec: string[] }> = {};
      for (const spec of KIT_SPECS) {
        const driver = driverFor(drivers, spec.table);
        const real = await tableColumns(driver, spec.table);
        expect(real.length, `table ${spec.table} exists`).toBeGreaterThan(0);
        // `internal` columns are the store's own (a lease, a revision): listed, but no record field maps them.
        const mapped = new Set([...spec.columns, ...(spec.internal ?? [])].map((c) => c.named?.[driver.dialect.name] ?? c.column));
        const missingInTable = [...mapped].filter((c) => !real.includes(c)).sort();
        const notInSpec = real.filter((c) => !mapped.has(c));
        if (missingInTable.length || notInSpec.length) mismatches[spec.table] = { missingInTable, notInSpec };
      }
      expect(mismatches).toEqual({});
    });

    it('round-trips a fully populated record of every mapped type through its real table', async () => {
      const drivers = getDrivers();
      if (!drivers) return;
      const s = await seedTwoTenants(getStore());
      const samples = fullRecords({ tenantId: s.a.id, workspaceId: s.aDefault.id });
      // A new spec needs its full record below, or this test could not see its missing fields.
      expect(samples.map((r) => r.spec.table).sort()).toEqual(KIT_SPECS.map((spec) => spec.table).sort());
      for (const { spec, records, read } of samples) {
        const rows = new SqlTable(driverFor(drivers, spec.table), spec as TableSpec<Record<string, unknown>>);
        for (const record of records) {
          await rows.insert(record);
          expect(await rows.one(read(rows.ref, record)), `${spec.table} keeps every field`).toEqual(record);
        }
      }
    });
  });
}
