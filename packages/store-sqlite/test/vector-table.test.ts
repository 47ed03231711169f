import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChunkInput } from '@panya/core';
import { seedTwoTenants } from '@panya/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../src/index.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const chunk = (id: string, vector: number[]): ChunkInput => ({
  id,
  documentId: `doc_${id}`,
  ordinal: 0,
  title: 'T',
  headingPath: [],
  text: id,
  lexicalTitle: 't',
  lexicalBody: id,
  vector: new Float32Array(vector),
});

describe('the compact vector table', () => {
  it('takes over the vectors of a vec0 table written by an earlier release', async () => {
    dir = mkdtempSync(join(tmpdir(), 'panya-vectors-'));
    const path = join(dir, 'panya.db');
    const store = openSqliteStore({ path, vectorIndex: { mode: 'exact' } });
    const s = await seedTwoTenants(store);
    const scope = { tenantId: s.a.id, workspaceId: s.aDefault.id };
    await store.search.setIndexInfo({ embedderId: 'e1', dimension: 4 });
    await store.search.replaceDocumentChunks(scope, 'doc_near', [chunk('near', [1, 0, 0, 0])]);
    await store.search.replaceDocumentChunks(scope, 'doc_far', [chunk('far', [0, 1, 0, 0])]);
    // The earlier layout: the same rows in a partitioned vec0 table, schema version 25.
    const rows = store.db.prepare('SELECT id, part, embedding FROM chunk_vectors').all() as { id: number; part: string; embedding: Buffer }[];
    store.db.exec('DROP TABLE chunk_vectors; CREATE VIRTUAL TABLE chunk_vectors USING vec0(part TEXT PARTITION KEY, embedding float[4] distance_metric=cosine)');
    for (const r of rows) store.db.prepare('INSERT INTO chunk_vectors (rowid, part, embedding) VALUES (?, ?, ?)').run(BigInt(r.id), r.part, r.embedding);
    store.db.pragma('user_version = 25');
    await store.close();

    const reopened = openSqliteStore({ path, vectorIndex: { mode: 'exact' } });
    const schema = reopened.db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'chunk_vectors'").get() as { sql: string };
    expect(schema.sql).not.toMatch(/vec0/);
    expect(reopened.db.prepare("SELECT name FROM sqlite_schema WHERE name LIKE 'chunk_vectors%'").all()).toEqual(
      expect.arrayContaining([{ name: 'chunk_vectors' }, { name: 'chunk_vectors_part' }]),
    );
    const hits = await reopened.search.semantic(scope, new Float32Array([0.9, 0.1, 0, 0]), 2);
    expect(hits.map((h) => h.chunkId)).toEqual(['near', 'far']);
    expect(hits[0]!.score).toBeGreaterThan(0.99);
    await reopened.close();
  });
});
