import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { engineInternals } from '@panya/core/testing';

type Principal = Parameters<Engine['access']['resolve']>[0];

/** Two engines over one database file: two processes (or nodes), each resolving requests with what it read before. */
describe('tenant and workspace resolution, kept while the tenant version holds', () => {
  let dir: string;
  let a: Engine;
  let b: Engine;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'panya-access-cache-'));
    a = createEngine({ store: openSqliteStore({ path: join(dir, 'panya.db') }) });
    b = createEngine({ store: openSqliteStore({ path: join(dir, 'panya.db') }) });
  });

  afterEach(async () => {
    await a.close();
    await b.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function setUp() {
    const { tenant } = (await a.tenancy.createTenant({ slug: 'acme', plan: 'business' }))._unsafeUnwrap();
    const principal: Principal = { kind: 'api_key', id: 'key_test', tenantId: tenant.id, workspaceId: null, scopes: ['read', 'write', 'admin'] };
    const owner = (await a.access.system('acme'))._unsafeUnwrap();
    return { tenant, principal, owner };
  }

  /** Counts the records `b` reads to resolve (its version reads are not counted). */
  function countReads(engine: Engine) {
    const store = engineInternals(engine).store;
    const counter = { reads: 0 };
    const { get } = store.tenants;
    store.tenants.get = (id) => (counter.reads++, get.call(store.tenants, id));
    const { getDefault, getBySlug } = store.workspaces;
    store.workspaces.getDefault = (t) => (counter.reads++, getDefault.call(store.workspaces, t));
    store.workspaces.getBySlug = (t, s) => (counter.reads++, getBySlug.call(store.workspaces, t, s));
    return counter;
  }

  it('reads the records once, then again only after a write anywhere to the tenant or its workspaces', async () => {
    const { principal, owner } = await setUp();
    const counter = countReads(b);
    for (let i = 0; i < 5; i++) expect((await b.access.resolve(principal, {}))._unsafeUnwrap().workspace.slug).toBe('default');
    expect(counter.reads).toBe(2);

    // A workspace created, then deleted, in the other process: addressed by slug, found, then gone.
    const created = (await a.workspaces.create(owner, { slug: 'support', name: 'Support' }))._unsafeUnwrap();
    expect((await b.access.resolve(principal, { tenantSlug: 'acme', workspaceSlug: 'support' }))._unsafeUnwrap().workspace.id).toBe(created.id);
    (await a.workspaces.delete(owner, created.id))._unsafeUnwrap();
    expect((await b.access.resolve(principal, { tenantSlug: 'acme', workspaceSlug: 'support' }))._unsafeUnwrapErr().code).toBe('not_found');

    // A plan change in the other process: the next request sees it.
    (await a.tenancy.changePlan(principal.tenantId, { plan: 'free' }))._unsafeUnwrap();
    expect((await b.access.resolve(principal, {}))._unsafeUnwrap().tenant.plan).toBe('free');
    // Two records per version seen: the first, the workspace created, deleted, and the plan changed.
    expect(counter.reads).toBe(8);
  });

  it('a workspace suspended elsewhere refuses at once; an erased tenant is unknown at once', async () => {
    const { tenant, principal } = await setUp();
    const ws = (await b.access.resolve(principal, {}))._unsafeUnwrap().workspace;
    await engineInternals(a).store.workspaces.update(tenant.id, ws.id, { suspendedAt: new Date().toISOString(), updatedAt: new Date().toISOString() });
    expect((await b.access.resolve(principal, {})).isErr()).toBe(true);
    await engineInternals(a).store.transaction((tx) => tx.tenants.erase(tenant.id));
    expect((await b.access.resolve(principal, {}))._unsafeUnwrapErr().code).toBe('unauthorized');
  });

  it('a context handed out is a copy: changing it changes nothing the next request sees', async () => {
    const { principal } = await setUp();
    const first = (await b.access.resolve(principal, {}))._unsafeUnwrap();
    first.tenant.plan = 'enterprise';
    first.workspace.slug = 'changed';
    const again = (await b.access.resolve(principal, {}))._unsafeUnwrap();
    expect([again.tenant.plan, again.workspace.slug]).toEqual(['business', 'default']);
  });
});
