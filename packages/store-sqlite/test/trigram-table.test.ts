import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, type ChunkInput, type Scope } from '@panya/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chunkText, chunkTitle } from '../src/chunk-text.js';
import { openSqliteStore, type SqliteStore } from '../src/index.js';

/** The trigram table is optional (`trigramIndex: false`): dropped at open, rebuilt from the chunks when turned back on. */
const chunk = (documentId: string, text: string): ChunkInput => ({
  id: `${documentId}_0`,
  documentId,
  ordinal: 0,
  title: documentId,
  headingPath: [],
  text,
  lexicalTitle: documentId,
  lexicalBody: text.toLowerCase(),
  vector: new Float32Array([1, 0, 0, 0]),
});

const tableExists = (store: SqliteStore) => store.db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'chunks_trigram'").get() !== undefined;
const found = async (store: SqliteStore, scope: Scope, fragment: string) => (await store.search.trigram(scope, [fragment], 10)).map((h) => h.chunkId).sort();

describe('optional trigram table (SQLite)', () => {
  let dir: string;
  let path: string;
  let scope: Scope;
  const open: SqliteStore[] = [];
  const openStore = (trigramIndex?: boolean) => {
    const store = openSqliteStore({ path, vectorIndex: { mode: 'exact' }, ...(trigramIndex === undefined ? {} : { trigramIndex }) });
    open.push(store);
    return store;
  };

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'panya-trigram-'));
    path = join(dir, 'panya.db');
    const store = openStore();
    const created = (await createEngine({ store }).tenancy.createTenant({ slug: 'acme', plan: 'business' }))._unsafeUnwrap();
    scope = { tenantId: created.tenant.id, workspaceId: created.defaultWorkspace.id };
    await store.search.setIndexInfo({ embedderId: 'test', dimension: 4 });
    await store.search.replaceDocumentChunks(scope, 'doc_a', [chunk('doc_a', 'Order SKU-4471 ships in two days')]);
  });

  afterEach(async () => {
    for (const store of open.splice(0)) await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps no positions (a fifth of the size), still matches only whole fragments, ranks by occurrences, and rebuilds a table of the earlier form', async () => {
    const store = openStore();
    const definition = () => (store.db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'chunks_trigram'").get() as { sql: string }).sql;
    expect(definition()).toMatch(/detail = none/);
    await store.search.replaceDocumentChunks(scope, 'doc_b', [chunk('doc_b', 'SKU-4471 and SKU-4471 again; ships soon')]);
    await store.search.replaceDocumentChunks(scope, 'doc_c', [chunk('doc_c', 'Every trigram of it, not it: sku- u-44 -447 4471')]);
    // doc_c holds every trigram of "sku-4471" but not the fragment: confirmed in the text, it is no match.
    expect((await store.search.trigram(scope, ['SKU-4471'], 10)).map((h) => h.chunkId)).toEqual(['doc_b_0', 'doc_a_0']);
    // The earlier form (positions kept) is rebuilt at the next open.
    store.db.exec("DROP TABLE chunks_trigram; CREATE VIRTUAL TABLE chunks_trigram USING fts5(text, content = '', contentless_delete = 1, tokenize = 'trigram')");
    const reopened = openStore();
    expect((reopened.db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'chunks_trigram'").get() as { sql: string }).sql).toMatch(/detail = none/);
    expect(await found(reopened, scope, 'ships')).toEqual(['doc_a_0', 'doc_b_0']);
  });

  it('is on by default: fragments match substrings', async () => {
    const store = open[0]!;
    expect(store.search.capabilities.trigram).toBe(true);
    expect(await found(store, scope, 'ku-447')).toEqual(['doc_a_0']);
  });

  it('off: the table is dropped, the capability is off and the channel finds nothing, while writes and removals still work', async () => {
    await open[0]!.close();
    const store = openStore(false);
    expect(tableExists(store)).toBe(false);
    expect(store.search.capabilities.trigram).toBe(false);
    expect(await found(store, scope, 'ku-447')).toEqual([]);
    await store.search.replaceDocumentChunks(scope, 'doc_b', [chunk('doc_b', 'Refund of SKU-9902')]);
    await store.search.removeDocumentChunks(scope, 'doc_a');
    expect(await store.search.countChunks(scope)).toBe(1);
  });

  it('back on: the table is rebuilt from the chunks written while it was off, and removed ones stay gone', async () => {
    await open[0]!.close();
    const off = openStore(false);
    await off.search.replaceDocumentChunks(scope, 'doc_b', [chunk('doc_b', 'Refund of SKU-9902 Übergröße')]);
    await off.search.removeDocumentChunks(scope, 'doc_a');
    await off.close();
    const on = openStore(true);
    expect(tableExists(on)).toBe(true);
    expect(await found(on, scope, 'ku-990')).toEqual(['doc_b_0']);
    // Folded as the fallback's fragments are (Unicode lower case, not SQLite's ASCII-only lower()).
    expect(await found(on, scope, 'übergr')).toEqual(['doc_b_0']);
    expect(await found(on, scope, 'ku-447')).toEqual([]);
  });

  it('a process opened without it keeps the table another process uses complete', async () => {
    const on = open[0]!;
    // A second connection whose own setting is off, opened while the table exists: it drops it…
    const off = openStore(false);
    expect(tableExists(on)).toBe(false);
    expect(await found(on, scope, 'ku-447')).toEqual([]);
    // …and a process turning it back on rebuilds it; the off process then writes into it too.
    const again = openStore(true);
    await off.search.replaceDocumentChunks(scope, 'doc_c', [chunk('doc_c', 'Invoice INV-3310 attached')]);
    expect(await found(again, scope, 'nv-331')).toEqual(['doc_c_0']);
    expect(await found(on, scope, 'nv-331')).toEqual(['doc_c_0']);
    await off.search.removeDocumentChunks(scope, 'doc_c');
    expect(await found(again, scope, 'nv-331')).toEqual([]);
  });
  it('a small workspace reads its own chunks and a large one asks the table: same matches, same scores', async () => {
    const store = open[0]!;
    const engine = createEngine({ store });
    const other = (await engine.tenancy.createTenant({ slug: 'bigco', plan: 'business' }))._unsafeUnwrap();
    const big: Scope = { tenantId: other.tenant.id, workspaceId: other.defaultWorkspace.id };
    const texts = ['Order SKU-4471 ships in two days', 'SKU-4471 and SKU-4471 again; ships soon', 'Where is sku-4471? It ships from the north warehouse today'];
    for (const [i, text] of texts.entries()) await store.search.replaceDocumentChunks(big, `big_m${i}`, [chunk(`big_m${i}`, text)]);
    // More chunks than a workspace scans: the large workspace's matches come from the trigram table.
    const filler = Array.from({ length: 1_001 }, (_, i) => ({ ...chunk('doc_fill', `Filler line ${i} about returns`), id: `doc_fill_${i}`, ordinal: i }));
    await store.search.replaceDocumentChunks(big, 'doc_fill', filler);
    for (const [i, text] of texts.entries()) await store.search.replaceDocumentChunks(scope, `doc_m${i}`, [chunk(`doc_m${i}`, text)]);
    await store.search.removeDocumentChunks(scope, 'doc_a');
    const ranked = async (s: Scope) => (await store.search.trigram(s, ['SKU-4471'], 10)).map((h) => [h.chunkId.replace(/^(big|doc)_/, ''), h.score.toFixed(9)]);
    expect(await ranked(big)).toEqual(await ranked(scope));
    expect((await ranked(big)).map(([id]) => id)).toEqual(['m1_0', 'm0_0', 'm2_0']);
    // Which path answered: a chunk missing from the table is found only by the small workspace's own read.
    const rowid = (id: string) => (store.db.prepare('SELECT rowid FROM chunks WHERE id = ?').get(id) as { rowid: number }).rowid;
    store.db.prepare('DELETE FROM chunks_trigram WHERE rowid = ?').run(rowid('big_m2_0'));
    store.db.prepare('DELETE FROM chunks_trigram WHERE rowid = ?').run(rowid('doc_m2_0'));
    expect((await ranked(big)).map(([id]) => id)).toEqual(['m1_0', 'm0_0']);
    expect((await ranked(scope)).map(([id]) => id)).toEqual(['m1_0', 'm0_0', 'm2_0']);
  });
  it('counts fragments in a small workspace with exactly the scores the table path computes in SQL', async () => {
    const store = open[0]!;
    const engine = createEngine({ store });
    const other = (await engine.tenancy.createTenant({ slug: 'bigco', plan: 'business' }))._unsafeUnwrap();
    const big: Scope = { tenantId: other.tenant.id, workspaceId: other.defaultWorkspace.id };
    // Case variants, repeats that overlap, characters outside the BMP (their length counts once) and Thai.
    const words = ['Refund', 'REFUND', 'refunds', 'aaaa', 'aa', '🙂🙂', 'คืนเงิน', 'ÉTÉ', 'été', 'SKU-4471', 'ship', 'shipping', 'x'];
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const texts = Array.from({ length: 40 }, () => Array.from({ length: 5 + Math.floor(next() * 40) }, () => words[Math.floor(next() * words.length)]).join(next() < 0.5 ? ' ' : ''));
    const filler = Array.from({ length: 1_001 }, (_, i) => ({ ...chunk('doc_fill', `Filler line ${i} about returns`), id: `doc_fill_${i}`, ordinal: i }));
    await store.search.replaceDocumentChunks(big, 'doc_fill', filler);
    await store.search.removeDocumentChunks(scope, 'doc_a');
    for (const [i, text] of texts.entries()) {
      await store.search.replaceDocumentChunks(big, `big_t${i}`, [chunk(`big_t${i}`, text)]);
      await store.search.replaceDocumentChunks(scope, `doc_t${i}`, [chunk(`doc_t${i}`, text)]);
    }
    const ranked = async (s: Scope, fragments: string[]) => (await store.search.trigram(s, fragments, 50)).map((h) => [h.chunkId.replace(/^(big|doc)_/, '').replace(/_0$/, ''), h.score]);
    for (const fragments of [['refund'], ['aaa', 'aa🙂'], ['🙂🙂', 'été', 'คืนเงิน'], ['sku-4471', 'shipping', 'refunds', 'xxx'], ['unmatched']]) {
      const small = await ranked(scope, fragments);
      expect(small).toEqual(await ranked(big, fragments));
      if (fragments[0] !== 'unmatched') expect(small.length).toBeGreaterThan(3);
    }
  });

  it('holds a workspace\'s chunks only once a search would not scan it, then all of them; legacy chunks always', async () => {
    const store = open[0]!;
    const engine = createEngine({ store });
    const held = (id: string) => store.db.prepare('SELECT 1 FROM chunks_trigram WHERE rowid = (SELECT rowid FROM chunks WHERE id = ?)').get(id) !== undefined;
    const rowsOf = (s: Scope) => (store.db.prepare('SELECT count(*) AS n FROM chunks_trigram t JOIN chunks c ON c.rowid = t.rowid WHERE c.tenant_id = ? AND c.workspace_id = ?').get(s.tenantId, s.workspaceId) as { n: number }).n;
    const fill = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => ({ ...chunk(prefix, `Filler line ${i} about returns`), id: `${prefix}_${i}`, ordinal: i }));
    const newScope = async (slug: string): Promise<Scope> => {
      const t = (await engine.tenancy.createTenant({ slug, plan: 'business' }))._unsafeUnwrap();
      return { tenantId: t.tenant.id, workspaceId: t.defaultWorkspace.id };
    };
    // A small workspace is scanned: none of its chunks are in the table, and its fragments are still found.
    expect(held('doc_a_0')).toBe(false);
    expect(await found(store, scope, 'ku-447')).toEqual(['doc_a_0']);

    // At exactly a scan's size it stays out; one chunk more and all of its chunks are in.
    const big = await newScope('bigco');
    await store.search.replaceDocumentChunks(big, 'big_fill', fill('big_fill', 1_000));
    expect(rowsOf(big)).toBe(0);
    await store.search.replaceDocumentChunks(big, 'big_code', [chunk('big_code', 'Ticket ZX-81 reopened')]);
    expect(rowsOf(big)).toBe(1_001);
    expect(await found(store, big, 'zx-81')).toEqual(['big_code_0']);
    // Once in, it stays in as it shrinks (all or none): later chunks join the table.
    await store.search.removeDocumentChunks(big, 'big_fill');
    await store.search.replaceDocumentChunks(big, 'big_more', [chunk('big_more', 'Ticket ZX-82')]);
    expect(rowsOf(big)).toBe(2);
    expect(await found(store, big, 'zx-8')).toEqual(['big_code_0', 'big_more_0']);

    // Legacy chunks are always in the table and count in each workspace of their tenant.
    const mixed = await newScope('mixed');
    await store.search.replaceDocumentChunks(mixed, 'mix_fill', fill('mix_fill', 995));
    for (let i = 0; i < 6; i++) await store.search.insertLegacyChunk(mixed.tenantId, `legacy_${i}`, chunk(`legacy_${i}`, `Legacy note QW-${i}`));
    expect(held('legacy_0_0')).toBe(true);
    expect(rowsOf(mixed)).toBe(995);
    expect(await found(store, mixed, 'qw-5')).toEqual(['legacy_5_0']);
    expect(await found(store, mixed, 'line 994 ')).toEqual(['mix_fill_994']);
    // A legacy chunk adopted by a workspace the table does not hold leaves it.
    const small = await newScope('small');
    await store.search.insertLegacyChunk(small.tenantId, 'legacy_s', chunk('legacy_s', 'Old note PL-77'));
    await store.search.replaceDocumentChunks(small, 'small_a', [chunk('small_a', 'New note PL-78')]);
    await store.search.adoptLegacyChunk('legacy_s_0', small.workspaceId, { lexicalTitle: 'legacy_s', lexicalBody: 'old note pl-77', vector: new Float32Array([1, 0, 0, 0]) });
    expect(held('legacy_s_0')).toBe(false);
    expect(await found(store, small, 'pl-7')).toEqual(['legacy_s_0', 'small_a_0']);

    // A table of the earlier form (every chunk in it) is rebuilt at the next open under the same rule.
    store.db.exec('DELETE FROM chunks_trigram');
    store.db.exec(`INSERT INTO chunks_trigram (rowid, text) SELECT c.rowid, ${chunkTitle('c')} || char(10) || ${chunkText('c')} FROM chunks c`);
    expect(held('doc_a_0')).toBe(true);
    store.db.pragma('user_version = 26');
    await store.close();
    open.splice(0);
    const reopened = openStore();
    const heldNow = (id: string) => reopened.db.prepare('SELECT 1 FROM chunks_trigram WHERE rowid = (SELECT rowid FROM chunks WHERE id = ?)').get(id) !== undefined;
    expect(['doc_a_0', 'small_a_0', 'legacy_s_0', 'big_code_0', 'mix_fill_0', 'legacy_3_0'].map(heldNow)).toEqual([false, false, false, false, true, true]);
    expect(await found(reopened, mixed, 'line 994 ')).toEqual(['mix_fill_994']);
    expect(await found(reopened, big, 'zx-8')).toEqual(['big_code_0', 'big_more_0']);
  });
});
