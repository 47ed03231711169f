import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createEngine, indexCacheStats, TRIGRAM_SCAN_CHUNKS, type ChunkInput, type Engine, type RequestContext } from '@panya/core';
import { openPostgresStore, type PostgresStore } from '../src/index.js';
import { withPostgres } from './fixtures/with-postgres.js';

/** A small workspace's trigram scan reads its chunks once per tenant sequence and counts the fragments in the process. */
withPostgres("PostgreSQL: a small workspace's trigram scan keeps its texts", (url) => {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const schema = `panya_scan_${randomBytes(6).toString('hex')}`;
  let store: PostgresStore;
  let engine: Engine;
  let ctx: RequestContext;
  let open: { id: string };
  let staff: { id: string };
  let tenants = 0;

  /** The documents whose chunks hold the fragment, for a reader of `audiences` (null: every document). */
  const holding = async (fragment: string, audiences: string[] | null = null) => {
    const hits = await store.search.trigram(ctx.scope, [fragment], 10, audiences);
    const chunks = await store.search.getResultChunks(ctx.scope, hits.map((h) => h.chunkId));
    return chunks.map((c) => c.documentId).sort();
  };

  beforeAll(async () => {
    store = await openPostgresStore({ connectionString: url, schema, max: 2 });
    engine = createEngine({ store });
  });

  /** Each test its own tenant: two documents holding the same code, one for public readers, one internal. */
  beforeEach(async () => {
    const slug = `acme-${++tenants}`;
    (await engine.tenancy.createTenant({ slug, plan: 'business' }))._unsafeUnwrap();
    ctx = (await engine.access.system(slug))._unsafeUnwrap();
    open = (await engine.documents.create(ctx, { title: 'Shipping', contentMd: 'Order SKU-4471 ships in two days. Order SKU-4471 again.', audiences: ['public'] }))._unsafeUnwrap();
    staff = (await engine.documents.create(ctx, { title: 'Stock notes', contentMd: 'SKU-4471 is restocked on Mondays; ask for a café order.', audiences: ['internal'] }))._unsafeUnwrap();
    await engine.ingest.drain();
  });

  afterAll(async () => {
    await store.close();
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  });

  it("scores as the database's statement does (a transaction's view ranks in SQL)", async () => {
    for (const fragments of [['ku-447'], ['order', 'sku-4471', 'café'], ['mondays', 'two days']]) {
      const kept = await store.search.trigram(ctx.scope, fragments, 10);
      const statement = await store.transaction((tx) => tx.search.trigram(ctx.scope, fragments, 10));
      expect(kept.length).toBeGreaterThan(0);
      expect(kept.map((h) => h.chunkId)).toEqual(statement.map((h) => h.chunkId));
      kept.forEach((h, i) => expect(h.score).toBeCloseTo(statement[i]!.score, 12));
    }
  });

  it('answers from the kept texts until a write moves the sequence', async () => {
    expect(await holding('ku-447')).toEqual([open.id, staff.id].sort());
    // Changed behind the store's back, its triggers off (the sequence stands): the kept texts answer.
    await pool.query(`ALTER TABLE "${schema}".chunks DISABLE TRIGGER USER`);
    await pool.query(`UPDATE "${schema}".chunks SET text = 'nothing to match' WHERE document_id = $1`, [open.id]);
    await pool.query(`ALTER TABLE "${schema}".chunks ENABLE TRIGGER USER`);
    expect(await holding('ku-447')).toEqual([open.id, staff.id].sort());
    // A write moves the sequence: the scan reads the chunks again, the changed one with them.
    const late = (await engine.documents.create(ctx, { title: 'Returns', contentMd: 'Return SKU-4471 within a month.' }))._unsafeUnwrap();
    await engine.ingest.drain();
    expect(await holding('ku-447')).toEqual([late.id, staff.id].sort());
  });

  it('filters a restricted reader in the kept texts, and follows a change of audiences', async () => {
    expect(await holding('ku-447', ['public'])).toEqual([open.id]);
    expect(await holding('ku-447', ['internal'])).toEqual([staff.id]);
    expect(await holding('ku-447', ['customers'])).toEqual([]);
    (await engine.documents.update(ctx, staff.id, { audiences: ['public', 'customers'] }, { wait: true }))._unsafeUnwrap();
    expect(await holding('ku-447', ['customers'])).toEqual([staff.id]);
  });

  it('keeps no texts for a workspace larger than a scan: the statement answers it', async () => {
    const t = (await engine.tenancy.createTenant({ slug: 'large', plan: 'business' }))._unsafeUnwrap();
    const scope = { tenantId: t.tenant.id, workspaceId: t.defaultWorkspace.id };
    const chunk = (documentId: string, text: string, i: number): ChunkInput => ({ id: `${documentId}_${i}`, documentId, ordinal: i, title: documentId, headingPath: [], text, lexicalTitle: documentId, lexicalBody: text.toLowerCase(), vector: null });
    await store.search.setIndexInfo({ embedderId: 'test', dimension: 4 });
    await store.search.replaceDocumentChunks(scope, 'fill', Array.from({ length: TRIGRAM_SCAN_CHUNKS }, (_, i) => chunk('fill', `Filler line ${i}`, i)));
    await store.search.replaceDocumentChunks(scope, 'code', [chunk('code', 'Ticket ZX-81 reopened', 0)]);
    const before = indexCacheStats();
    expect((await store.search.trigram(scope, ['zx-81'], 10)).map((h) => h.chunkId)).toEqual(['code_0']);
    // Only the mark that it is larger than a scan: a few bytes, not its thousand texts.
    expect(indexCacheStats().entries).toBe(before.entries + 1);
    expect(indexCacheStats().bytes - before.bytes).toBeLessThan(1_000);
    expect((await store.search.trigram(scope, ['line 999'], 10)).map((h) => h.chunkId)).toEqual(['fill_999']);
  });

  it('counts the kept texts in the process index cache, and leaves nothing there once its store closes', async () => {
    const before = indexCacheStats();
    const other = await openPostgresStore({ connectionString: url, schema, max: 1 });
    await other.search.trigram(ctx.scope, ['ku-447'], 10);
    expect(indexCacheStats().entries).toBe(before.entries + 1);
    expect(indexCacheStats().bytes).toBeGreaterThan(before.bytes);
    await other.close();
    expect(indexCacheStats()).toMatchObject({ entries: before.entries, bytes: before.bytes });
  });
});
