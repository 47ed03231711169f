import { describe, expect, it } from 'vitest';
import { BILLABLE_CONVERSATION, rowCodec, tables, type Dialect } from '@panya/core/rows';

const sqlite: Dialect = {
  name: 'sqlite',
  param: () => '?',
  read: { bool: (v) => v === 1, json: (v) => JSON.parse(v as string), time: (v) => v as string },
  write: { bool: (v) => (v ? 1 : 0), json: (v) => JSON.stringify(v) },
};
const postgres: Dialect = {
  name: 'postgres',
  param: (n) => `$${n}`,
  read: { bool: (v) => v === true, json: (v) => v, time: (v) => (v as Date).toISOString() },
  write: { bool: (v) => v, json: (v) => JSON.stringify(v) },
};

const conversation = {
  id: 'cnv_1',
  tenantId: 'ten_1',
  workspaceId: 'ws_1',
  locale: 'th' as const,
  hasGroundedAnswer: true,
  hasThumbsDown: false,
  handedOff: false,
  createdAt: '2030-01-01T00:00:00.000Z',
  lastMessageAt: '2030-01-01T00:01:00.000Z',
};

describe('row codec', () => {
  it('derives the insert list from the fields a record has, in each dialect', () => {
    const lite = rowCodec(tables.CONVERSATIONS, sqlite).insert(conversation);
    expect(lite.sql).toBe(
      'INSERT INTO conversations (id, tenant_id, workspace_id, locale, has_grounded_answer, has_thumbs_down, handed_off, created_at, last_message_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    expect(lite.values).toEqual(['cnv_1', 'ten_1', 'ws_1', 'th', 1, 0, 0, conversation.createdAt, conversation.lastMessageAt]);
    const pg = rowCodec(tables.CONVERSATIONS, postgres, '"s".conversations').insert(conversation);
    expect(pg.sql).toMatch(/^INSERT INTO "s".conversations \(id, .*\) VALUES \(\$1, \$2, .*\$9\)$/);
    expect(pg.values.slice(4, 7)).toEqual([true, false, false]);
  });

  it('reads a row back, NULLs as null (or the column default), a NULL group as a null object', () => {
    const codec = rowCodec(tables.CONVERSATIONS, sqlite);
    const row = { id: 'cnv_1', tenant_id: 'ten_1', workspace_id: 'ws_1', locale: 'en', has_grounded_answer: 1, has_thumbs_down: 0, handed_off: 0, created_at: 'a', last_message_at: 'b', has_ungrounded_answer: 0, visitor_id: null, csat_score: null, csat_comment: null, csat_at: null, tags: '["x"]' };
    expect(codec.decode(row)).toEqual({ ...conversation, locale: 'en', createdAt: 'a', lastMessageAt: 'b', hasUngroundedAnswer: false, visitorId: null, csat: null, tags: ['x'], startedBy: 'private' });
    expect(codec.decode({ ...row, started_by: 'public' }).startedBy).toBe('public');
    expect(codec.decode({ ...row, csat_score: 4, csat_at: 'c' }).csat).toEqual({ score: 4, comment: null, at: 'c' });
    expect(rowCodec(tables.API_KEYS, sqlite).decode({ kind: null, scopes: '[]' }).kind).toBe('secret');
  });

  it('names a column per store where the schemas differ', () => {
    expect(rowCodec(tables.TENANTS, sqlite).column('quotas')).toBe('quotas_json');
    expect(rowCodec(tables.TENANTS, postgres).column('quotas')).toBe('quotas');
  });

  it('renders core\'s flag rules (what is billable) in each dialect, and nothing but boolean flags', () => {
    expect(rowCodec(tables.CONVERSATIONS, sqlite).where(BILLABLE_CONVERSATION, 'c')).toBe('c.has_grounded_answer = 1 AND c.has_thumbs_down = 0 AND c.handed_off = 0');
    expect(rowCodec(tables.CONVERSATIONS, postgres).where(BILLABLE_CONVERSATION)).toBe('has_grounded_answer = true AND has_thumbs_down = false AND handed_off = false');
    expect(() => rowCodec(tables.CONVERSATIONS, sqlite).where({ locale: true } as never)).toThrow(/boolean flags only/);
    expect(() => rowCodec(tables.CONVERSATIONS, sqlite).where({ handedOff: "1 OR 1=1" } as never)).toThrow(/boolean flags only/);
  });

  it('patches only the fields given, numbering parameters after the caller’s', () => {
    const codec = rowCodec(tables.DOCUMENTS, postgres);
    expect(codec.patch({ title: 'T', url: null, metadata: { a: 1 }, updatedAt: 'now' }, 4)).toEqual({
      sets: ['title = $4', 'url = $5', 'metadata = $6', 'updated_at = $7'],
      values: ['T', null, '{"a":1}', 'now'],
    });
    expect(rowCodec(tables.CONVERSATIONS, sqlite).patch({ csat: null }).sets).toEqual(['csat_score = ?', 'csat_comment = ?', 'csat_at = ?']);
  });

  it('writes upserts and ignored conflicts', () => {
    const codec = rowCodec(tables.TENANT_TOMBSTONES, sqlite);
    const t = { slug: 'acme', tenantId: 'ten_1', hostnames: ['a.example'], erasedAt: 'x', purgedAt: null };
    expect(codec.insert(t, { on: ['slug'], update: true }).sql).toMatch(/ON CONFLICT \(slug\) DO UPDATE SET tenant_id = excluded.tenant_id, hostnames = excluded.hostnames, erased_at = excluded.erased_at, purged_at = excluded.purged_at$/);
    expect(codec.insert(t, 'ignore').sql).toMatch(/ON CONFLICT DO NOTHING$/);
  });
});
