/**
 * SQL written once for every store: a tagged template whose interpolated values become
 * parameters, rendered for a dialect only when it runs. Aggregates of the storage kit write
 * `sql\`SELECT * FROM ${rows.ref} WHERE tenant_id = ${tenantId}\`` and never see `?` or `$n`.
 */
import type { Dialect, DialectName } from './codec.js';

/** What a fragment needs from the store that runs it. */
export interface RenderContext {
  dialect: Dialect;
  /** A table's name as this store's SQL names it (schema-qualified on Postgres). */
  name(table: string): string;
}

type Part = { text: string } | { param: unknown } | { table: string } | { list: readonly unknown[] } | { column: string; has: unknown } | { column: string; hasAny: readonly string[] } | { perDialect: Record<DialectName, string> } | { textRows: readonly string[]; alias: string };

/** A statement or part of one: text, parameters, table references and list tests, in order. */
export class Sql {
  /** @internal */
  constructor(readonly parts: readonly Part[]) {}

  /** The text with the dialect's placeholders, and the parameters in order. */
  render(ctx: RenderContext): { text: string; values: unknown[] } {
    let text = '';
    const values: unknown[] = [];
    for (const part of this.parts) {
      if ('text' in part) text += part.text;
      else if ('perDialect' in part) text += part.perDialect[ctx.dialect.name];
      else if ('table' in part) text += ctx.name(part.table);
      else if ('textRows' in part) {
        const pg = ctx.dialect.name === 'postgres';
        values.push(pg ? part.textRows : JSON.stringify(part.textRows));
        const p = ctx.dialect.param(values.length);
        text += pg ? `unnest(${p}::text[]) AS ${part.alias}(value)` : `json_each(${p}) AS ${part.alias}`;
      }
      else if ('param' in part) {
        values.push(part.param);
        text += ctx.dialect.param(values.length);
      } else if ('hasAny' in part) {
        if (ctx.dialect.name === 'postgres') {
          values.push(part.hasAny);
          text += `${part.column} ?| ${ctx.dialect.param(values.length)}::text[]`;
        } else {
          values.push(JSON.stringify(part.hasAny));
          text += `EXISTS (SELECT 1 FROM json_each(${part.column}) a WHERE a.value IN (SELECT value FROM json_each(${ctx.dialect.param(values.length)})))`;
        }
      } else if ('has' in part) {
        if (ctx.dialect.name === 'postgres') {
          values.push(JSON.stringify([part.has]));
          text += `${part.column} @> ${ctx.dialect.param(values.length)}::jsonb`;
        } else {
          values.push(part.has);
          text += `EXISTS (SELECT 1 FROM json_each(${part.column}) WHERE value = ${ctx.dialect.param(values.length)})`;
        }
      } else if (ctx.dialect.name === 'postgres') {
        // One array parameter, whatever the list's length: one prepared shape per statement.
        values.push(part.list);
        text += `= ANY(${ctx.dialect.param(values.length)})`;
      } else {
        values.push(JSON.stringify(part.list));
        text += `IN (SELECT value FROM json_each(${ctx.dialect.param(values.length)}))`;
      }
    }
    return { text, values };
  }
}

function parts(value: unknown): readonly Part[] {
  return value instanceof Sql ? value.parts : [{ param: value }];
}

/** `sql\`… ${value} …\``: values become parameters; `Sql` fragments are spliced in as they are. */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): Sql {
  const out: Part[] = [];
  strings.forEach((s, i) => {
    if (s) out.push({ text: s });
    if (i < values.length) out.push(...parts(values[i]));
  });
  return new Sql(out);
}

/** Trusted text spliced as it is (column lists, ORDER BY clauses built from code, never input). */
sql.raw = (text: string): Sql => new Sql([{ text }]);

/** A table of the store, named as the store's SQL names it. */
sql.table = (name: string): Sql => new Sql([{ table: name }]);

/** `column ${sql.in(values)}`: whether the column's value is one of `values` (an empty list matches nothing). */
sql.in = (values: readonly unknown[]): Sql => new Sql([{ list: values }]);

/** Whether the JSON array in `column` holds `value` (a trusted column name, a parameter value). */
sql.jsonArrayHas = (column: string, value: unknown): Sql => new Sql([{ column, has: value }]);

/** Whether the JSON array of strings in `column` holds any of `values` (an empty list matches nothing). */
sql.jsonArrayHasAny = (column: string, values: readonly string[]): Sql => new Sql([{ column, hasAny: values }]);

/**
 * ` FOR UPDATE` where rows are locked one by one (Postgres); nothing on SQLite, whose writer
 * holds the whole database.
 */
sql.forUpdate = new Sql([{ perDialect: { postgres: ' FOR UPDATE', sqlite: '' } }]);

/** ` FOR UPDATE SKIP LOCKED` where rows lock one by one: concurrent runs take different rows (nothing on SQLite). */
sql.skipLocked = new Sql([{ perDialect: { postgres: ' FOR UPDATE SKIP LOCKED', sqlite: '' } }]);

/** ` COLLATE "C"` where text sorts by the database's locale (Postgres): byte order, as SQLite sorts. */
sql.byteOrder = new Sql([{ perDialect: { postgres: ' COLLATE "C"', sqlite: '' } }]);

/**
 * The domain part of the e-mail in `column` (a trusted column name), written as each store's
 * expression index on it is: a query must say it the same way for the index to serve it.
 */
sql.emailDomain = (column: string): Sql =>
  new Sql([{ perDialect: { postgres: `split_part(${column}, '@', 2)`, sqlite: `substr(${column}, instr(${column}, '@') + 1)` } }]);

/** Whether the text in `column` (a trusted column name) starts with `prefix`, counted in characters as both dialects count them. */
sql.startsWith = (column: string, prefix: string): Sql => sql`substr(${sql.raw(column)}, 1, ${[...prefix].length}) = ${prefix}`;

const perDialect = (postgres: string, sqlite: string): Sql => new Sql([{ perDialect: { postgres, sqlite } }]);
/** The physical id of a row (a table without one of its own key columns still has it). */
const rowId = perDialect('ctid', 'rowid');

/**
 * `<row id> IN (SELECT <row id> FROM table WHERE … LIMIT n)`: at most `limit` of the rows that
 * `where` matches — DELETE and UPDATE take no LIMIT on either dialect. On Postgres the ids go
 * through an array so the outer statement reads them by id (a TID scan).
 */
sql.firstRows = (table: string, where: Sql, limit: number): Sql =>
  sql`${rowId}${perDialect(' = ANY (ARRAY(', ' IN (')}SELECT ${rowId} FROM ${sql.table(table)} WHERE ${where} LIMIT ${limit}${perDialect('))', ')')}`;

/** A list of texts as a one-column table `alias(value)`, one parameter whatever its length. */
sql.textRows = (values: readonly string[], alias: string): Sql => new Sql([{ textRows: values, alias }]);

/** Whether the text `haystack` holds `needle` anywhere (both trusted expressions). */
sql.contains = (haystack: Sql, needle: Sql): Sql => sql`${perDialect('strpos(', 'instr(')}${haystack}, ${needle}) > 0`;

/** Fragments joined with a separator (`AND`, `, `). */
sql.join = (fragments: readonly Sql[], separator: string): Sql => new Sql(fragments.flatMap((f, i) => (i === 0 ? f.parts : [{ text: separator }, ...f.parts])));

/** An empty fragment, for optional clauses. */
sql.empty = new Sql([]);
