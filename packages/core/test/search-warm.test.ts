import { describe, expect, it, vi } from 'vitest';
import { createEngine, type Scope } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { engineInternals } from '@panya/core/testing';

describe('search.warm', () => {
  it('builds the index of each live workspace holding chunks, up to the limit, and stops when aborted', async () => {
    const engine = createEngine({ store: openSqliteStore({ path: ':memory:' }) });
    try {
      const { tenant } = (await engine.tenancy.createTenant({ slug: 'acme', plan: 'enterprise' }))._unsafeUnwrap();
      const ctx = (await engine.access.system('acme'))._unsafeUnwrap();
      (await engine.documents.bulk(ctx, { create: [{ title: 'Refunds', contentMd: 'Refunds take five days.' }] }))._unsafeUnwrap();
      const workspaces = await engineInternals(engine).store.workspaces.list(tenant.id);
      await engine.ingest.drain();
      const other = (await engine.tenancy.createTenant({ slug: 'other', plan: 'enterprise' }))._unsafeUnwrap();
      const otherCtx = (await engine.access.system('other'))._unsafeUnwrap();
      (await engine.documents.bulk(otherCtx, { create: [{ title: 'Shipping', contentMd: 'Parcels ship daily.' }] }))._unsafeUnwrap();
      await engine.ingest.drain();
      await engine.tenancy.createTenant({ slug: 'idle', plan: 'free' }); // no documents: nothing to build

      const warm = vi.spyOn(engineInternals(engine).store.search, 'warm');
      expect(await engine.search.warm()).toBe(2);
      expect(warm.mock.calls.map(([scope]) => (scope as Scope).tenantId).sort()).toEqual([tenant.id, other.tenant.id].sort());
      expect(warm.mock.calls.map(([scope]) => (scope as Scope).workspaceId)).toContain(workspaces[0]!.id);
      warm.mockClear();
      expect(await engine.search.warm({ limit: 1 })).toBe(1);
      expect(await engine.search.warm({ signal: AbortSignal.abort() })).toBe(0);
      expect(warm).toHaveBeenCalledTimes(1);
      // Warmed indexes answer.
      expect((await engine.search.retrieve(ctx.scope, 'refunds', 5)).length).toBe(1);

      // The largest workspace is read first: its first search would cost most.
      (await engine.documents.bulk(otherCtx, { create: [{ title: 'Returns', contentMd: 'Returns within 30 days.' }, { title: 'Tracking', contentMd: 'Track parcels online.' }] }))._unsafeUnwrap();
      await engine.ingest.drain();
      warm.mockClear();
      expect(await engine.search.warm({ limit: 1 })).toBe(1);
      expect((warm.mock.calls[0]![0] as Scope).tenantId).toBe(other.tenant.id);
      expect((await engine.search.warm()) > 0).toBe(true);
      expect((warm.mock.calls[1]![0] as Scope).tenantId).toBe(other.tenant.id);
      expect((warm.mock.calls[2]![0] as Scope).tenantId).toBe(tenant.id);

      // A deleted workspace is not read, however large.
      const bulky = (await engine.workspaces.create(otherCtx, { slug: 'bulky', name: 'Bulky' }))._unsafeUnwrap();
      const bulkyCtx = (await engine.access.system('other', 'bulky'))._unsafeUnwrap();
      (await engine.documents.bulk(bulkyCtx, { create: Array.from({ length: 6 }, (_, i) => ({ title: `Page ${i}`, contentMd: `Page ${i} text.` })) }))._unsafeUnwrap();
      await engine.ingest.drain();
      warm.mockClear();
      await engine.search.warm({ limit: 1 });
      expect((warm.mock.calls[0]![0] as Scope).workspaceId).toBe(bulky.id);
      (await engine.workspaces.delete(otherCtx, bulky.id))._unsafeUnwrap();
      warm.mockClear();
      expect(await engine.search.warm()).toBe(2);
      expect(warm.mock.calls.map(([scope]) => (scope as Scope).workspaceId)).not.toContain(bulky.id);
    } finally {
      await engine.close();
    }
  });
});
