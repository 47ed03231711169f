import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { manyChunkManual, oneChunkArticle as article, seedOneAndManyChunkDocuments } from '@panya/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore, type SqliteStore } from '../src/index.js';

describe('a chunk that is its document’s whole source (SQLite)', () => {
  let dir: string;
  let store: SqliteStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'panya-chunk-text-'));
    store = openSqliteStore({ path: join(dir, 'panya.db') });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const ingested = () => seedOneAndManyChunkDocuments(store);
  const rowsOf = (documentId: string) =>
    store.db.prepare('SELECT id, typeof(text) AS type, octet_length(text) AS bytes FROM chunks WHERE document_id = ? ORDER BY ordinal').all(documentId) as { id: string; type: string; bytes: number }[];
  const sourceOf = (documentId: string) => store.db.prepare('SELECT typeof(content_md) AS type, content_md AS value FROM documents WHERE id = ?').get(documentId) as { type: string; value: unknown };

  it('is stored once, in its document (packed), and every read returns its text', async () => {
    const { engine, ctx, one, many } = await ingested();
    expect(rowsOf(one.id)).toEqual([{ id: expect.any(String), type: 'blob', bytes: 0 }]);
    expect(sourceOf(one.id).type).toBe('blob');
    // A document of several chunks keeps each chunk's own text, packed, and its source packed too.
    const manyRows = rowsOf(many.id);
    expect(manyRows.length).toBeGreaterThan(1);
    expect(manyRows.every((r) => r.type === 'blob' && r.bytes > 0)).toBe(true);
    expect(sourceOf(many.id).type).toBe('blob');
    const manyChunks = await store.search.getChunks(ctx.scope, manyRows.map((r) => r.id));
    expect(manyChunks).toHaveLength(manyRows.length);
    for (const c of manyChunks) expect(manyChunkManual).toContain(c.text);
    expect(manyRows.reduce((n, r) => n + r.bytes, 0)).toBeLessThan(manyChunks.reduce((n, c) => n + Buffer.byteLength(c.text), 0) / 3);

    expect((await engine.documents.get(ctx, one.id))._unsafeUnwrap().contentMd).toBe(article('kettles'));
    const found = (await engine.search.search(ctx, { query: 'damaged kettles refund' }))._unsafeUnwrap().results;
    expect(found[0]!.documentId).toBe(one.id);
    expect(found[0]!.text).toContain('Damaged kettles are replaced free of charge');
    const [chunk] = await store.search.getChunks(ctx.scope, [rowsOf(one.id)[0]!.id]);
    expect(chunk!.text).toBe(article('kettles'));
    // The trigram fallback counts a fragment in the text (a code the segmenter cannot split).
    const fragments = await store.search.trigram(ctx.scope, ['rx-742'], 5);
    expect(fragments.map((h) => h.chunkId)).toEqual([rowsOf(one.id)[0]!.id]);
  });

  it('gets its text back before its source changes, and reads what it was indexed with until ingest replaces it', async () => {
    const { engine, ctx, one } = await ingested();
    const chunkId = rowsOf(one.id)[0]!.id;
    const edited = article('toasters');
    (await engine.documents.update(ctx, one.id, { contentMd: edited }))._unsafeUnwrap();
    expect(rowsOf(one.id)).toEqual([{ id: chunkId, type: 'text', bytes: Buffer.byteLength(article('kettles')) }]);
    expect((await store.search.getChunks(ctx.scope, [chunkId]))[0]!.text).toBe(article('kettles'));
    expect((await engine.documents.get(ctx, one.id))._unsafeUnwrap().contentMd).toBe(edited);
    await engine.ingest.drain();
    const [now] = rowsOf(one.id);
    expect(now!.type).toBe('blob');
    expect((await store.search.getChunks(ctx.scope, [now!.id]))[0]!.text).toBe(edited);
  });

  it('a chunk that keeps its own (packed) text is left as it is when its document\'s source changes or goes', async () => {
    const { engine, ctx, many } = await ingested();
    const before = rowsOf(many.id);
    const texts = async () => (await store.search.getChunks(ctx.scope, before.map((r) => r.id))).map((c) => c.text);
    const read = await texts();
    (await engine.documents.update(ctx, many.id, { contentMd: `${manyChunkManual}\n\nOne more step.` }))._unsafeUnwrap();
    expect(rowsOf(many.id)).toEqual(before);
    expect(await texts()).toEqual(read);
    store.db.prepare('DELETE FROM documents WHERE id = ?').run(many.id);
    expect(rowsOf(many.id)).toEqual(before);
    expect(await texts()).toEqual(read);
  });

  it('gets its text back before its document goes', async () => {
    const { one } = await ingested();
    const chunkId = rowsOf(one.id)[0]!.id;
    store.db.prepare('DELETE FROM documents WHERE id = ?').run(one.id);
    const row = store.db.prepare('SELECT text FROM chunks WHERE id = ?').get(chunkId) as { text: unknown };
    expect(row.text).toBe(article('kettles'));
  });

  it('a reindex that chunks the same source the same way stores it once again', async () => {
    const { engine, ctx, one } = await ingested();
    (await engine.documents.reindex(ctx, one.id))._unsafeUnwrap();
    await engine.ingest.drain();
    expect(rowsOf(one.id)).toEqual([{ id: expect.any(String), type: 'blob', bytes: 0 }]);
    expect((await engine.documents.get(ctx, one.id))._unsafeUnwrap().contentMd).toBe(article('kettles'));
  });

  it('keeps a chunk\'s title only in its document, and gives it back before the title changes or the document goes', async () => {
    const { engine, ctx, one, many } = await ingested();
    const titles = (documentId: string) => store.db.prepare('SELECT title FROM chunks WHERE document_id = ? ORDER BY ordinal').pluck().all(documentId) as string[];
    const read = async (documentId: string) => (await store.search.getChunks(ctx.scope, rowsOf(documentId).map((r) => r.id))).map((c) => c.title);
    const manyTitle = (await engine.documents.get(ctx, many.id))._unsafeUnwrap().title;
    expect(titles(many.id).every((t) => t === '')).toBe(true);
    expect(await read(many.id)).toEqual(titles(many.id).map(() => manyTitle));
    const oneTitle = (await engine.documents.get(ctx, one.id))._unsafeUnwrap().title;
    const found = (await engine.search.search(ctx, { query: 'damaged kettles refund' }))._unsafeUnwrap().results;
    expect(found[0]!.title).toBe(oneTitle);

    // Renamed: the chunks keep the title they were indexed with until ingest replaces them.
    (await engine.documents.update(ctx, many.id, { title: 'Renamed manual' }))._unsafeUnwrap();
    expect(titles(many.id).every((t) => t === manyTitle)).toBe(true);
    expect(await read(many.id)).toEqual(titles(many.id).map(() => manyTitle));
    await engine.ingest.drain();
    expect(titles(many.id).every((t) => t === '')).toBe(true);
    expect(await read(many.id)).toEqual(titles(many.id).map(() => 'Renamed manual'));

    const chunkId = rowsOf(one.id)[0]!.id;
    store.db.prepare('DELETE FROM documents WHERE id = ?').run(one.id);
    expect(store.db.prepare('SELECT title FROM chunks WHERE id = ?').pluck().get(chunkId)).toBe(oneTitle);
  });
});
