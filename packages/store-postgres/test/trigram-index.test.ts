import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createEngine, type ChunkInput, type Scope } from '@panya/core';
import { openPostgresStore, type PostgresStore } from '../src/index.js';
import { withPostgres } from './fixtures/with-postgres.js';


const chunk = (documentId: string, text: string, i = 0): ChunkInput => ({
  id: `${documentId}_${i}`,
  documentId,
  ordinal: i,
  title: documentId,
  headingPath: [],
  text,
  lexicalTitle: documentId,
  lexicalBody: text.toLowerCase(),
  vector: null,
});
const fill = (documentId: string, n: number) => Array.from({ length: n }, (_, i) => chunk(documentId, `Filler line ${i} about returns`, i));

withPostgres('PostgreSQL trigram index', (url) => {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const schema = `panya_trigram_${randomBytes(6).toString('hex')}`;
  afterAll(async () => {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  });

  describe('PostgreSQL trigram index', () => {
    it('holds a workspace\'s chunks only once a search would not scan it, all of them, and legacy chunks; searches find chunks in and out of it', async () => {
      let store: PostgresStore = await openPostgresStore({ connectionString: url, schema, max: 2 });
      const engine = createEngine({ store });
      const inIndex = async (ids: string[]) =>
        (await pool.query<{ id: string; trigram: boolean }>(`SELECT id, trigram FROM "${schema}".chunks WHERE id = ANY($1) ORDER BY id`, [ids])).rows.map((r) => r.trigram);
      const countIn = async (s: Scope) => Number((await pool.query(`SELECT count(*) AS n FROM "${schema}".chunks WHERE tenant_id = $1 AND workspace_id = $2 AND trigram`, [s.tenantId, s.workspaceId])).rows[0].n);
      const newScope = async (slug: string): Promise<Scope> => {
        const t = (await engine.tenancy.createTenant({ slug, plan: 'business' }))._unsafeUnwrap();
        return { tenantId: t.tenant.id, workspaceId: t.defaultWorkspace.id };
      };
      const found = async (s: Scope, fragment: string) => (await store.search.trigram(s, [fragment], 10)).map((h) => h.chunkId).sort();
      await store.search.setIndexInfo({ embedderId: 'test', dimension: 4 });

      // A small workspace stays out of the index, and its fragments are still found.
      const small = await newScope('small');
      await store.search.replaceDocumentChunks(small, 'a', [chunk('a', 'Order SKU-4471 ships in two days')]);
      expect(await inIndex(['a_0'])).toEqual([false]);
      expect(await found(small, 'ku-447')).toEqual(['a_0']);

      // At exactly a scan's size it stays out; one chunk more and all of its chunks are in.
      const big = await newScope('bigco');
      await store.search.replaceDocumentChunks(big, 'big_fill', fill('big_fill', 1_000));
      expect(await countIn(big)).toBe(0);
      await store.search.replaceDocumentChunks(big, 'big_code', [chunk('big_code', 'Ticket ZX-81 reopened')]);
      expect(await countIn(big)).toBe(1_001);
      expect(await found(big, 'zx-81')).toEqual(['big_code_0']);
      // Once in, it stays in as it shrinks: later chunks join the index.
      await store.search.removeDocumentChunks(big, 'big_fill');
      await store.search.replaceDocumentChunks(big, 'big_more', [chunk('big_more', 'Ticket ZX-82')]);
      expect(await countIn(big)).toBe(2);
      expect(await found(big, 'zx-8')).toEqual(['big_code_0', 'big_more_0']);

      // Legacy chunks are always in it and count in each workspace of their tenant.
      const mixed = await newScope('mixed');
      await store.search.replaceDocumentChunks(mixed, 'mix_fill', fill('mix_fill', 995));
      for (let i = 0; i < 6; i++) await store.search.insertLegacyChunk(mixed.tenantId, `legacy_${i}`, chunk(`legacy_${i}`, `Legacy note QW-${i}`));
      expect(await inIndex(['legacy_0_0', 'mix_fill_0'])).toEqual([true, true]);
      expect(await countIn(mixed)).toBe(995);
      expect(await found(mixed, 'qw-5')).toEqual(['legacy_5_0']);
      expect(await found(mixed, 'line 994 ')).toEqual(['mix_fill_994']);
      // A legacy chunk adopted by a workspace outside the index leaves it.
      await store.search.insertLegacyChunk(small.tenantId, 'legacy_s', chunk('legacy_s', 'Old note PL-77'));
      await store.search.replaceDocumentChunks(small, 'small_b', [chunk('small_b', 'New note PL-78')]);
      await store.search.adoptLegacyChunk('legacy_s_0', small.workspaceId, { lexicalTitle: 'legacy_s', lexicalBody: 'old note pl-77', vector: null });
      expect(await inIndex(['legacy_s_0'])).toEqual([false]);
      expect(await found(small, 'pl-7')).toEqual(['legacy_s_0', 'small_b_0']);
      // A chunk out of the index in a large workspace (another node wrote it while the workspace grew) is still found.
      await pool.query(`UPDATE "${schema}".chunks SET trigram = false WHERE id = 'big_more_0'`);
      expect(await found(big, 'zx-8')).toEqual(['big_code_0', 'big_more_0']);
      await store.close();

      // A database from before: every chunk in the index. The upgrade keeps only large workspaces' and legacy chunks in it.
      const trgm = (await pool.query(`SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'`)).rows[0].nspname as string;
      await pool.query(`ALTER TABLE "${schema}".chunks DROP COLUMN trigram; DELETE FROM "${schema}".panya_migrations WHERE version >= 24;
        DROP FUNCTION "${schema}".documents_source_kept() CASCADE;
        CREATE INDEX chunks_scope ON "${schema}".chunks(tenant_id, workspace_id);
        CREATE INDEX chunks_trigram ON "${schema}".chunks USING gin (lower(title || E'\\n' || text) "${trgm}".gin_trgm_ops)`);
      store = await openPostgresStore({ connectionString: url, schema, max: 2 });
      expect(await inIndex(['a_0', 'big_code_0', 'legacy_3_0', 'legacy_s_0', 'mix_fill_0', 'small_b_0'])).toEqual([false, false, true, false, true, false]);
      expect(await found(mixed, 'line 994 ')).toEqual(['mix_fill_994']);
      await store.close();
    });
  });
});
