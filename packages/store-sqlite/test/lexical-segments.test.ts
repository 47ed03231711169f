import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, LexicalIndex, LexicalSegment, lexicalFields, lexicalWork, type Scope } from '@panya/core';
import { searchTerms } from '../../core/src/text/query.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chunkText, chunkTitle } from '../src/chunk-text.js';
import { segmentBytes, storedSegment } from '../src/segment-blob.js';
import { openSqliteStore, type SqliteStore } from '../src/index.js';

const topics = ['refund', 'shipping', 'password', 'invoice', 'warranty', 'delivery', 'account', 'subscription'];
const QUERIES = ['refund policy', 'reset my password', 'shipping delivery times', 'invoice for the subscription', 'warranty claim', 'account deleted', 'refund shipping'];

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'panya-segments-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function ingested(path: string, documents: number) {
  const store = openSqliteStore({ path });
  const engine = createEngine({ store });
  await engine.start();
  (await engine.tenancy.createTenant({ slug: 'acme' }))._unsafeUnwrap();
  const ctx = (await engine.access.system('acme'))._unsafeUnwrap();
  for (let i = 0; i < documents; i++) {
    const a = topics[i % topics.length]!;
    const b = topics[(i * 3 + 1) % topics.length]!;
    const body = `## ${a} help\n\nHow ${a} works with ${b} for order ${i}. Contact support about ${a} ${b}.\n\n## ${b} details\n\nThe ${b} rules for case ${i}.`;
    (await engine.documents.create(ctx, { title: `${a} and ${b} ${i}`, contentMd: body }))._unsafeUnwrap();
  }
  await engine.ingest.drain();
  return { store, engine, ctx };
}

/** A chunk row's index terms, tokenized from its text as ingest does (rows keep no terms). */
function termsOf(r: { title: string; heading_path: string; text: string }) {
  const { lexicalTitle, lexicalBody } = lexicalFields(r.title, JSON.parse(r.heading_path) as string[], r.text);
  return { title: lexicalTitle, body: lexicalBody };
}

/** Rankings of one in-memory index built from the chunk rows' terms: what searches answered before segments. */
function fromRows(store: SqliteStore, scope: Scope) {
  const index = new LexicalIndex();
  const rows = store.db.prepare(`SELECT c.id, ${chunkTitle('c')} AS title, c.heading_path, ${chunkText('c')} AS text FROM chunks c WHERE c.tenant_id = ? AND (c.workspace_id = ? OR c.workspace_id IS NULL)`).all(scope.tenantId, scope.workspaceId) as {
    id: string;
    title: string;
    heading_path: string;
    text: string;
  }[];
  for (const r of rows) index.upsert({ id: r.id, ...termsOf(r) });
  return (q: string) => index.search(searchTerms(q), 10);
}

const segmentCount = (store: SqliteStore) => (store.db.prepare('SELECT COUNT(*) AS n FROM lexical_segments').get() as { n: number }).n;

describe('lexical segments on SQLite', () => {
  it('are written by ingest and merged there, and a cold search reads them without tokenizing or indexing a chunk', async () => {
    const path = join(dir, 'panya.db');
    const { store, engine, ctx } = await ingested(path, 45);
    // One segment per document written, merged by tier as ingest goes: far fewer than 45 remain.
    expect(segmentCount(store)).toBeGreaterThan(0);
    expect(segmentCount(store)).toBeLessThan(20);
    // Replace and delete documents: their old chunks are masked until a merge.
    const docs = (await engine.documents.list(ctx, { limit: 10 }))._unsafeUnwrap().items;
    (await engine.documents.update(ctx, docs[0]!.id, { contentMd: 'A refund rewritten: refunds within 60 days.' }))._unsafeUnwrap();
    (await engine.documents.delete(ctx, docs[1]!.id))._unsafeUnwrap();
    await engine.ingest.drain();
    await engine.close();

    // Another process (a new store on the same file) searches cold.
    const cold = openSqliteStore({ path });
    const expected = fromRows(cold, ctx.scope);
    const before = { ...lexicalWork };
    let hits = 0;
    for (const q of QUERIES) {
      const got = await cold.search.lexical(ctx.scope, { ...searchTerms(q), fragments: [] } as never, 10);
      expect(got).toEqual(expected(q));
      hits += got.length;
    }
    expect(hits).toBeGreaterThan(QUERIES.length);
    expect(lexicalWork).toEqual(before);
    await cold.close();
  });

  it('serve scopes whose chunks predate segments from rows until the backfill writes theirs', async () => {
    const path = join(dir, 'panya.db');
    const { engine, ctx } = await ingested(path, 12);
    await engine.close();
    const store = openSqliteStore({ path });
    const expected = fromRows(store, ctx.scope);
    // As the migration leaves a database written before segments.
    store.db.exec('DELETE FROM lexical_segments; DELETE FROM lexical_deletions; INSERT INTO lexical_pending SELECT DISTINCT tenant_id, workspace_id FROM chunks;');
    await store.close();

    const old = openSqliteStore({ path });
    const before = lexicalWork.chunksIndexed;
    expect(await old.search.lexical(ctx.scope, searchTerms('refund policy') as never, 10)).toEqual(expected('refund policy'));
    // The counter sees the request-path indexing this fallback does (and the segment path avoids).
    expect(lexicalWork.chunksIndexed).toBeGreaterThan(before);
    expect(await old.search.backfillSegments(10)).toBe(1);
    await old.close();

    const after = openSqliteStore({ path });
    const indexed = lexicalWork.chunksIndexed;
    for (const q of QUERIES) expect(await after.search.lexical(ctx.scope, searchTerms(q) as never, 10)).toEqual(expected(q));
    expect(lexicalWork.chunksIndexed).toBe(indexed);
    await after.close();
  });

  it('a merge drops masked chunks and the deletions no segment needs any more', async () => {
    const path = join(dir, 'panya.db');
    const { engine, ctx } = await ingested(path, 9);
    await engine.close();
    const store = openSqliteStore({ path });
    // Removed through the store alone (no ingest worker to merge after them).
    const documents = (store.db.prepare('SELECT DISTINCT document_id AS id FROM chunks ORDER BY id').all() as { id: string }[]).slice(0, 6);
    for (const d of documents) await store.search.removeDocumentChunks(ctx.scope, d.id);
    const deletions = () => (store.db.prepare('SELECT COUNT(*) AS n FROM lexical_deletions').get() as { n: number }).n;
    const expected = fromRows(store, ctx.scope);
    // Nine one-document segments (under the merge factor) hold six deleted documents' chunks: merges expunge them.
    expect(deletions()).toBeGreaterThan(0);
    while ((await store.search.mergeSegments(ctx.scope)) > 0);
    expect(deletions()).toBe(0);
    const live = (store.db.prepare('SELECT SUM(chunks) AS n FROM lexical_segments').get() as { n: number }).n;
    expect(live).toBe(await store.search.countChunks(ctx.scope));
    for (const q of QUERIES) expect(await store.search.lexical(ctx.scope, searchTerms(q) as never, 10)).toEqual(expected(q));
    await store.close();
  });

  it('carry documents\' audiences, changes of them included, so restricted readers rank from segments too', async () => {
    const path = join(dir, 'panya.db');
    const { store, engine, ctx } = await ingested(path, 30);
    const docs = (await engine.documents.list(ctx, { limit: 30 }))._unsafeUnwrap().items;
    const lists = [['public'], ['customers'], ['internal'], ['enterprise', 'customers']];
    // Audiences changed after the chunks' segments were written (no re-indexing).
    for (const [i, doc] of docs.entries()) if (i % 5 !== 4) (await engine.documents.update(ctx, doc.id, { audiences: lists[i % lists.length]! }))._unsafeUnwrap();
    await engine.ingest.drain();
    const changes = (store.db.prepare('SELECT COUNT(*) AS n FROM lexical_audiences').get() as { n: number }).n;
    expect(changes).toBeGreaterThan(0);
    await engine.close();

    const readers = [['public'], ['customers'], ['enterprise'], ['public', 'customers']];
    /** One in-memory index over the rows, each chunk with its document's audiences now. */
    const expectedFrom = (cold: SqliteStore) => {
      const index = new LexicalIndex();
      const rows = cold.db
        .prepare(`SELECT c.id, ${chunkTitle('c')} AS title, c.heading_path, ${chunkText('c')} AS text, d.audiences FROM chunks c JOIN documents d ON d.tenant_id = c.tenant_id AND d.id = c.document_id WHERE c.tenant_id = ?`)
        .all(ctx.scope.tenantId) as { id: string; title: string; heading_path: string; text: string; audiences: string }[];
      for (const r of rows) index.upsert({ id: r.id, ...termsOf(r), audiences: JSON.parse(r.audiences) as string[] });
      return index;
    };
    const compare = async (cold: SqliteStore) => {
      const index = expectedFrom(cold);
      const before = { ...lexicalWork };
      let hits = 0;
      for (const reader of readers)
        for (const q of QUERIES) {
          const got = await cold.search.lexical(ctx.scope, { ...searchTerms(q), fragments: [] } as never, 10, reader);
          expect(got).toEqual(index.search(searchTerms(q), 10, reader));
          hits += got.length;
        }
      expect(hits).toBeGreaterThan(readers.length * QUERIES.length);
      // Read from segments: no chunk tokenized or indexed on the search path.
      expect(lexicalWork).toEqual(before);
    };
    const cold = openSqliteStore({ path });
    await compare(cold);
    // A document moved to internal only leaves every restricted reader's results.
    const hidden = docs[2]!;
    const hiddenChunks = (cold.db.prepare('SELECT id FROM chunks WHERE document_id = ?').all(hidden.id) as { id: string }[]).map((r) => r.id);
    const title = hidden.title.split(' ')[0]!;
    const all = await cold.search.lexical(ctx.scope, { ...searchTerms(title), fragments: [] } as never, 100, null);
    expect(all.some((h) => hiddenChunks.includes(h.chunkId))).toBe(true);
    for (const reader of readers) expect((await cold.search.lexical(ctx.scope, { ...searchTerms(title), fragments: [] } as never, 100, reader)).some((h) => hiddenChunks.includes(h.chunkId))).toBe(false);
    await cold.close();
    const again = openSqliteStore({ path });
    await compare(again);
    await again.close();
  });

  it('a merge writes changed audiences into its segment and drops the changes it then holds', async () => {
    const path = join(dir, 'panya.db');
    const { store, engine, ctx } = await ingested(path, 9);
    const count = (table: string) => (store.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    const docs = (await engine.documents.list(ctx, { limit: 9 }))._unsafeUnwrap().items;
    for (const doc of docs) (await engine.documents.update(ctx, doc.id, { audiences: ['public'] }))._unsafeUnwrap();
    const changed = count('lexical_audiences');
    expect(changed).toBeGreaterThan(0);
    // More segments fill the tier: ingest merges them, the changed chunks' segments among them.
    const segments = count('lexical_segments');
    for (let i = 0; i < 12; i++) {
      (await engine.documents.create(ctx, { title: `refund extra ${i}`, contentMd: `Refund shipping rules ${i}.` }))._unsafeUnwrap();
      await engine.ingest.drain();
    }
    while ((await store.search.mergeSegments(ctx.scope)) > 0);
    expect(count('lexical_segments')).toBeLessThan(segments + 12);
    // A change stays only while a segment written before it still holds its chunk.
    const held = store.db.prepare('SELECT seq, data FROM lexical_segments').all() as { seq: number; data: Buffer }[];
    const left = store.db.prepare('SELECT chunk_id, seq FROM lexical_audiences').all() as { chunk_id: string; seq: number }[];
    expect(left.length).toBeLessThan(changed);
    for (const r of left) expect(held.some((h) => h.seq < r.seq && new LexicalSegment(segmentBytes(h.data)).numberOf(r.chunk_id) !== undefined)).toBe(true);
    await engine.close();
    const cold = openSqliteStore({ path });
    const index = new LexicalIndex();
    const rows = cold.db
      .prepare(`SELECT c.id, ${chunkTitle('c')} AS title, c.heading_path, ${chunkText('c')} AS text, d.audiences FROM chunks c JOIN documents d ON d.tenant_id = c.tenant_id AND d.id = c.document_id`)
      .all() as { id: string; title: string; heading_path: string; text: string; audiences: string }[];
    for (const r of rows) index.upsert({ id: r.id, ...termsOf(r), audiences: JSON.parse(r.audiences) as string[] });
    const before = { ...lexicalWork };
    let hits = 0;
    for (const q of QUERIES) {
      const got = await cold.search.lexical(ctx.scope, { ...searchTerms(q), fragments: [] } as never, 10, ['public']);
      expect(got).toEqual(index.search(searchTerms(q), 10, ['public']));
      hits += got.length;
    }
    expect(hits).toBeGreaterThan(0);
    expect(lexicalWork).toEqual(before);
    await cold.close();
  });

  it('a small workspace\'s are stored packed, a large one plain, and a plain one written before is still read', async () => {
    const path = join(dir, 'panya.db');
    const { engine, ctx } = await ingested(path, 12);
    await engine.close();
    const store = openSqliteStore({ path });
    const stored = (s = store) => s.db.prepare('SELECT id, data FROM lexical_segments').all() as { id: number; data: Buffer }[];
    const plain = (data: Buffer) => data.subarray(1, 4).toString('latin1') === 'SLP';
    expect(stored().length).toBeGreaterThan(0);
    for (const { data } of stored()) {
      expect(plain(data)).toBe(false);
      const bytes = segmentBytes(data);
      expect(plain(bytes)).toBe(true);
      expect(data.length).toBeLessThan(bytes.length);
      expect(new LexicalSegment(bytes).size).toBeGreaterThan(0);
    }
    const before = await Promise.all(QUERIES.map((q) => store.search.lexical(ctx.scope, { ...searchTerms(q), fragments: [] } as never, 10)));
    expect(before).toEqual(QUERIES.map(fromRows(store, ctx.scope)));
    expect(before.flat().length).toBeGreaterThan(QUERIES.length);
    await store.close();
    // Segments written before packing: plain. A fresh store (no cache) reads them.
    const earlier = openSqliteStore({ path });
    for (const { id, data } of stored(earlier)) earlier.db.prepare('UPDATE lexical_segments SET data = ? WHERE id = ?').run(segmentBytes(data), id);
    expect(stored(earlier).every((r) => plain(r.data))).toBe(true);
    expect(await Promise.all(QUERIES.map((q) => earlier.search.lexical(ctx.scope, { ...searchTerms(q), fragments: [] } as never, 10)))).toEqual(before);
    await earlier.close();
    // Past 64 KiB a segment stays plain: inflating it would cost a first search more than it saves.
    const large = new Uint8Array(70 * 1024).fill(7);
    expect(storedSegment(large).length).toBe(large.length);
    expect(storedSegment(large.subarray(0, 60 * 1024)).length).toBeLessThan(1024);
  });
});
