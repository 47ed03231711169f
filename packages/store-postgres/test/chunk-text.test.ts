import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createEngine, type ChunkInput } from '@panya/core';
import { oneChunkArticle as article, seedOneAndManyChunkDocuments } from '@panya/core/testing';
import { openPostgresStore, type PostgresStore } from '../src/index.js';
import { withPostgres } from './fixtures/with-postgres.js';

const filler = (i: number): ChunkInput => {
  const text = `Filler line ${i} about returns`;
  return { id: `fill_${i}`, documentId: 'fill', ordinal: i, title: 'fill', headingPath: [], text, lexicalTitle: 'fill', lexicalBody: text.toLowerCase(), vector: null };
};

withPostgres('a chunk that is its document’s whole source (PostgreSQL)', (url) => {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  afterAll(() => pool.end());

  describe('a chunk that is its document’s whole source (PostgreSQL)', () => {
    let schema: string;
    let store: PostgresStore;
    beforeEach(async () => {
      schema = `panya_chunk_text_${randomBytes(6).toString('hex')}`;
      store = await openPostgresStore({ connectionString: url, schema, max: 2 });
    });
    afterEach(async () => {
      await store.close();
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    });

    const ingested = () => seedOneAndManyChunkDocuments(store);
    const rowsOf = async (documentId: string) =>
      (await pool.query<{ id: string; text: string | null; trigram: boolean }>(`SELECT id, text, trigram FROM "${schema}".chunks WHERE document_id = $1 ORDER BY ordinal`, [documentId])).rows;

    it('is stored once, in its document, and every read returns its text', async () => {
      const { engine, ctx, one, many } = await ingested();
      expect(await rowsOf(one.id)).toEqual([{ id: expect.any(String), text: null, trigram: false }]);
      // A document of several chunks keeps each chunk's text.
      const manyRows = await rowsOf(many.id);
      expect(manyRows.length).toBeGreaterThan(1);
      expect(manyRows.every((r) => (r.text ?? '').length > 0)).toBe(true);

      expect((await engine.documents.get(ctx, one.id))._unsafeUnwrap().contentMd).toBe(article('kettles'));
      const found = (await engine.search.search(ctx, { query: 'damaged kettles refund' }))._unsafeUnwrap().results;
      expect(found[0]!.documentId).toBe(one.id);
      expect(found[0]!.text).toContain('Damaged kettles are replaced free of charge');
      const [row] = await rowsOf(one.id);
      expect((await store.search.getChunks(ctx.scope, [row!.id]))[0]!.text).toBe(article('kettles'));
      // The trigram fallback of a small workspace counts a fragment in the text (a code the segmenter cannot split).
      expect((await store.search.trigram(ctx.scope, ['rx-742'], 5)).map((h) => h.chunkId)).toEqual([row!.id]);
    });

    it('gets its text back before its source changes, and reads what it was indexed with until ingest replaces it', async () => {
      const { engine, ctx, one } = await ingested();
      const [before] = await rowsOf(one.id);
      const edited = article('toasters');
      (await engine.documents.update(ctx, one.id, { contentMd: edited }))._unsafeUnwrap();
      expect(await rowsOf(one.id)).toEqual([{ id: before!.id, text: article('kettles'), trigram: false }]);
      expect((await store.search.getChunks(ctx.scope, [before!.id]))[0]!.text).toBe(article('kettles'));
      await engine.ingest.drain();
      const [now] = await rowsOf(one.id);
      expect(now!.text).toBeNull();
      expect((await store.search.getChunks(ctx.scope, [now!.id]))[0]!.text).toBe(edited);
    });

    it('gets its text back before its document goes', async () => {
      const { one } = await ingested();
      const [row] = await rowsOf(one.id);
      await pool.query(`DELETE FROM "${schema}".documents WHERE id = $1`, [one.id]);
      expect((await pool.query(`SELECT text FROM "${schema}".chunks WHERE id = $1`, [row!.id])).rows).toEqual([{ text: article('kettles') }]);
    });

    it('gets its text back as its workspace enters the trigram index, and is found through it', async () => {
      const { ctx, one } = await ingested();
      await store.search.replaceDocumentChunks(ctx.scope, 'fill', Array.from({ length: 1_000 }, (_, i) => filler(i)));
      const [row] = await rowsOf(one.id);
      expect(row).toEqual({ id: expect.any(String), text: article('kettles'), trigram: true });
      expect((await store.search.trigram(ctx.scope, ['rx-742'], 5)).map((h) => h.chunkId)).toEqual([row!.id]);
      // A document written into a workspace in the index keeps its chunk's own text.
      const engine = createEngine({ store });
      const later = (await engine.documents.create(ctx, { title: 'Kettles 2', contentMd: article('mugs') }))._unsafeUnwrap();
      await engine.ingest.drain();
      expect((await rowsOf(later.id))[0]!.text).toBe(article('mugs'));
    });
  });
});
