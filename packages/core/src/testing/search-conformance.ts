/** Search-index and ingest-queue behaviour every store must share. */
import { describe, expect, it } from 'vitest';
import type { ChunkInput } from '../search/ports/search-index.js';
import type { Scope, Store } from '../ports/store.js';
import { createIds } from '../system.js';
import { searchTerms } from '../text/query.js';
import { tokenize } from '../text/tokenizer.js';
import { makeDocument, makeTenant, makeWorkspace, requireCapability, seedTwoTenants } from './fixtures.js';

const ids = createIds();
const DIM = 4;

function unit(...v: number[]): Float32Array {
  const n = Math.hypot(...v);
  return new Float32Array(v.map((x) => x / n));
}

export function chunk(documentId: string, text: string, vector = unit(1, 0, 0, 0), title = 'Title'): ChunkInput {
  return {
    id: ids.next('chk'),
    documentId,
    ordinal: 0,
    title,
    headingPath: [title],
    text,
    lexicalTitle: tokenize(title).join(' '),
    lexicalBody: tokenize(text).join(' '),
    vector,
  };
}

const q = (text: string) => ({ ...searchTerms(text), fragments: [] });

export function searchIndexSuite(getStore: () => Store, openPeer: () => Promise<Store | null> = async () => null): void {
  describe('search index', () => {
    // Whether the embedder may change is core's decision (ingest `ensureIndexInfo`, tested in core's
    // ingest tests): the store records the embedder and answers whether vectors are stored.
    it('records the embedder and tells whether any vector is stored', async () => {
      const store = getStore();
      expect(await store.search.getIndexInfo()).toBeNull();
      expect(await store.search.hasVectors()).toBe(false);
      await store.search.setIndexInfo({ embedderId: 'e1', dimension: DIM });
      expect(await store.search.getIndexInfo()).toEqual({ embedderId: 'e1', dimension: DIM });
      expect(await store.search.hasVectors()).toBe(false);
      const s = await seedTwoTenants(store);
      await store.search.replaceDocumentChunks(s.scopeB, 'doc_1', [chunk('doc_1', 'hello')]);
      expect(await store.search.hasVectors()).toBe(true);
      await store.search.removeDocumentChunks(s.scopeB, 'doc_1');
      expect(await store.search.hasVectors()).toBe(false);
    });

    it("filters every channel by the reader's audiences inside its query, before its limit, and re-files a document whose audiences change", async () => {
      const store = getStore();
      await store.search.setIndexInfo({ embedderId: 'e1', dimension: DIM });
      const s = await seedTwoTenants(store);
      const partner = makeDocument(s.a.id, s.aDefault.id, { audiences: ['partner-th'] });
      const internal = makeDocument(s.a.id, s.aDefault.id);
      const published = makeDocument(s.a.id, s.aDefault.id, { publicSurfaces: ['help_center'] });
      for (const d of [partner, internal, published]) await store.documents.insert(d);
      // The hidden documents are every channel's best matches: a filter applied after a top 1 would leave nothing.
      const best = chunk(partner.id, 'zebracorn zebracorn zebracorn refunds', unit(1, 0, 0, 0));
      const inner = chunk(internal.id, 'zebracorn zebracorn refunds', unit(0.9, 0.1, 0, 0));
      const open = chunk(published.id, 'zebracorn refunds are paid within seven working days of the request', unit(0.2, 0.8, 0, 0));
      await store.search.replaceDocumentChunks(s.scopeA, partner.id, [best]);
      await store.search.replaceDocumentChunks(s.scopeA, internal.id, [inner]);
      await store.search.replaceDocumentChunks(s.scopeA, published.id, [open]);
      const anonymous = ['public'];
      const signed = ['customers', 'partner-th', 'public'];
      const ids = (hits: { chunkId: string }[]) => hits.map((h) => h.chunkId);

      expect(ids(await store.search.lexical(s.scopeA, q('zebracorn'), 1, anonymous))).toEqual([open.id]);
      expect(ids(await store.search.lexical(s.scopeA, q('zebracorn'), 1, signed))).toEqual([best.id]);
      expect(ids(await store.search.lexical(s.scopeA, q('zebracorn'), 10, signed)).sort()).toEqual([best.id, open.id].sort());
      expect(await store.search.lexical(s.scopeA, q('zebracorn'), 10, null)).toHaveLength(3);
      expect(await store.search.lexical(s.scopeA, q('zebracorn'), 10, ['enterprise'])).toEqual([]);
      if (store.search.capabilities.trigram) {
        expect(ids(await store.search.trigram(s.scopeA, ['zebracorn'], 1, anonymous))).toEqual([open.id]);
        expect(ids(await store.search.trigram(s.scopeA, ['zebracorn'], 1, signed))).toEqual([best.id]);
        expect(await store.search.trigram(s.scopeA, ['zebracorn'], 10, null)).toHaveLength(3);
      }
      if (store.search.capabilities.vectors) {
        expect(ids(await store.search.semantic(s.scopeA, unit(1, 0, 0, 0), 1, anonymous))).toEqual([open.id]);
        expect(ids(await store.search.semantic(s.scopeA, unit(1, 0, 0, 0), 1, signed))).toEqual([best.id]);
        expect(ids(await store.search.semantic(s.scopeA, unit(1, 0, 0, 0), 1, null))).toEqual([best.id]);
      }
      expect((await store.documents.listReadable(s.scopeA, anonymous, 10)).map((d) => d.id)).toEqual([published.id]);
      expect((await store.documents.listReadable(s.scopeA, signed, 10)).map((d) => d.id).sort()).toEqual([partner.id, published.id].sort());

      // Published to everyone: the warm lexical index re-reads the document's chunks, whatever process wrote it.
      await store.documents.update(s.scopeA, partner.id, { audiences: ['public'], updatedAt: new Date().toISOString() });
      expect(ids(await store.search.lexical(s.scopeA, q('zebracorn'), 1, anonymous))).toEqual([best.id]);
      await store.documents.update(s.scopeA, partner.id, { audiences: ['internal'], updatedAt: new Date().toISOString() });
      expect(ids(await store.search.lexical(s.scopeA, q('zebracorn'), 10, signed))).toEqual([open.id]);
    });

    it('resets to another embedder, dropping every chunk', async () => {
      const store = getStore();
      await store.search.setIndexInfo({ embedderId: 'e1', dimension: DIM });
      const s = await seedTwoTenants(store);
      await store.search.replaceDocumentChunks(s.scopeA, 'doc_1', [chunk('doc_1', 'hello')]);
      await store.search.reset({ embedderId: 'e2', dimension: 8 });
      expect(await store.search.getIndexInfo()).toEqual({ embedderId: 'e2', dimension: 8 });
      expect(await store.search.countChunks(s.scopeA)).toBe(0);
      expect(await store.search.lexical(s.scopeA, q('hello'), 10)).toEqual([]);
    });

    it('rebuilds vectors beside the live ones: search answers from the old until the swap, and a missing vector blocks it', async (ctx) => {
      const store = getStore();
      requireCapability(ctx, store.search.capabilities.vectors, 'search.capabilities.vectors');
      await store.search.setIndexInfo({ embedderId: 'e1', dimension: DIM });
      const s = await seedTwoTenants(store);
      await store.search.replaceDocumentChunks(s.scopeA, 'doc_1', [chunk('doc_1', 'hello'), chunk('doc_1', 'world')]);
      await store.search.replaceDocumentChunks(s.scopeB, 'doc_2', [chunk('doc_2', 'hello')]);
      await store.search.beginRebuild({ embedderId: 'e2', dimension: 3 });
      expect(await store.search.countUnstaged()).toBe(3);
      const first = await store.search.listUnstaged(0, 2);
      expect(first).toHaveLength(2);
      await store.search.stageVectors(first.map((c) => ({ chunkId: c.id, vector: new Float32Array([1, 0, 0]) })));
      await expect(store.search.stageVectors([{ chunkId: first[0]!.id, vector: unit(1, 0, 0, 0) }])).rejects.toThrow(/dimensions/);
      // Not complete: nothing changes, the old vectors answer.
      expect(await store.search.finishRebuild()).toBeNull();
      expect(await store.search.getIndexInfo()).toEqual({ embedderId: 'e1', dimension: DIM });
      expect(await store.search.semantic(s.scopeA, unit(1, 0, 0, 0), 10)).toHaveLength(2);
      // An interrupted run resumes for the same embedder: what it staged is kept.
      await store.search.beginRebuild({ embedderId: 'e2', dimension: 3 });
      const rest = await store.search.listUnstaged(first.at(-1)!.cursor, 10);
      expect(rest).toHaveLength(1);
      // A chunk written meanwhile must be caught up too.
      await store.search.replaceDocumentChunks(s.scopeA, 'doc_3', [chunk('doc_3', 'late')]);
      expect(await store.search.countUnstaged()).toBe(2);
      const missing = await store.search.listUnstaged(0, 10);
      await store.search.stageVectors(missing.map((c) => ({ chunkId: c.id, vector: new Float32Array([0, 1, 0]) })));
      expect(await store.search.finishRebuild()).toEqual({ chunks: 4, documents: 3 });
      expect(await store.search.getIndexInfo()).toEqual({ embedderId: 'e2', dimension: 3 });
      // Vectors of the previous embedder find nothing (a process not yet restarted); the new ones do, per workspace.
      expect(await store.search.semantic(s.scopeA, unit(1, 0, 0, 0), 10)).toEqual([]);
      expect(await store.search.semantic(s.scopeA, new Float32Array([1, 0, 0]), 10)).toHaveLength(3);
      expect(await store.search.semantic(s.scopeB, new Float32Array([1, 0, 0]), 10)).toHaveLength(1);
      expect(await store.search.countChunks(s.scopeA)).toBe(3);
      // A different embedder starts over.
      await store.search.beginRebuild({ embedderId: 'e3', dimension: 3 });
      expect(await store.search.countUnstaged()).toBe(4);
    });

    it('ranks workspaces by the chunks of their segments, largest first (what a warm-up reads first)', async () => {
      const store = getStore();
      if (!store.search.largestWorkspaces) return;
      await store.search.setIndexInfo({ embedderId: 'e1', dimension: DIM });
      const s = await seedTwoTenants(store);
      await store.search.replaceDocumentChunks(s.scopeB, 'doc_3', [chunk('doc_3', 'four')]);
      await store.search.replaceDocumentChunks(s.scopeA, 'doc_1', [chunk('doc_1', 'one'), chunk('doc_1', 'two')]);
      await store.search.replaceDocumentChunks(s.scopeA, 'doc_2', [chunk('doc_2', 'three')]);
      const scope = (x: Scope) => ({ tenantId: x.tenantId, workspaceId: x.workspaceId });
      expect(await store.search.largestWorkspaces(10)).toEqual([
        { scope: scope(s.scopeA), chunks: 3 },
        { scope: scope(s.scopeB), chunks: 1 },
      ]);
      expect(await store.search.largestWorkspaces(1)).toEqual([{ scope: scope(s.scopeA), chunks: 3 }]);
    });

    it("reads the chunk after a chunk of the same document, within the scope only", async () => {
      const store = getStore();
      await store.search.setIndexInfo({ embedderId: 'e1', dimension: DIM });
      const s = await seedTwoTenants(store);
      const parts = ['1. Open Bills.', '2. Tap Refund.', '3. Confirm.'].map((text, ordinal) => ({ ...chunk('doc_steps', text), ordinal }));
      await store.search.replaceDocumentChunks(s.scopeA, 'doc_steps', parts);
      await store.search.replaceDocumentChunks(s.scopeA, 'doc_other', [{ ...chunk('doc_other', 'Another document'), ordinal: 1 }]);
      const next = await store.search.nextChunk(s.scopeA, parts[0]!.id);
      expect(next).toMatchObject({ id: parts[1]!.id, documentId: 'doc_steps', ordinal: 1, text: '2. Tap Refund.' });
      expect((await store.search.nextChunk(s.scopeA, parts[1]!.id))?.id).toBe(parts[2]!.id);
      expect(await store.search.nextChunk(s.scopeA, parts[2]!.id)).toBeNull();
      expect(await store.search.nextChunk(s.scopeB, parts[0]!.id)).toBeNull();
      expect(await store.search.nextChunk(s.scopeA2, parts[0]!.id)).toBeNull();
      expect(await store.search.nextChunk(s.scopeA, 'chk_missing')).toBeNull();
    });

    it('records the tokenizer version with the index', async () => {
      const store = getStore();
      await store.search.setIndexInfo({ embedderId: 'e1', dimension: DIM, tokenizer: 'tok-1/icu-1' });
      expect(await store.search.getIndexInfo()).toEqual({ embedderId: 'e1', dimension: DIM, tokenizer: 'tok-1/icu-1' });
      await store.search.reset({ embedderId: 'e2', dimension: DIM, tokenizer: 'tok-2/icu-1' });
      expect((await store.search.getIndexInfo())?.tokenizer).toBe('tok-2/icu-1');
    });

    it('lets an empty index switch embedders', async () => {
      const store = getStore();
      await store.search.setIndexInfo({ embedderId: 'e1', dimension: DIM });
      await store.search.setIndexInfo({ embedderId: 'e2', dimension: 8 });
      expect(await store.search.getIndexInfo()).toEqual({ embedderId: 'e2', dimension: 8 });
    });

    it('finds chunks lexically, by trigram and by vector, only within the tenant and workspace', async () => {
      const store = getStore();
      await store.search.setIndexInfo({ embedderId: 'e1', dimension: DIM });
      const s = await seedTwoTenants(store);
      await store.search.replaceDocumentChunks(s.scopeA, 'doc_a', [chunk('doc_a', 'Refunds arrive within seven business days', unit(1, 0, 0, 0))]);
      await store.search.replaceDocumentChunks(s.scopeA2, 'doc_a2', [chunk('doc_a2', 'Refunds for the second brand', unit(0.9, 0.1, 0, 0))]);
      await store.search.replaceDocumentChunks(s.scopeB, 'doc_b', [chunk('doc_b', 'Refunds of tenant B', unit(1, 0, 0, 0))]);

      const docsOf = async (hits: Promise<{ chunkId: string }[]>, scope = s.scopeA) =>
        (await store.search.getChunks(scope, (await hits).map((h) => h.chunkId))).map((c) => c.documentId).sort();
      expect(await docsOf(store.search.lexical(s.scopeA, q('refund'), 10))).toEqual(['doc_a']);
      expect(await docsOf(store.search.lexical(s.scopeA2, q('refund'), 10), s.scopeA2)).toEqual(['doc_a2']);
      expect(await docsOf(store.search.lexical(s.scopeB, q('refund'), 10), s.scopeB)).toEqual(['doc_b']);
      if (store.search.capabilities.trigram) expect(await docsOf(store.search.trigram(s.scopeA, ['efund'], 10))).toEqual(['doc_a']);
      if (store.search.capabilities.vectors) {
        expect(await docsOf(store.search.semantic(s.scopeA, unit(1, 0, 0, 0), 10))).toEqual(['doc_a']);
        expect(await docsOf(store.search.semantic(s.scopeB, unit(1, 0, 0, 0), 10), s.scopeB)).toEqual(['doc_b']);
      }
      // getChunks itself is scoped: tenant B cannot read tenant A's chunk by id.
      const [hitA] = await store.search.lexical(s.scopeA, q('refund'), 1);
      expect(await store.search.getChunks(s.scopeB, [hitA!.chunkId])).toEqual([]);
      expect(await store.search.getChunks(s.scopeA2, [hitA!.chunkId])).toEqual([]);
      expect(await store.search.countChunks(s.scopeA)).toBe(1);
    });

    it('ranks by BM25 and by cosine similarity', async () => {
      const store = getStore();
      await store.search.setIndexInfo({ embedderId: 'e1', dimension: DIM });
      const s = await seedTwoTenants(store);
      await store.search.replaceDocumentChunks(s.scopeA, 'doc_weak', [chunk('doc_weak', 'shipping is fast; returns take long and returns are free', unit(0, 1, 0, 0))]);
      await store.search.replaceDocumentChunks(s.scopeA, 'doc_strong', [chunk('doc_strong', 'Tracking shipping: shipping updates for every shipping label', unit(1, 0.1, 0, 0))]);
      const lexical = await store.search.lexical(s.scopeA, q('shipping'), 10);
      const chunks = await store.search.getChunks(s.scopeA, lexical.map((h) => h.chunkId));
      const byId = new Map(chunks.map((c) => [c.id, c.documentId]));
      expect(lexical.map((h) => byId.get(h.chunkId))).toEqual(['doc_strong', 'doc_weak']);
      expect(lexical[0]!.score).toBeGreaterThan(lexical[1]!.score);
      const semantic = await store.search.semantic(s.scopeA, unit(1, 0, 0, 0), 10);
      expect(semantic.map((h) => byId.get(h.chunkId))).toEqual(['doc_strong', 'doc_weak']);
      expect(semantic[0]!.score).toBeCloseTo(0.995, 2);
    });

    it('ranks chunks where query terms stand together above ones where they are apart', async () => {
      const store = getStore();
      await store.search.setIndexInfo({ embedderId: 'e1', dimension: DIM });
      const s = await seedTwoTenants(store);
      await store.search.replaceDocumentChunks(s.scopeA, 'doc_apart', [chunk('doc_apart', 'Gift wrapping with a greeting card.')]);
      await store.search.replaceDocumentChunks(s.scopeA, 'doc_near', [chunk('doc_near', 'Your gift card never expires.')]);
      const hits = await store.search.lexical(s.scopeA, q('gift card'), 10);
      const byId = new Map((await store.search.getChunks(s.scopeA, hits.map((h) => h.chunkId))).map((c) => [c.id, c.documentId]));
      expect(hits.map((h) => byId.get(h.chunkId))).toEqual(['doc_near', 'doc_apart']);
    });

    it('never lets FTS syntax in a query break or widen the match', async () => {
      const store = getStore();
      await store.search.setIndexInfo({ embedderId: 'e1', dimension: DIM });
      const s = await seedTwoTenants(store);
      await store.search.replaceDocumentChunks(s.scopeB, 'doc_b', [chunk('doc_b', 'secret of tenant b')]);
      for (const nasty of ['"', 'scope:*', 'NOT', 'a OR b', '*', ')(', 'secret"']) {
        await expect(store.search.lexical(s.scopeA, { terms: [nasty], pairs: [[nasty, nasty]], fragments: [] }, 10)).resolves.toEqual([]);
        if (store.search.capabilities.trigram) await expect(store.search.trigram(s.scopeA, [nasty + 'xyz'], 10)).resolves.toEqual([]);
      }
    });

    it('replaces a document’s chunks atomically and removes them', async () => {
      const store = getStore();
      await store.search.setIndexInfo({ embedderId: 'e1', dimension: DIM });
      const s = await seedTwoTenants(store);
      await store.search.replaceDocumentChunks(s.scopeA, 'doc_a', [chunk('doc_a', 'old words'), chunk('doc_a', 'more old words')]);
      await store.search.replaceDocumentChunks(s.scopeA, 'doc_a', [chunk('doc_a', 'new text')]);
      expect(await store.search.lexical(s.scopeA, q('old'), 10)).toEqual([]);
      expect(await store.search.lexical(s.scopeA, q('new'), 10)).toHaveLength(1);
      expect(await store.search.countChunks(s.scopeA)).toBe(1);
      const bad = { ...chunk('doc_a', 'wrong size'), vector: new Float32Array(3) };
      await expect(store.search.replaceDocumentChunks(s.scopeA, 'doc_a', [chunk('doc_a', 'fine'), bad])).rejects.toThrow();
      expect(await store.search.lexical(s.scopeA, q('new'), 10)).toHaveLength(1);
      await store.search.removeDocumentChunks(s.scopeA, 'doc_a');
      expect(await store.search.countChunks(s.scopeA)).toBe(0);
      expect(await store.search.semantic(s.scopeA, unit(1, 0, 0, 0), 10)).toEqual([]);
    });

    it('treats legacy chunks (no workspace) as a match in every workspace of their own tenant only', async () => {
      const store = getStore();
      await store.search.setIndexInfo({ embedderId: 'e1', dimension: DIM });
      const s = await seedTwoTenants(store);
      await store.search.insertLegacyChunk(s.a.id, 'doc_legacy', chunk('doc_legacy', 'legacy warranty terms', unit(0, 0, 1, 0)));
      for (const scope of [s.scopeA, s.scopeA2]) {
        expect(await store.search.lexical(scope, q('warranty'), 10)).toHaveLength(1);
        if (store.search.capabilities.vectors) expect(await store.search.semantic(scope, unit(0, 0, 1, 0), 10)).toHaveLength(1);
        if (store.search.capabilities.trigram) expect(await store.search.trigram(scope, ['warrant'], 10)).toHaveLength(1);
      }
      expect(await store.search.lexical(s.scopeB, q('warranty'), 10)).toEqual([]);
      if (store.search.capabilities.vectors) expect(await store.search.semantic(s.scopeB, unit(0, 0, 1, 0), 10)).toEqual([]);
      if (store.search.capabilities.trigram) expect(await store.search.trigram(s.scopeB, ['warrant'], 10)).toEqual([]);
      // Re-indexing the document gives it workspace metadata: it leaves the other workspace.
      await store.search.replaceDocumentChunks(s.scopeA, 'doc_legacy', [chunk('doc_legacy', 'legacy warranty terms', unit(0, 0, 1, 0))]);
      expect(await store.search.lexical(s.scopeA, q('warranty'), 10)).toHaveLength(1);
      expect(await store.search.lexical(s.scopeA2, q('warranty'), 10)).toEqual([]);
    });
  });

  describe('port methods', () => {
    it('reads result chunks with their documents as getChunks and the documents\' refs do, in scope only', async (ctx) => {
      const store = getStore();
      if (!store.search.getResultChunks) return ctx.skip('the search index offers no getResultChunks (core reads chunks and refs apart)');
      await store.search.setIndexInfo({ embedderId: 'e1', dimension: DIM });
      const s = await seedTwoTenants(store);
      const linked = makeDocument(s.a.id, s.aDefault.id, { url: 'https://help.test/refunds', audiences: ['internal', 'customers'] });
      const plain = makeDocument(s.a.id, s.aDefault.id);
      // A legacy chunk (no workspace) shows in every workspace of its tenant, its document only in the document's own.
      const elsewhere = makeDocument(s.a.id, s.aSecond.id, { url: 'https://other.test' });
      for (const d of [linked, plain, elsewhere]) await store.documents.insert(d);
      const chunks = [chunk(linked.id, 'refund one'), chunk(linked.id, 'refund two'), chunk(plain.id, 'refund three'), chunk('doc_missing', 'refund four')];
      await store.search.replaceDocumentChunks(s.scopeA, linked.id, chunks.slice(0, 2).map((c, i) => ({ ...c, ordinal: i })));
      await store.search.replaceDocumentChunks(s.scopeA, plain.id, [chunks[2]!]);
      await store.search.replaceDocumentChunks(s.scopeA, 'doc_missing', [chunks[3]!]);
      await store.search.replaceDocumentChunks(s.scopeA2, elsewhere.id, [chunk(elsewhere.id, 'refund five')]);
      await store.search.insertLegacyChunk(s.a.id, plain.id, chunk(plain.id, 'refund legacy'));
      const legacy = (await store.search.listLegacyChunks(0, 10)).map((c) => c.id);
      const ids = [...chunks.map((c) => c.id), ...legacy, 'chk_unknown'];

      const expected = async (scope: Scope) => {
        const read = await store.search.getChunks(scope, ids);
        const refs = new Map((await store.documents.getRefs(scope, read.map((c) => c.documentId))).map((d) => [d.id, d]));
        return read.map((c) => ({ ...c, document: refs.has(c.documentId) ? { url: refs.get(c.documentId)!.url, audiences: refs.get(c.documentId)!.audiences } : null }));
      };
      const byId = <T extends { id: string }>(rows: T[]) => [...rows].sort((x, y) => (x.id < y.id ? -1 : 1));
      const got = byId(await store.search.getResultChunks(s.scopeA, ids));
      expect(got).toEqual(byId(await expected(s.scopeA)));
      expect(got.map((c) => c.document?.url ?? null)).toEqual(byId([...chunks.map((c) => ({ id: c.id, url: c.documentId === linked.id ? 'https://help.test/refunds' : null })), ...legacy.map((id) => ({ id, url: null }))]).map((c) => c.url));
      expect(got.find((c) => c.id === chunks[0]!.id)!.document!.audiences).toEqual(['internal', 'customers']);
      expect(got.find((c) => c.id === chunks[3]!.id)!.document).toBeNull();
      expect(byId(await store.search.getResultChunks(s.scopeA2, ids))).toEqual(byId(await expected(s.scopeA2)));
      expect(await store.search.getResultChunks(s.scopeB, ids)).toEqual([]);
      expect(await store.search.getResultChunks(s.scopeA, [])).toEqual([]);
    });

    it('drops a legacy chunk by id, and only that one', async () => {
      const store = getStore();
      await store.search.setIndexInfo({ embedderId: 'e1', dimension: DIM });
      const s = await seedTwoTenants(store);
      await store.search.insertLegacyChunk(s.a.id, 'doc_gone', chunk('doc_gone', 'orphaned warranty text'));
      await store.search.insertLegacyChunk(s.b.id, 'doc_kept', chunk('doc_kept', 'kept warranty text'));
      const [gone, kept] = await store.search.listLegacyChunks(0, 10);
      expect([gone?.documentId, kept?.documentId]).toEqual(['doc_gone', 'doc_kept']);
      await store.search.removeLegacyChunk(gone!.id);
      expect((await store.search.listLegacyChunks(0, 10)).map((c) => c.id)).toEqual([kept!.id]);
      expect(await store.search.lexical(s.scopeA, q('warranty'), 10)).toEqual([]);
      expect(await store.search.lexical(s.scopeB, q('warranty'), 10)).toHaveLength(1);
      expect(await store.search.getChunks(s.scopeA, [gone!.id])).toEqual([]);
      // Gone already: a second removal changes nothing.
      await store.search.removeLegacyChunk(gone!.id);
      expect(await store.search.listLegacyChunks(0, 10)).toHaveLength(1);
    });

    it('warms a workspace index that then answers, and stays fresh after writes', async () => {
      const store = getStore();
      await store.search.setIndexInfo({ embedderId: 'e1', dimension: DIM });
      const s = await seedTwoTenants(store);
      await store.search.warm(s.scopeA2); // an empty workspace warms too
      await store.search.replaceDocumentChunks(s.scopeA, 'doc_1', [chunk('doc_1', 'warranty covers batteries')]);
      await store.search.replaceDocumentChunks(s.scopeB, 'doc_b', [chunk('doc_b', 'warranty of tenant B')]);
      await store.search.warm(s.scopeA);
      const ids = async (scope: Scope, text: string) => (await store.search.getChunks(scope, (await store.search.lexical(scope, q(text), 10)).map((h) => h.chunkId))).map((c) => c.documentId);
      expect(await ids(s.scopeA, 'warranty')).toEqual(['doc_1']);
      await store.search.replaceDocumentChunks(s.scopeA, 'doc_2', [chunk('doc_2', 'extended warranty')]);
      expect((await ids(s.scopeA, 'warranty')).sort()).toEqual(['doc_1', 'doc_2']);
      expect(await ids(s.scopeA2, 'warranty')).toEqual([]);
    });

    it('locates a tenant’s document in whichever workspace holds it, never another tenant’s', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const second = makeDocument(s.a.id, s.aSecond.id);
      const other = makeDocument(s.b.id, s.bDefault.id);
      await store.documents.insert(second);
      await store.documents.insert(other);
      expect((await store.documents.locate(s.a.id, second.id))?.workspaceId).toBe(s.aSecond.id);
      expect(await store.documents.locate(s.a.id, other.id)).toBeNull();
      expect(await store.documents.locate(s.b.id, second.id)).toBeNull();
      expect(await store.documents.locate(s.a.id, 'doc_missing')).toBeNull();
    });

    it('inserts a batch of documents all or none', async (ctx) => {
      const store = getStore();
      requireCapability(ctx, store.capabilities.batchInsert, 'capabilities.batchInsert');
      expect(typeof store.documents.insertMany).toBe('function');
      const s = await seedTwoTenants(store);
      const batch = [makeDocument(s.a.id, s.aDefault.id, { title: 'One' }), makeDocument(s.a.id, s.aDefault.id, { title: 'Two' })];
      await store.documents.insertMany!(batch);
      expect((await store.documents.getMany(s.scopeA, batch.map((d) => d.id))).map((d) => d.title).sort()).toEqual(['One', 'Two']);
      // One duplicate id fails the whole batch: the new document before it is not kept either.
      const fresh = makeDocument(s.a.id, s.aDefault.id, { title: 'Three' });
      await expect(store.documents.insertMany!([fresh, { ...batch[0]!, title: 'Again' }])).rejects.toThrow();
      expect(await store.documents.get(s.scopeA, fresh.id)).toBeNull();
      expect((await store.documents.get(s.scopeA, batch[0]!.id))?.title).toBe('One');
    });

    it('declares its capabilities, and declares batchInsert exactly when it has insertMany', () => {
      const store = getStore();
      for (const value of [store.capabilities.batchInsert, store.capabilities.sharedDatabase, store.search.capabilities.trigram, store.search.capabilities.vectors]) expect(typeof value).toBe('boolean');
      expect(typeof store.documents.insertMany === 'function').toBe(store.capabilities.batchInsert);
    });
  });

  describe('lexical statistics and freshness', () => {
    const rankingOf = async (store: Store, scope: Scope, query: string) => {
      const hits = await store.search.lexical(scope, q(query), 10);
      const docs = new Map((await store.search.getChunks(scope, hits.map((h) => h.chunkId))).map((c) => [c.id, c.documentId]));
      return hits.map((h) => ({ doc: docs.get(h.chunkId), score: Number(h.score.toFixed(9)) }));
    };
    const corpusA = [
      ['doc_1', 'Refunds for damaged parcels are paid within five days'],
      ['doc_2', 'Parcel tracking shows every step of the delivery'],
      ['doc_3', 'Damaged items: send a photo of the damaged parcel'],
      ['doc_4', 'Gift cards never expire and cover any parcel'],
    ] as const;

    it('ranks a workspace by its own statistics only, whatever other tenants and workspaces hold', async () => {
      const store = getStore();
      await store.search.setIndexInfo({ embedderId: 'e1', dimension: DIM });
      const s = await seedTwoTenants(store);
      for (const [id, text] of corpusA) await store.search.replaceDocumentChunks(s.scopeA, id, [chunk(id, text)]);
      const queries = ['damaged parcel refund', 'parcel delivery', 'gift card parcel'];
      const before = await Promise.all(queries.map((query) => rankingOf(store, s.scopeA, query)));
      expect(before[0]!.map((h) => h.doc)).toEqual(['doc_1', 'doc_3', 'doc_2', 'doc_4']);

      // Another tenant and another workspace of the same tenant fill up with the same words
      // (which would make them common, lowering their weight, under shared statistics).
      for (let i = 0; i < 40; i++) {
        await store.search.replaceDocumentChunks(s.scopeB, `doc_b${i}`, [chunk(`doc_b${i}`, `damaged parcel ${i % 2 ? 'refund' : 'delivery'} notes`)]);
        await store.search.replaceDocumentChunks(s.scopeA2, `doc_w${i}`, [chunk(`doc_w${i}`, 'parcel parcel gift card')]);
      }
      const after = await Promise.all(queries.map((query) => rankingOf(store, s.scopeA, query)));
      expect(after).toEqual(before);
      // The same corpus in tenant B's workspace alone ranks and scores exactly as it does in A's.
      const c = makeTenant('tenant-c');
      const cDefault = makeWorkspace(c.id, 'default');
      await store.tenants.insert(c);
      await store.workspaces.insert(cDefault);
      const scopeC = { tenantId: c.id, workspaceId: cDefault.id };
      for (const [id, text] of corpusA) await store.search.replaceDocumentChunks(scopeC, `${id}_copy`, [chunk(`${id}_copy`, text)]);
      const copy = await Promise.all(queries.map((query) => rankingOf(store, scopeC, query)));
      expect(copy.map((r) => r.map((h) => ({ ...h, doc: h.doc?.replace('_copy', '') })))).toEqual(before);
    });

    it('shows a write committed through another connection to the next search', async (ctx) => {
      const store = getStore();
      // A one-process backend (SQLite :memory:) has no other connection to see from.
      requireCapability(ctx, store.capabilities.sharedDatabase, 'capabilities.sharedDatabase');
      await store.search.setIndexInfo({ embedderId: 'e1', dimension: DIM });
      const s = await seedTwoTenants(store);
      await store.search.replaceDocumentChunks(s.scopeA, 'doc_1', [chunk('doc_1', 'warranty covers batteries')]);
      const peer = await openPeer();
      if (!peer) return ctx.skip('this backend handle opens no second connection (StoreHandle.openPeer)');
      try {
        // The peer caches the workspace, then this store writes: the peer's next search sees it.
        expect(await rankingOf(peer, s.scopeA, 'warranty')).toHaveLength(1);
        await store.search.replaceDocumentChunks(s.scopeA, 'doc_2', [chunk('doc_2', 'extended warranty for screens')]);
        expect((await rankingOf(peer, s.scopeA, 'warranty')).map((h) => h.doc).sort()).toEqual(['doc_1', 'doc_2']);
        expect(await rankingOf(peer, s.scopeA, 'screen')).toEqual(await rankingOf(store, s.scopeA, 'screen'));
        await store.search.replaceDocumentChunks(s.scopeA, 'doc_1', [chunk('doc_1', 'batteries are consumables')]);
        await store.search.removeDocumentChunks(s.scopeA, 'doc_2');
        expect(await rankingOf(peer, s.scopeA, 'warranty')).toEqual([]);
        expect((await rankingOf(peer, s.scopeA, 'batteries')).map((h) => h.doc)).toEqual(['doc_1']);
        // Adoption of a legacy chunk moves it out of the tenant's other workspace.
        await store.search.insertLegacyChunk(s.a.id, 'doc_legacy', chunk('doc_legacy', 'legacy manuals'));
        expect(await rankingOf(peer, s.scopeA2, 'manual')).toHaveLength(1);
        const [legacy] = await store.search.listLegacyChunks(0, 10);
        await store.search.adoptLegacyChunk(legacy!.id, s.aDefault.id, { lexicalTitle: 'titl', lexicalBody: 'legaci manual', vector: unit(1, 0, 0, 0) });
        expect(await rankingOf(peer, s.scopeA2, 'manual')).toEqual([]);
        expect(await rankingOf(peer, s.scopeA, 'manual')).toHaveLength(1);
        // A full reset empties every cached workspace.
        await store.search.reset({ embedderId: 'e2', dimension: DIM });
        expect(await rankingOf(peer, s.scopeA, 'batteries')).toEqual([]);
      } finally {
        await peer.close();
      }
    });

    it('prunes each tenant to its last changes; an index behind the raised floor rebuilds and misses nothing', async () => {
      const store = getStore();
      await store.search.setIndexInfo({ embedderId: 'e1', dimension: DIM });
      const s = await seedTwoTenants(store);
      await store.search.replaceDocumentChunks(s.scopeA, 'doc_1', [chunk('doc_1', 'warranty covers batteries')]);
      await store.search.replaceDocumentChunks(s.scopeB, 'doc_b', [chunk('doc_b', 'warranty of tenant B')]);
      expect(await rankingOf(store, s.scopeA, 'warranty')).toHaveLength(1); // cached here
      await store.search.replaceDocumentChunks(s.scopeA, 'doc_2', [chunk('doc_2', 'extended warranty for screens')]);
      await store.search.replaceDocumentChunks(s.scopeA, 'doc_3', [chunk('doc_3', 'warranty claims')]);
      await store.search.removeDocumentChunks(s.scopeA, 'doc_1');
      // A keeps its last change only, B its last one: the rest of both lists goes.
      expect(await store.search.pruneChanges(1)).toBeGreaterThanOrEqual(3);
      expect(await store.search.pruneChanges(1)).toBe(0);
      expect((await rankingOf(store, s.scopeA, 'warranty')).map((h) => h.doc).sort()).toEqual(['doc_2', 'doc_3']);
      expect((await rankingOf(store, s.scopeB, 'warranty')).map((h) => h.doc)).toEqual(['doc_b']);
      // Writes after the prune are still applied as changes.
      await store.search.replaceDocumentChunks(s.scopeA, 'doc_4', [chunk('doc_4', 'warranty for cables')]);
      expect((await rankingOf(store, s.scopeA, 'warranty')).map((h) => h.doc).sort()).toEqual(['doc_2', 'doc_3', 'doc_4']);
    });

    it('moves the search generation with every write a search answer shows, on every connection', async () => {
      const store = getStore();
      await store.search.setIndexInfo({ embedderId: 'e1', dimension: DIM });
      const s = await seedTwoTenants(store);
      const doc = makeDocument(s.a.id, s.aDefault.id);
      await store.documents.insert(doc);
      let last = await store.search.generation(s.a.id);
      const otherTenant = await store.search.generation(s.b.id);
      const moves = async (write: () => Promise<unknown>) => {
        await write();
        const now = await store.search.generation(s.a.id);
        const moved = now !== last;
        last = now;
        return moved;
      };
      const at = () => new Date().toISOString();
      expect(await moves(() => store.search.replaceDocumentChunks(s.scopeA, doc.id, [chunk(doc.id, 'warranty covers batteries')]))).toBe(true);
      expect(await moves(() => store.documents.update(s.scopeA, doc.id, { url: 'https://example.com/warranty', updatedAt: at() }))).toBe(true);
      expect(await moves(() => store.documents.update(s.scopeA, doc.id, { publicSurfaces: ['help_center'], updatedAt: at() }))).toBe(true);
      // Fields no answer shows leave it, as do reads.
      expect(await moves(() => store.documents.update(s.scopeA, doc.id, { metadata: { team: 'support' }, status: 'indexed', updatedAt: at() }))).toBe(false);
      expect(await moves(() => store.search.lexical(s.scopeA, q('warranty'), 10))).toBe(false);
      expect(await moves(() => store.search.removeDocumentChunks(s.scopeA, doc.id))).toBe(true);
      // Another tenant's generation is its own.
      expect(await store.search.generation(s.b.id)).toBe(otherTenant);
      // Another connection (a second process or node) reads the same generation and moves it.
      const peer = await openPeer();
      if (!peer) return;
      try {
        expect(await peer.search.generation(s.a.id)).toBe(last);
        await peer.search.replaceDocumentChunks(s.scopeA, doc.id, [chunk(doc.id, 'warranty again')]);
        expect(await store.search.generation(s.a.id)).not.toBe(last);
      } finally {
        await peer.close();
      }
    });

    it('never keeps rows of a rolled-back transaction', async () => {
      const store = getStore();
      await store.search.setIndexInfo({ embedderId: 'e1', dimension: DIM });
      const s = await seedTwoTenants(store);
      await store.search.replaceDocumentChunks(s.scopeA, 'doc_1', [chunk('doc_1', 'warranty covers batteries')]);
      expect(await rankingOf(store, s.scopeA, 'warranty')).toHaveLength(1);
      await store
        .transaction(async (tx) => {
          await tx.search.replaceDocumentChunks(s.scopeA, 'doc_2', [chunk('doc_2', 'warranty for screens')]);
          expect(await rankingOf(tx, s.scopeA, 'warranty')).toHaveLength(2);
          throw new Error('roll back');
        })
        .catch(() => undefined);
      expect(await rankingOf(store, s.scopeA, 'warranty')).toHaveLength(1);
      await store.search.replaceDocumentChunks(s.scopeA, 'doc_3', [chunk('doc_3', 'screens')]);
      expect((await rankingOf(store, s.scopeA, 'warranty')).map((h) => h.doc)).toEqual(['doc_1']);
    });
  });

  describe('ingest queue', () => {
    const lease = (now: string, minutes: number) => new Date(Date.parse(now) + minutes * 60_000).toISOString();

    it('claims pending documents once, under a lease that expires', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const a = makeDocument(s.a.id, s.aDefault.id);
      const b = makeDocument(s.b.id, s.bDefault.id);
      const done = makeDocument(s.a.id, s.aDefault.id, { status: 'indexed' });
      for (const d of [a, b, done]) await store.documents.insert(d);
      const now = '2030-01-01T00:00:00.000Z';
      const first = await store.documents.claimForIndexing({ now, leaseUntil: lease(now, 5), limit: 10 });
      expect(first.map((c) => c.doc.id).sort()).toEqual([a.id, b.id].sort());
      expect(first.every((c) => c.doc.status === 'indexing')).toBe(true);
      expect(await store.documents.claimForIndexing({ now, leaseUntil: lease(now, 5), limit: 10 })).toEqual([]);
      const later = lease(now, 6);
      const reclaimed = await store.documents.claimForIndexing({ now: later, leaseUntil: lease(later, 5), limit: 1 });
      expect(reclaimed).toHaveLength(1);
    });

    it('claims round-robin across tenants: a bulk import does not starve another tenant', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const bulk = [];
      for (let i = 0; i < 6; i++) bulk.push(makeDocument(s.a.id, s.aDefault.id, { updatedAt: `2030-01-01T00:00:0${i}.000Z` }));
      const other = makeDocument(s.b.id, s.bDefault.id, { updatedAt: '2030-01-01T00:00:09.000Z' });
      for (const d of [...bulk, other]) await store.documents.insert(d);
      const now = '2030-01-01T00:01:00.000Z';
      const claims = await store.documents.claimForIndexing({ now, leaseUntil: lease(now, 5), limit: 2 });
      expect(claims.map((c) => c.doc.id).sort()).toEqual([bulk[0]!.id, other.id].sort());
    });

    it('claims at most maxBytes of content (UTF-8), the first document always', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      // 3 bytes a character: 1,000 characters are 3,000 bytes.
      const docs = [0, 1, 2, 3].map((i) => makeDocument(s.a.id, s.aDefault.id, { contentMd: 'ข'.repeat(1_000), updatedAt: `2030-01-01T00:00:0${i}.000Z` }));
      for (const d of docs) await store.documents.insert(d);
      const now = '2030-01-01T00:01:00.000Z';
      const two = await store.documents.claimForIndexing({ now, leaseUntil: lease(now, 5), limit: 10, maxBytes: 6_500 });
      expect(two.map((c) => c.doc.id).sort()).toEqual([docs[0]!.id, docs[1]!.id].sort());
      expect(two.every((c) => c.doc.contentMd === docs[0]!.contentMd && c.doc.status === 'indexing')).toBe(true);
      const first = await store.documents.claimForIndexing({ now, leaseUntil: lease(now, 5), limit: 10, maxBytes: 100 });
      expect(first.map((c) => c.doc.id)).toEqual([docs[2]!.id]);
      const rest = await store.documents.claimForIndexing({ now, leaseUntil: lease(now, 5), limit: 10 });
      expect(rest.map((c) => c.doc.id)).toEqual([docs[3]!.id]);
    });

    it('renews leases of their holder only, and a restarted node reclaims its earlier incarnation\'s', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const docs = [makeDocument(s.a.id, s.aDefault.id), makeDocument(s.a.id, s.aDefault.id), makeDocument(s.b.id, s.bDefault.id)];
      for (const d of docs) await store.documents.insert(d);
      const now = '2030-01-01T00:00:00.000Z';
      const [mine] = await store.documents.claimForIndexing({ now, leaseUntil: lease(now, 1), limit: 1, ids: [docs[0]!.id], holder: 'node-a/run1/t0' });
      const [elsewhere] = await store.documents.claimForIndexing({ now, leaseUntil: lease(now, 1), limit: 1, ids: [docs[1]!.id], holder: 'node-b/run1/t0' });
      const [current] = await store.documents.claimForIndexing({ now, leaseUntil: lease(now, 1), limit: 1, ids: [docs[2]!.id], holder: 'node-a/run2/t0' });
      expect([mine, elsewhere, current].every(Boolean)).toBe(true);
      // Renewal: only the holder's own documents.
      expect(await store.documents.renewLeases('node-a/run1/t0', [docs[0]!.id, docs[1]!.id], lease(now, 10))).toBe(1);
      expect(await store.documents.claimForIndexing({ now: lease(now, 5), leaseUntil: lease(now, 6), limit: 10, ids: [docs[0]!.id] })).toEqual([]);
      expect(await store.documents.claimForIndexing({ now: lease(now, 5), leaseUntil: lease(now, 6), limit: 10, ids: [docs[1]!.id] })).toHaveLength(1);
      // node-a restarted as run2: run1's lease comes back to the queue at once; run2's and node-b's stay.
      expect(await store.documents.reclaimLeases('node-a', 'node-a/run2/')).toBe(1);
      expect((await store.documents.get(s.scopeA, docs[0]!.id))?.status).toBe('pending');
      expect((await store.documents.get(s.scopeB, docs[2]!.id))?.status).toBe('indexing');
      expect(await store.documents.reclaimLeases('node', 'node/x/')).toBe(0); // a prefix of another node's name is not that node
    });

    it('requeues every document of a tenant, voiding claims in flight', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const a = makeDocument(s.a.id, s.aDefault.id, { status: 'indexed' });
      const b = makeDocument(s.b.id, s.bDefault.id, { status: 'failed', error: 'x' });
      for (const d of [a, b]) await store.documents.insert(d);
      expect(await store.documents.requeueAll('2030-01-01T00:00:00.000Z', s.a.id)).toBe(1);
      expect((await store.documents.get(s.scopeA, a.id))?.status).toBe('pending');
      expect((await store.documents.get(s.scopeB, b.id))?.status).toBe('failed');
      expect(await store.documents.requeueAll('2030-01-01T00:00:00.000Z')).toBe(2);
      expect(await store.documents.get(s.scopeB, b.id)).toMatchObject({ status: 'pending', error: null });
    });

    it('claims only the requested ids', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const a = makeDocument(s.a.id, s.aDefault.id);
      const b = makeDocument(s.a.id, s.aDefault.id);
      for (const d of [a, b]) await store.documents.insert(d);
      const now = '2030-01-01T00:00:00.000Z';
      const claims = await store.documents.claimForIndexing({ now, leaseUntil: lease(now, 5), limit: 10, ids: [b.id] });
      expect(claims.map((c) => c.doc.id)).toEqual([b.id]);
    });

    it('records the outcome only while the claimed revision is current', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const a = makeDocument(s.a.id, s.aDefault.id);
      await store.documents.insert(a);
      const now = '2030-01-01T00:00:00.000Z';
      const [claim] = await store.documents.claimForIndexing({ now, leaseUntil: lease(now, 5), limit: 10 });
      // An edit while indexing: the stale outcome is refused and the document is queued again.
      await store.documents.update(s.scopeA, a.id, { contentMd: 'edited', status: 'pending', updatedAt: now, requeue: true });
      expect(await store.documents.completeIndexing(s.scopeA, a.id, claim!.revision, { status: 'indexed' }, now)).toBe(false);
      expect((await store.documents.get(s.scopeA, a.id))?.status).toBe('pending');
      const [again] = await store.documents.claimForIndexing({ now, leaseUntil: lease(now, 5), limit: 10 });
      expect(again!.revision).toBeGreaterThan(claim!.revision);
      expect(await store.documents.completeIndexing(s.scopeB, a.id, again!.revision, { status: 'indexed' }, now)).toBe(false);
      expect(await store.documents.completeIndexing(s.scopeA, a.id, again!.revision, { status: 'failed', error: 'embedder down' }, now)).toBe(true);
      expect(await store.documents.get(s.scopeA, a.id)).toMatchObject({ status: 'failed', error: 'embedder down' });
    });
  });
}
