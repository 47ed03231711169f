import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tokenize, type ChunkInput } from '@panya/core';
import { seedTwoTenants } from '@panya/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../src/index.js';

const chunk = (id: string, documentId: string, text: string): ChunkInput => ({
  id,
  documentId,
  ordinal: 0,
  title: 'Title',
  headingPath: ['Title'],
  text,
  lexicalTitle: 'title',
  lexicalBody: tokenize(text).join(' '),
  vector: new Float32Array([1, 0, 0, 0]),
});

/** A workspace's lexical index is loaded page by page; every chunk, on either side of a page boundary, is found. */
describe('loading a lexical index over several pages', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'panya-lexical-load-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('finds the first, boundary, last and legacy chunks of a 2,500-chunk workspace built from the store', async () => {
    const path = join(dir, 'panya.db');
    const writer = openSqliteStore({ path });
    const s = await seedTwoTenants(writer);
    await writer.search.setIndexInfo({ embedderId: 'e1', dimension: 4 });
    const words = Array.from({ length: 2_500 }, (_, i) => `marker${i.toString(36)}q`);
    await writer.search.replaceDocumentChunks(s.scopeA, 'doc_big', words.map((w, i) => chunk(`chk_${i}`, 'doc_big', `shared text ${w}`)));
    await writer.search.insertLegacyChunk(s.a.id, 'doc_old', chunk('chk_legacy', 'doc_old', 'legacy zebrafinch'));
    // The other tenant's chunks sit between pages' rowids and must stay out.
    await writer.search.replaceDocumentChunks(s.scopeB, 'doc_b', [chunk('chk_b', 'doc_b', `shared text ${words[1_000]}`)]);
    await writer.close();

    const store = openSqliteStore({ path });
    try {
      const find = async (text: string) => (await store.search.lexical(s.scopeA, { terms: tokenize(text), pairs: [], fragments: [] }, 5)).map((h) => h.chunkId);
      for (const i of [0, 999, 1_000, 1_001, 1_999, 2_000, 2_499]) expect(await find(words[i]!)).toEqual([`chk_${i}`]);
      expect(await find('zebrafinch')).toEqual(['chk_legacy']);
      expect(await store.search.countChunks(s.scopeA)).toBe(2_501); // the legacy chunk counts too
    } finally {
      await store.close();
    }
  });
});
