/** The storage kit on a real store: statements written once behave alike on every dialect. */
import { describe, expect, it } from 'vitest';
import { tableSpec } from '../rows/codec.js';
import { createTable } from '../rows/ddl.js';
import type { SqlDriver } from '../rows/driver.js';
import { sql } from '../rows/sql.js';
import { SqlTable } from '../rows/table.js';
import { BILLABLE_INDEX, LEGACY_BILLABLE_INDEX } from '../rows/billable-index.js';
import { CONVERSATIONS } from '../rows/tables.js';
import { BILLABLE_CONVERSATION } from '../billing/resolutions.js';

interface Note {
  id: string;
  tenantId: string;
  workspaceId: string;
  title: string;
  pinned: boolean;
  tags: string[];
  score: number | null;
  hits: number;
  seenAt: string | null;
}

let tables = 0;

function need(kit: SqlDriver | undefined): SqlDriver {
  if (!kit) throw new Error('a SQL store passes its storage-kit driver as `kit` to the conformance suite');
  return kit;
}

export function kitSuite(getKit: () => SqlDriver | undefined): void {
  describe('storage kit', () => {
    // A fresh table per test: the spec's DDL is generated for the store's dialect.
    async function notes(kit: SqlDriver) {
      const spec = tableSpec<Note>(`kit_notes_${++tables}`, [
        { field: 'id', column: 'id', kind: 'text' },
        { field: 'tenantId', column: 'tenant_id', kind: 'text' },
        { field: 'workspaceId', column: 'workspace_id', kind: 'text' },
        { field: 'title', column: 'title', kind: 'text' },
        { field: 'pinned', column: 'pinned', kind: 'bool', default: 'false' },
        { field: 'tags', column: 'tags', kind: 'json' },
        { field: 'score', column: 'score', kind: 'number', type: 'real', nullable: true },
        { field: 'hits', column: 'hits', kind: 'number', default: '0' },
        { field: 'seenAt', column: 'seen_at', kind: 'time', nullable: true },
      ]);
      for (const statement of createTable(spec, { primaryKey: ['tenantId', 'workspaceId', 'id'], indexes: [{ name: `${spec.table}_title`, fields: ['title'] }] })(kit)) {
        await kit.query(sql.raw(statement));
      }
      return new SqlTable(kit, spec);
    }
    const scope = { tenantId: 'ten_1', workspaceId: 'ws_1' };
    const note = (id: string, extra: Partial<Note> = {}): Note => ({ id, ...scope, title: `note ${id}`, pinned: false, tags: [], score: null, hits: 0, seenAt: null, ...extra });

    it('round-trips every column kind through the generated table', async () => {
      const kit = need(getKit());
      const rows = await notes(kit);
      const a = note('a', { pinned: true, tags: ['x', 'ไทย'], score: 0.25, hits: 3, seenAt: '2030-01-02T03:04:05.000Z' });
      await rows.insert(a);
      expect(await rows.get(scope, 'a')).toEqual(a);
      expect(await rows.get({ ...scope, workspaceId: 'ws_2' }, 'a')).toBeNull();
    });

    it('lists newest id first with a cursor and filters, patches and deletes within the workspace', async () => {
      const kit = need(getKit());
      const rows = await notes(kit);
      await rows.insertMany(['a', 'b', 'c'].map((id) => note(id, { pinned: id !== 'b' })));
      await rows.insert({ ...note('d'), workspaceId: 'ws_2' });
      const first = await rows.list(scope, { limit: 2 });
      expect(first.items.map((n) => n.id)).toEqual(['c', 'b']);
      expect((await rows.list(scope, { limit: 2, after: first.nextCursor! })).items.map((n) => n.id)).toEqual(['a']);
      expect((await rows.list(scope, { limit: 10 }, { pinned: true })).items.map((n) => n.id)).toEqual(['c', 'a']);
      expect(await rows.patch(scope, 'b', { title: 'renamed', hits: 7 })).toMatchObject({ id: 'b', title: 'renamed', hits: 7 });
      expect(await rows.patch({ ...scope, workspaceId: 'ws_2' }, 'b', { title: 'x' })).toBeNull();
      expect(await rows.delete(scope, 'a')).toBe(true);
      expect(await rows.delete(scope, 'a')).toBe(false);
    });

    it('renders list tests, JSON array membership, counts and upserts in the dialect', async () => {
      const kit = need(getKit());
      const rows = await notes(kit);
      await rows.insertMany([note('a', { tags: ['billing'] }), note('b', { tags: ['setup', 'billing'] }), note('c', { tags: ['setup'] })]);
      expect((await rows.all(sql`SELECT * FROM ${rows.ref} WHERE id ${sql.in(['a', 'c', 'zz'])} ORDER BY id`)).map((n) => n.id)).toEqual(['a', 'c']);
      expect(await rows.all(sql`SELECT * FROM ${rows.ref} WHERE id ${sql.in([])}`)).toEqual([]);
      expect((await rows.all(sql`SELECT * FROM ${rows.ref} WHERE ${sql.jsonArrayHas('tags', 'billing')} ORDER BY id`)).map((n) => n.id)).toEqual(['a', 'b']);
      expect(await rows.count(sql`SELECT COUNT(*) AS n FROM ${rows.ref} WHERE pinned = ${rows.value('pinned', false)}`)).toBe(3);
      await rows.insert(note('a', { title: 'replaced' }), { on: ['tenantId', 'workspaceId', 'id'], update: true });
      expect(await rows.insert(note('b', { title: 'ignored' }), 'ignore')).toBe(0);
      expect((await rows.all(sql`SELECT * FROM ${rows.ref} ORDER BY id`)).map((n) => n.title)).toEqual(['replaced', 'note b', 'note c']);
    });

    it('keeps all or none of an atomic block, and an inner block rolls back alone', async () => {
      const kit = need(getKit());
      const rows = await notes(kit);
      const failed = await kit
        .atomic(async (tx) => {
          const inTx = new SqlTable(tx, rows.spec);
          await inTx.insert(note('a'));
          throw new Error('abort');
        })
        .catch((e: Error) => e.message);
      expect(failed).toBe('abort');
      expect(await rows.get(scope, 'a')).toBeNull();
      await kit.atomic(async (tx) => {
        const inTx = new SqlTable(tx, rows.spec);
        await inTx.insert(note('b'));
        await tx.atomic(async (inner) => {
          await new SqlTable(inner, rows.spec).insert(note('c'));
          throw new Error('inner');
        }).catch(() => undefined);
      });
      expect((await rows.all(sql`SELECT * FROM ${rows.ref} ORDER BY id`)).map((n) => n.id)).toEqual(['b']);
    });
  });
}

/** An index's definition as the store keeps it (sqlite_master, pg_indexes); null when there is none. */
async function indexDefinition(kit: SqlDriver, name: string): Promise<string | null> {
  const statement =
    kit.dialect.name === 'sqlite'
      ? sql`SELECT sql AS def FROM sqlite_master WHERE type = 'index' AND name = ${name}`
      : sql`SELECT indexdef AS def FROM pg_indexes WHERE indexname = ${name} AND to_regclass(quote_ident(schemaname) || '.' || quote_ident(indexname)) = to_regclass(${kit.name(name)})`;
  const { rows } = await kit.query(statement);
  return (rows[0]?.def as string | undefined) ?? null;
}

/** Every combination of the rule's flags, each with whether core's rule calls it billable. */
function flagCombinations(): { flags: Record<string, boolean>; billable: boolean }[] {
  const fields = Object.keys(BILLABLE_CONVERSATION) as (keyof typeof BILLABLE_CONVERSATION)[];
  return Array.from({ length: 2 ** fields.length }, (_, n) => {
    const flags = Object.fromEntries(fields.map((f, i) => [f, ((n >> i) & 1) === 1]));
    return { flags, billable: fields.every((f) => flags[f] === BILLABLE_CONVERSATION[f]) };
  });
}

export function billableIndexSuite(getKit: () => SqlDriver | undefined): void {
  describe('billable index', () => {
    it("is the store's index of core's billable predicate: named from it, and true of exactly the conversations the rule bills", async () => {
      const kit = need(getKit());
      expect(await indexDefinition(kit, LEGACY_BILLABLE_INDEX)).toBeNull();
      const def = await indexDefinition(kit, BILLABLE_INDEX.name);
      expect(def, `index ${BILLABLE_INDEX.name} (named from BILLABLE_CONVERSATION) is missing: a changed rule needs its kit step`).not.toBeNull();
      expect(def).toMatch(/\(\s*last_message_at\s*\)/);
      const where = def!.slice(def!.search(/\bWHERE\b/i) + 'WHERE'.length);
      const conversations = new SqlTable(kit, CONVERSATIONS);
      // The index's own WHERE clause, evaluated by the store over every combination of the rule's
      // flags, agrees with core's rule: a rule changed without its index fails here.
      for (const { flags, billable } of flagCombinations()) {
        const columns = sql.join(
          Object.entries(flags).map(([field, value]) => sql`CAST(${conversations.value(field as keyof typeof BILLABLE_CONVERSATION, value)} AS boolean) AS ${conversations.col(field as keyof typeof BILLABLE_CONVERSATION)}`),
          ', ',
        );
        const { rows } = await kit.query(sql`SELECT CASE WHEN ${sql.raw(where)} THEN 1 ELSE 0 END AS hit FROM (SELECT ${columns}) conversations`);
        expect({ flags, indexed: Number(rows[0]!.hit) === 1 }).toEqual({ flags, indexed: billable });
      }
    });
  });
}

