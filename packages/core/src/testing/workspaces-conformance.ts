/** Workspace lifecycle in the store: soft delete, expiry listing, and the hard-delete cascade. */
import { describe, expect, it } from 'vitest';
import type { Store } from '../ports/store.js';
import { createIds } from '../system.js';
import { searchTerms } from '../text/query.js';
import { makeDocument, makeTenant, makeWorkspace, seedTwoTenants } from './fixtures.js';
import { chunk } from './search-conformance.js';
import { chainEntry } from '../audit/chain.js';
import { WORKSPACE_KEPT } from '../rows/workspace-purge.js';

/** What the suite needs to see of a backend's schema: the tables with `workspace_id` and the cascade list. */
export interface SchemaProbe {
  workspaceScopedTables(): Promise<string[]>;
  /** The store's cascade list (every table a hard-deleted workspace's rows are removed from). */
  cascadeTables: readonly string[];
  countWorkspaceRows(table: string, workspaceId: string): Promise<number>;
}

const ids = createIds();
const at = (day: number) => new Date(Date.UTC(2030, 0, day)).toISOString();

/** One row in every workspace-scoped table, for one workspace. */
export async function seedWorkspaceData(store: Store, tenantId: string, workspaceId: string, word: string) {
  const scope = { tenantId, workspaceId };
  const doc = makeDocument(tenantId, workspaceId, { title: word, contentMd: `${word} body` });
  await store.documents.insert(doc);
  await store.search.replaceDocumentChunks(scope, doc.id, [chunk(doc.id, `${word} alpha`), chunk(doc.id, `${word} beta`)]);
  // A chunk written before workspaces existed, of a document that lives in this workspace.
  const legacyDoc = makeDocument(tenantId, workspaceId, { title: `${word} legacy` });
  await store.documents.insert(legacyDoc);
  await store.search.insertLegacyChunk(tenantId, legacyDoc.id, chunk(legacyDoc.id, `${word} legacy`));
  const conversationId = ids.next('conv');
  await store.conversations.insert({ id: conversationId, tenantId, workspaceId, locale: 'en', hasGroundedAnswer: false, hasThumbsDown: false, handedOff: false, createdAt: at(1), lastMessageAt: at(1) });
  for (const role of ['user', 'assistant'] as const) {
    await store.conversations.appendMessage(scope, { id: ids.next('msg'), conversationId, tenantId, workspaceId, role, content: word, citations: [], grounded: null, createdAt: at(1) });
  }
  await store.usage.recordQuery({ id: ids.next('evt'), tenantId, workspaceId, keyId: null, kind: 'search', tool: null, billingPeriod: '2030-01', createdAt: at(1) });
  await store.usage.recordUsage({ id: ids.next('evt'), tenantId, workspaceId, meter: 'contextualization', quantity: 1, billingPeriod: '2030-01', createdAt: at(1), data: {} });
  await store.connectors.recordEvent(tenantId, workspaceId, `evt-${word}-${workspaceId}`, at(1));
  const keyId = ids.next('key');
  await store.apiKeys.insert({ id: keyId, tenantId, kind: 'secret', workspaceId, name: word, prefix: 'svc_live_abcd', secretHash: `${word}`.padEnd(64, '0').slice(0, 64), scopes: ['read'], createdAt: at(1), revokedAt: null });
  const userId = ids.next('usr');
  await store.users.insert({ id: userId, email: `${word}-${userId}@example.com`, passwordHash: 'x', createdAt: at(1) });
  await store.users.addMembership({ id: ids.next('mem'), userId, tenantId, workspaceId, role: 'editor', createdAt: at(1) });
  await store.audit.append(tenantId, (last) => chainEntry(last, { id: ids.next('evt'), tenantId, workspaceId, type: 'doc.reindex', actor: 'system', actorKind: 'system', subjectId: doc.id, data: {}, before: null, after: null, createdAt: at(1) }));
  return { doc, legacyDoc, conversationId, keyId, userId };
}

export function workspacesSuite(getStore: () => Store, getProbe: () => SchemaProbe): void {
  describe('workspace lifecycle', () => {
    it('updates name, accent and the soft-delete marker within the tenant only', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      expect(await store.workspaces.update(s.b.id, s.aSecond.id, { name: 'x', updatedAt: at(2) })).toBeNull();
      const renamed = await store.workspaces.update(s.a.id, s.aSecond.id, { name: 'Brand', brandAccent: '#112233', updatedAt: at(2) });
      expect(renamed).toEqual({ ...s.aSecond, name: 'Brand', brandAccent: '#112233', updatedAt: at(2) });
      const deleted = await store.workspaces.update(s.a.id, s.aSecond.id, { deletedAt: at(3), updatedAt: at(3) });
      expect(deleted).toMatchObject({ name: 'Brand', deletedAt: at(3) });
      expect((await store.workspaces.list(s.a.id)).map((w) => w.slug)).toEqual(['default']);
      expect((await store.workspaces.list(s.a.id, { includeDeleted: true })).map((w) => [w.slug, w.deletedAt])).toEqual([
        ['default', null],
        ['second', at(3)],
      ]);
      // The slug stays taken while the workspace is soft-deleted.
      await expect(store.workspaces.insert(makeWorkspace(s.a.id, 'second'))).rejects.toThrow();
      expect(await store.workspaces.update(s.a.id, s.aSecond.id, { deletedAt: null, updatedAt: at(4) })).toMatchObject({ deletedAt: null });
    });

    it('lists soft-deleted workspaces due for cleanup, oldest first, per tenant or all', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const third = makeWorkspace(s.a.id, 'third', { deletedAt: at(1) });
      const bSecond = makeWorkspace(s.b.id, 'second', { deletedAt: at(5) });
      await store.workspaces.insert(third);
      await store.workspaces.insert(bSecond);
      await store.workspaces.update(s.a.id, s.aSecond.id, { deletedAt: at(3), updatedAt: at(3) });
      expect((await store.workspaces.listDeletedBefore(at(4), 10)).map((w) => w.id)).toEqual([third.id, s.aSecond.id]);
      expect((await store.workspaces.listDeletedBefore(at(9), 1)).map((w) => w.id)).toEqual([third.id]);
      expect((await store.workspaces.listDeletedBefore(at(9), 10, s.b.id)).map((w) => w.id)).toEqual([bSecond.id]);
      expect(await store.workspaces.listDeletedBefore(at(0), 10)).toEqual([]);
    });

    it('lists every tenant by slug', async () => {
      const store = getStore();
      for (const slug of ['zeta', 'alpha']) await store.tenants.insert(makeTenant(slug));
      expect((await store.tenants.list()).map((t) => t.slug)).toEqual(['alpha', 'zeta']);
    });

    it('covers every table with a workspace_id column in the cascade list', async () => {
      const probe = getProbe();
      const tables = await probe.workspaceScopedTables();
      expect(tables.length).toBeGreaterThanOrEqual(8);
      expect(tables.filter((t) => !probe.cascadeTables.includes(t) && !WORKSPACE_KEPT.includes(t))).toEqual([]);
    });

    it('isolates two workspaces of one tenant on every read path (legacy chunks are the one exception)', async () => {
      const store = getStore();
      await store.search.setIndexInfo({ embedderId: 'e1', dimension: 4 });
      const s = await seedTwoTenants(store);
      const one = await seedWorkspaceData(store, s.a.id, s.aDefault.id, 'kiwi');
      const two = await seedWorkspaceData(store, s.a.id, s.aSecond.id, 'mango');
      const sides = [
        { scope: s.scopeA, own: one, foreign: two, word: 'kiwi', foreignWord: 'mango' },
        { scope: s.scopeA2, own: two, foreign: one, word: 'mango', foreignWord: 'kiwi' },
      ];
      const legacyIds = new Set((await store.search.listLegacyChunks(0, 100)).map((c) => c.id));
      for (const { scope, own, foreign, word, foreignWord } of sides) {
        // documents
        expect(await store.documents.get(scope, foreign.doc.id)).toBeNull();
        expect((await store.documents.getMany(scope, [own.doc.id, foreign.doc.id])).map((d) => d.id)).toEqual([own.doc.id]);
        expect((await store.documents.list(scope, { limit: 100 })).items.map((d) => d.id).sort()).toEqual([own.doc.id, own.legacyDoc.id].sort());
        expect(await store.documents.countByStatus(scope)).toMatchObject({ pending: 2 });
        expect(await store.documents.update(scope, foreign.doc.id, { title: 'x', updatedAt: at(2) })).toBeNull();
        expect(await store.documents.delete(scope, foreign.doc.id)).toBe(false);
        // chunks: lexical, trigram, vectors, hydration, counts — only legacy chunks cross over
        const lexical = await store.search.lexical(scope, { ...searchTerms(foreignWord), fragments: [] }, 10);
        const trigram = await store.search.trigram(scope, [foreignWord], 10);
        const semantic = await store.search.semantic(scope, new Float32Array([1, 0, 0, 0]), 100);
        for (const hit of [...lexical, ...trigram]) expect(legacyIds.has(hit.chunkId)).toBe(true);
        const chunks = await store.search.getChunks(scope, semantic.map((h) => h.chunkId));
        for (const c of chunks) expect(c.workspaceId === scope.workspaceId || (c.workspaceId === null && legacyIds.has(c.id))).toBe(true);
        expect(chunks.filter((c) => c.workspaceId === null)).toHaveLength(2); // both workspaces' legacy chunks
        expect(await store.search.countChunks(scope)).toBe(2 + 2);
        expect((await store.search.lexical(scope, { ...searchTerms(word), fragments: [] }, 10)).length).toBe(3);
        // conversations and messages
        expect(await store.conversations.get(scope, foreign.conversationId)).toBeNull();
        expect(await store.conversations.messages(scope, foreign.conversationId, 10)).toEqual([]);
        expect(await store.conversations.messages(scope, own.conversationId, 10)).toHaveLength(2);
      }
    });

    it('refuses to purge a live workspace', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      await expect(store.workspaces.purge(s.a.id, s.aSecond.id, 10)).rejects.toThrow(/not soft-deleted/);
      expect(await store.workspaces.get(s.a.id, s.aSecond.id)).not.toBeNull();
    });

    it('hard-deletes everything under a soft-deleted workspace in bounded batches, leaving the others whole', async () => {
      const store = getStore();
      const probe = getProbe();
      await store.search.setIndexInfo({ embedderId: 'e1', dimension: 4 });
      const s = await seedTwoTenants(store);
      const gone = await seedWorkspaceData(store, s.a.id, s.aSecond.id, 'gone');
      await seedWorkspaceData(store, s.a.id, s.aDefault.id, 'kept');
      await seedWorkspaceData(store, s.b.id, s.bDefault.id, 'orchid');
      await store.workspaces.update(s.a.id, s.aSecond.id, { deletedAt: at(1), updatedAt: at(1) });
      const tables = await probe.workspaceScopedTables();
      const before = Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await probe.countWorkspaceRows(t, s.aDefault.id)] as const)));

      const totals: Record<string, number> = {};
      let steps = 0;
      for (let done = false; !done; steps++) {
        expect(steps).toBeLessThan(50);
        const step = await store.workspaces.purge(s.a.id, s.aSecond.id, 3);
        expect(Object.values(step.deleted).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(3 + 2); // chunks go per document
        for (const [t, n] of Object.entries(step.deleted)) totals[t] = (totals[t] ?? 0) + n;
        done = step.done;
      }
      expect(steps).toBeGreaterThan(3);
      expect(totals).toMatchObject({ chunks: 3, messages: 2, conversations: 1, documents: 2, api_query_events: 1, usage_records: 1, api_keys: 1, memberships: 1, workspaces: 1 });
      // The tenant's audit chain keeps the workspace's entries.
      expect(totals.audit_events).toBeUndefined();
      expect(await probe.countWorkspaceRows('audit_events', s.aSecond.id)).toBe(1);
      expect(await store.workspaces.get(s.a.id, s.aSecond.id)).toBeNull();
      for (const t of tables.filter((t) => !WORKSPACE_KEPT.includes(t))) expect([t, await probe.countWorkspaceRows(t, s.aSecond.id)]).toEqual([t, 0]);
      // Lexical, trigram and vector entries went with the chunks (legacy ones of its documents too).
      const scope = s.scopeA2;
      expect(await store.search.lexical(scope, { ...searchTerms('gone'), fragments: [] }, 10)).toEqual([]);
      expect(await store.search.trigram(scope, ['gone'], 10)).toEqual([]);
      expect((await store.search.listLegacyChunks(0, 100)).map((c) => c.documentId)).not.toContain(gone.legacyDoc.id);
      expect(await store.apiKeys.findByHash('gone'.padEnd(64, '0'))).toBeNull();
      expect(await store.users.get(gone.userId)).not.toBeNull(); // the user outlives a workspace membership

      // Nothing else moved: the tenant's other workspace and the other tenant are whole.
      for (const t of tables) expect([t, await probe.countWorkspaceRows(t, s.aDefault.id)]).toEqual([t, before[t]]);
      expect((await store.search.lexical(s.scopeA, { ...searchTerms('kept'), fragments: [] }, 10)).length).toBe(3);
      expect((await store.search.lexical(s.scopeB, { ...searchTerms('orchid'), fragments: [] }, 10)).length).toBe(3);
      expect(await store.workspaces.get(s.a.id, s.aDefault.id)).not.toBeNull();
      // Purging a workspace that is already gone is a no-op.
      expect(await store.workspaces.purge(s.a.id, s.aSecond.id, 3)).toEqual({ deleted: {}, done: true });
    });
  });
}
