/** The storage kit on a real store: statements written once behave alike on every dialect. */
import { describe, expect, it } from 'vitest';
import { tableSpec } from '../rows/codec.js';
import { createTable } from '../rows/ddl.js';
import type { SqlDriver } from '../rows/driver.js';
import { sql } from '../rows/sql.js';
import { SqlTable } from '../rows/table.js';

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
