import { describe, expect, it } from 'vitest';
import { HashEmbedder, silentLogger, workspaceCleanup, type JobContext, type Store } from '@panya/core';
import { seedTwoTenants, seedWorkspaceData } from '@panya/core/testing';
import { openSqliteStore } from '@panya/store-sqlite';

const DAY = 86_400_000;
const deletedAt = '2030-01-01T00:00:00.000Z';

function context(store: Store, budgetMs?: number, tenantId?: string): JobContext {
  return { store, embedder: new HashEmbedder(), logger: silentLogger, ensureIndex: async () => {}, meterEventNames: {}, ...(budgetMs !== undefined ? { budgetMs } : {}), ...(tenantId ? { tenantId } : {}) };
}

/** A store whose purge steps are small and slow, so a run's time budget ends mid-workspace. */
function slowPurges(store: Store): Store {
  const workspaces = Object.create(store.workspaces) as Store['workspaces'];
  workspaces.purge = async (tenantId, id) => {
    await new Promise((r) => setTimeout(r, 15));
    return store.workspaces.purge(tenantId, id, 2);
  };
  return Object.assign(Object.create(store) as Store, { workspaces });
}

describe('workspace-cleanup job', () => {
  it('leaves workspaces inside their 30 days alone and hard-deletes them after', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    await store.search.setIndexInfo({ embedderId: 'e1', dimension: 4 });
    const s = await seedTwoTenants(store);
    await seedWorkspaceData(store, s.a.id, s.aSecond.id, 'gone');
    await store.workspaces.update(s.a.id, s.aSecond.id, { deletedAt, updatedAt: deletedAt });
    const early = (await workspaceCleanup(context(store), new Date(Date.parse(deletedAt) + 30 * DAY - 1)))._unsafeUnwrap();
    expect(early).toMatchObject({ scanned: 0, hardDeleted: 0, done: true });
    expect(await store.workspaces.get(s.a.id, s.aSecond.id)).not.toBeNull();
    const due = (await workspaceCleanup(context(store), new Date(Date.parse(deletedAt) + 30 * DAY)))._unsafeUnwrap();
    expect(due).toMatchObject({ scanned: 1, hardDeleted: 1, done: true, rowsDeleted: { documents: 2, chunks: 3, workspaces: 1 } });
    expect(await store.workspaces.get(s.a.id, s.aSecond.id)).toBeNull();
    await store.close();
  });

  it('stops when its time budget runs out and the next run finishes the same workspace', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    await store.search.setIndexInfo({ embedderId: 'e1', dimension: 4 });
    const s = await seedTwoTenants(store);
    await seedWorkspaceData(store, s.a.id, s.aSecond.id, 'gone');
    await store.workspaces.update(s.a.id, s.aSecond.id, { deletedAt, updatedAt: deletedAt });
    const later = new Date(Date.parse(deletedAt) + 31 * DAY);
    const first = (await workspaceCleanup(context(slowPurges(store), 40), later))._unsafeUnwrap();
    expect(first).toMatchObject({ hardDeleted: 0, done: false });
    expect(first.workspaces).toEqual([expect.objectContaining({ workspaceId: s.aSecond.id, hardDeleted: false })]);
    expect(await store.workspaces.get(s.a.id, s.aSecond.id)).not.toBeNull();
    const second = (await workspaceCleanup(context(slowPurges(store)), later))._unsafeUnwrap();
    expect(second).toMatchObject({ hardDeleted: 1, done: true });
    const total = (t: string) => (first.rowsDeleted[t] ?? 0) + (second.rowsDeleted[t] ?? 0);
    expect([total('documents'), total('chunks'), total('messages'), total('workspaces')]).toEqual([2, 3, 2, 1]);
    expect(await store.workspaces.get(s.a.id, s.aSecond.id)).toBeNull();
    await store.close();
  });
});
