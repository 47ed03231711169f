import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LexicalSource } from '@panya/core';
import { seedOneAndManyChunkDocuments } from '@panya/core/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openSqliteStore, type SqliteStore } from '../src/index.js';

describe('a search reads its tenant sequence once', () => {
  let dir: string;
  let store: SqliteStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'panya-search-sequence-'));
    store = openSqliteStore({ path: join(dir, 'panya.db') });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('hands the sequence its answer cache read to the lexical channel, which then reads no other', async () => {
    const { engine, ctx, one } = await seedOneAndManyChunkDocuments(store);
    await engine.search.search(ctx, { query: 'kettles' });
    const lexical = vi.spyOn(store.search, 'lexical');
    const trigram = vi.spyOn(store.search, 'trigram');
    // The store's own reader of the sequence, behind generation() and the lexical ranker alike.
    const versions = vi.spyOn((store.search as unknown as { source: LexicalSource }).source, 'version');
    const found = (await engine.search.search(ctx, { query: 'damaged kettles refund' }))._unsafeUnwrap().results;
    expect(found[0]!.documentId).toBe(one.id);
    expect(lexical).toHaveBeenCalledTimes(1);
    expect(versions).toHaveBeenCalledTimes(1);
    const seq = await store.search.generation(ctx.scope.tenantId);
    expect(lexical.mock.calls[0]![1].seq).toBe(seq);
    // The lexical channel found few chunks: the trigram fallback ran, handed the same sequence.
    expect(trigram).toHaveBeenCalledTimes(1);
    expect(trigram.mock.calls[0]![4]).toBe(seq);
  });
});
