import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, indexCacheStats, type Engine, type RequestContext } from '@panya/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore, type SqliteStore } from '../src/index.js';

/** A small workspace's trigram scan reads every chunk's text: the texts are kept while the tenant's search sequence stands. */
describe("a small workspace's trigram scan keeps its texts (SQLite)", () => {
  let dir: string;
  let store: SqliteStore;
  let engine: Engine;
  let ctx: RequestContext;
  let open: { id: string };
  let staff: { id: string };

  /** The documents whose chunks hold the fragment, for a reader of `audiences` (null: every document). */
  const holding = async (fragment: string, audiences: string[] | null = null) => {
    const hits = await store.search.trigram(ctx.scope, [fragment], 10, audiences);
    const chunks = await store.search.getResultChunks(ctx.scope, hits.map((h) => h.chunkId));
    return chunks.map((c) => c.documentId).sort();
  };

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'panya-scan-texts-'));
    store = openSqliteStore({ path: join(dir, 'panya.db') });
    engine = createEngine({ store });
    (await engine.tenancy.createTenant({ slug: 'acme', plan: 'business' }))._unsafeUnwrap();
    ctx = (await engine.access.system('acme'))._unsafeUnwrap();
    open = (await engine.documents.create(ctx, { title: 'Shipping', contentMd: 'Order SKU-4471 ships in two days.', audiences: ['public'] }))._unsafeUnwrap();
    staff = (await engine.documents.create(ctx, { title: 'Stock notes', contentMd: 'SKU-4471 is restocked on Mondays.', audiences: ['internal'] }))._unsafeUnwrap();
    await engine.ingest.drain();
  });

  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers from the kept texts until a write moves the sequence', async () => {
    expect(await holding('ku-447')).toEqual([open.id, staff.id].sort());
    // Changed behind the store's back (no write through it, so the sequence stands): the kept texts answer.
    store.db.prepare("UPDATE chunks SET text = 'nothing to match' WHERE document_id = ?").run(open.id);
    expect(await holding('ku-447')).toEqual([open.id, staff.id].sort());
    // A write moves the sequence: the scan reads the chunks again, the changed one with them.
    const late = (await engine.documents.create(ctx, { title: 'Returns', contentMd: 'Return SKU-4471 within a month.' }))._unsafeUnwrap();
    await engine.ingest.drain();
    expect(await holding('ku-447')).toEqual([late.id, staff.id].sort());
  });

  it('filters a restricted reader in the kept texts, and follows a change of audiences', async () => {
    expect(await holding('ku-447')).toEqual([open.id, staff.id].sort());
    expect(await holding('ku-447', ['public'])).toEqual([open.id]);
    expect(await holding('ku-447', ['customers'])).toEqual([]);
    (await engine.documents.update(ctx, staff.id, { audiences: ['public', 'customers'] }, { wait: true }))._unsafeUnwrap();
    expect(await holding('ku-447', ['public'])).toEqual([open.id, staff.id].sort());
  });

  it('leaves nothing in the process index cache once its store closes (segments and kept texts)', async () => {
    const before = indexCacheStats();
    const other = openSqliteStore({ path: join(dir, 'panya.db') });
    const otherCtx = (await createEngine({ store: other }).access.system('acme'))._unsafeUnwrap();
    await other.search.lexical(otherCtx.scope, { terms: ['sku'], pairs: [], grams: [], fragments: [] }, 10);
    await other.search.trigram(otherCtx.scope, ['ku-447'], 10);
    const held = indexCacheStats();
    expect(held.entries).toBe(before.entries + 2);
    await other.close();
    expect(indexCacheStats()).toMatchObject({ entries: before.entries, bytes: before.bytes });
  });

  it('counts the kept texts in the process index cache', async () => {
    await holding('zz-none');
    const before = indexCacheStats();
    // Another workspace's scan keeps its texts beside them.
    const other = (await engine.workspaces.create(ctx, { slug: 'other', name: 'Other' }))._unsafeUnwrap();
    const otherCtx = (await engine.access.system('acme', other.slug))._unsafeUnwrap();
    (await engine.documents.create(otherCtx, { title: 'Other', contentMd: 'A text long enough to count for something in bytes.' }))._unsafeUnwrap();
    await engine.ingest.drain();
    await store.search.trigram(otherCtx.scope, ['oug'], 10);
    const after = indexCacheStats();
    expect(after.entries).toBeGreaterThan(before.entries);
    expect(after.bytes).toBeGreaterThan(before.bytes);
  });
});
