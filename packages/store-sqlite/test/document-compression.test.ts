import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, type DocumentRecord, type Scope } from '@panya/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore, type SqliteStore } from '../src/index.js';

/** Document sources of moderate length are stored deflated and read back exactly; short and long ones as text. */
describe('document sources on SQLite', () => {
  let dir: string;
  let store: SqliteStore;
  let scope: Scope;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'panya-sources-'));
    store = openSqliteStore({ path: join(dir, 'panya.db') });
    const created = (await createEngine({ store }).tenancy.createTenant({ slug: 'acme', plan: 'business' }))._unsafeUnwrap();
    scope = { tenantId: created.tenant.id, workspaceId: created.defaultWorkspace.id };
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const at = '2026-11-28T00:00:00.000Z';
  const doc = (id: string, contentMd: string): DocumentRecord => ({
    id, ...scope, title: id, contentMd, url: null, publicSurfaces: [], audiences: ['internal'], externalId: null, metadata: {}, status: 'pending', error: null, createdAt: at, updatedAt: at,
  });
  const stored = (id: string) => store.db.prepare('SELECT typeof(content_md) AS type, octet_length(content_md) AS bytes FROM documents WHERE id = ?').get(id) as { type: string; bytes: number };

  // An abstract's worth of prose in three scripts, characters outside the BMP included.
  const prose = Array.from({ length: 12 }, (_, i) => `## Returns ${i}\n\nItems can be returned within 30 days 🙂 คืนสินค้าได้ภายใน ${i + 30} วัน. Ü-Größe ${i}.`).join('\n\n');
  const long = `${prose}\n`.repeat(200);

  it('deflates a source of moderate length, keeps short and long ones as text, and reads every one back exactly', async () => {
    await store.documents.insert(doc('doc_short', 'Refunds take 5 days.'));
    await store.documents.insert(doc('doc_prose', prose));
    await store.documents.insert(doc('doc_long', long));
    expect(stored('doc_short').type).toBe('text');
    expect(stored('doc_prose').type).toBe('blob');
    expect(stored('doc_prose').bytes).toBeLessThan(Buffer.byteLength(prose) / 2);
    // Long sources count as themselves in an ingest round's byte budget.
    expect(stored('doc_long')).toEqual({ type: 'text', bytes: Buffer.byteLength(long) });
    expect((await store.documents.get(scope, 'doc_prose'))!.contentMd).toBe(prose);
    expect((await store.documents.getMany(scope, ['doc_short', 'doc_prose', 'doc_long'])).map((d) => d.contentMd).sort()).toEqual(['Refunds take 5 days.', long, prose].sort());
    const page = await store.documents.list(scope, { limit: 10 });
    expect(page.items.find((d) => d.id === 'doc_prose')!.contentMd).toBe(prose);
  });

  it('an edit is stored the same way, and a claim for indexing reads the source', async () => {
    await store.documents.insert(doc('doc_a', 'Short at first.'));
    expect(stored('doc_a').type).toBe('text');
    const edited = `${prose}\nEdited.`;
    expect((await store.documents.update(scope, 'doc_a', { contentMd: edited, updatedAt: at }))!.contentMd).toBe(edited);
    expect(stored('doc_a').type).toBe('blob');
    const [claimed] = await store.documents.claimForIndexing({ now: at, leaseUntil: '2026-11-28T00:00:30.000Z', limit: 1, holder: 'test/run/t0' });
    expect(claimed!.doc.contentMd).toBe(edited);
  });

  it('an indexed document keeps nothing of its lease: holder and expiry go with the indexing', async () => {
    const engine = createEngine({ store });
    const ctx = (await engine.access.system('acme'))._unsafeUnwrap();
    const created = (await engine.documents.create(ctx, { title: 'Returns', contentMd: prose }))._unsafeUnwrap();
    const lease = () => store.db.prepare('SELECT status, lease_until, lease_holder FROM documents WHERE id = ?').get(created.id);
    const [claimed] = await store.documents.claimForIndexing({ now: at, leaseUntil: '2026-11-28T00:00:30.000Z', limit: 1, holder: 'test/run/t0' });
    expect(claimed!.doc.id).toBe(created.id);
    expect(lease()).toEqual({ status: 'indexing', lease_until: '2026-11-28T00:00:30.000Z', lease_holder: 'test/run/t0' });
    expect(await store.documents.completeIndexing(scope, created.id, claimed!.revision, { status: 'indexed' }, at)).toBe(true);
    expect(lease()).toEqual({ status: 'indexed', lease_until: null, lease_holder: null });
  });
});
