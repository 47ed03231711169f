import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { buildProgram } from '@panya/cli';

let dir: string;
let db: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'panya-operator-'));
  db = join(dir, 'panya.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function run(...args: string[]) {
  const out: string[] = [];
  await buildProgram({ out: (s) => out.push(s), err: () => {} }, {}).parseAsync(['node', 'panya', ...args, '--db', db]);
  return out.join('\n');
}
const json = async (...args: string[]) => JSON.parse(await run(...args, '--json'));

/** Searches with the key until the first refusal; how many were allowed. */
async function searchesAllowed(engine: Engine, key: string, max: number): Promise<number> {
  const principal = (await engine.apiKeys.authenticate(key))._unsafeUnwrap();
  const ctx = (await engine.access.resolve(principal, {}))._unsafeUnwrap();
  for (let i = 0; i < max; i++) {
    const res = await engine.api.search(ctx, { query: 'anything' });
    if (res.isErr()) {
      expect(res.error.code).toBe('rate_limited');
      return i;
    }
  }
  return max;
}

describe('panya workspace', () => {
  it('names a brand: tenant create --name, workspace update/rename, each shown by workspace list', async () => {
    const created = await json('tenant', 'create', '--slug', 'acme', '--plan', 'business', '--name', 'Acme Thailand', '--brand-accent', '#0F766E');
    expect(created.workspace).toMatchObject({ slug: 'default', name: 'Acme Thailand', brandAccent: '#0f766e' });
    await run('workspace', 'create', '--tenant', 'acme', '--slug', 'outlet');
    expect(await run('workspace', 'rename', '--tenant', 'acme', '--slug', 'outlet', '--name', 'Acme Outlet')).toMatch(/^Updated workspace outlet\t\S+\tAcme Outlet\t/);
    expect(await json('workspace', 'update', '--tenant', 'acme', '--name', 'Acme TH', '--brand-accent', 'none')).toMatchObject({ slug: 'default', name: 'Acme TH', brandAccent: null });
    const names = Object.fromEntries(((await json('workspace', 'list', '--tenant', 'acme')) as { slug: string; name: string }[]).map((w) => [w.slug, w.name]));
    expect(names).toEqual({ default: 'Acme TH', outlet: 'Acme Outlet' });
    await expect(run('workspace', 'update', '--tenant', 'acme', '--slug', 'outlet')).rejects.toThrow(/--name or --brand-accent/);
    await expect(run('workspace', 'update', '--tenant', 'acme', '--brand-accent', 'teal')).rejects.toThrow(/^Tenant "acme", workspace "default": --brand-accent: a #rrggbb colour$/);
    await expect(run('tenant', 'create', '--slug', 'beta', '--name', ' ')).rejects.toThrow(/name/);
  });

  it('creates, lists, deletes and restores workspaces, with errors naming the tenant and slug', async () => {
    await run('tenant', 'create', '--slug', 'acme', '--plan', 'business');
    const created = await json('workspace', 'create', '--tenant', 'acme', '--slug', 'brand-b', '--name', 'Brand B', '--brand-accent', '#A0B0C0');
    expect(created).toMatchObject({ slug: 'brand-b', name: 'Brand B', brandAccent: '#a0b0c0', deletedAt: null });
    const deleted = await json('workspace', 'delete', '--tenant', 'acme', '--slug', 'brand-b');
    expect(deleted).toMatchObject({ daysLeft: 30 });
    expect(await run('workspace', 'list', '--tenant', 'acme')).toMatch(/brand-b\t.*deleted, 30 days left to restore/);
    expect((await json('workspace', 'restore', '--tenant', 'acme', '--slug', 'brand-b')).deletedAt).toBeNull();
    expect((await json('workspace', 'list', '--tenant', 'acme')).map((w: { slug: string }) => w.slug)).toEqual(['default', 'brand-b']);

    await expect(run('workspace', 'delete', '--tenant', 'acme', '--slug', 'default')).rejects.toThrow(/Tenant "acme", workspace "default": The default workspace cannot be deleted/);
    await expect(run('workspace', 'restore', '--tenant', 'acme', '--slug', 'nope')).rejects.toThrow(/Workspace "nope" not found in tenant "acme"/);
    await expect(run('workspace', 'list', '--tenant', 'ghost')).rejects.toThrow(/Tenant "ghost" not found/);
    await expect(run('workspace', 'create', '--tenant', 'acme', '--slug', 'Bad Slug')).rejects.toThrow(/workspace "Bad Slug".*slug/s);
    await run('tenant', 'create', '--slug', 'tiny');
    await expect(run('workspace', 'create', '--tenant', 'tiny', '--slug', 'two')).rejects.toThrow(/Free plan allows 1 workspace; upgrade to Business/);
  });
});

describe('panya tenant update / list, key list / revoke', () => {
  it('lifts the per-key hour limit for that tenant only', async () => {
    const a = await json('tenant', 'create', '--slug', 'acme', '--plan', 'business');
    const b = await json('tenant', 'create', '--slug', 'globex', '--plan', 'business');
    const updated = await json('tenant', 'update', '--slug', 'acme', '--quota', 'queriesPerKeyPerHour=1000');
    expect(updated.quotas).toEqual({ perKeyPerHour: 1000 });
    // MCP keeps its own limit, and the operator is told so.
    const errors: string[] = [];
    await buildProgram({ out: () => {}, err: (s) => errors.push(s) }, {}).parseAsync(['node', 'panya', 'tenant', 'update', '--slug', 'acme', '--quota', 'queriesPerKeyPerHour=unlimited', '--db', db]);
    expect(errors.join('\n')).toContain('MCP tool calls keep their own limit, mcpToolsPerHour = 60');
    await run('tenant', 'update', '--slug', 'acme', '--quota', 'queriesPerKeyPerHour=1000');
    expect(await run('tenant', 'list')).toMatch(/acme\t.*Business\tincluded 5,000 resolutions, hard cap 10,000\tperKeyPerHour=1000\nglobex\t.*Business\tincluded 5,000 resolutions, hard cap 10,000$/);

    const engine = createEngine({ store: openSqliteStore({ path: db }) });
    try {
      expect(await searchesAllowed(engine, a.apiKey.key, 70)).toBe(70);
      expect(await searchesAllowed(engine, b.apiKey.key, 70)).toBe(60); // the spec's Business limit
    } finally {
      await engine.close();
    }
  });

  it('validates quota keys against the plan table and sets or ends grandfathering', async () => {
    await run('tenant', 'create', '--slug', 'acme', '--plan', 'team');
    await expect(run('tenant', 'update', '--slug', 'acme', '--quota', 'queriesPerMinute=5')).rejects.toThrow(/^Tenant "acme": --quota queriesPerMinute: unknown quota; use one of queriesPerDay/);
    await expect(run('tenant', 'update', '--slug', 'acme', '--quota', 'queriesPerDay=-1')).rejects.toThrow(/not a whole number/);
    // The public surfaces' budgets are set the same way.
    expect((await json('tenant', 'update', '--slug', 'acme', '--quota', 'publicVisitorPerHour=5', 'publicSitePerDay=unlimited')).quotas).toEqual({ publicVisitorPerHour: 5, publicSitePerDay: null });
    expect((await json('tenant', 'update', '--slug', 'acme', '--quota', 'publicVisitorPerHour=default', 'publicSitePerDay=default')).quotas).toEqual({});
    await expect(run('tenant', 'update', '--slug', 'ghost', '--plan', 'growth')).rejects.toThrow(/Tenant "ghost" not found/);
    await expect(run('tenant', 'update', '--slug', 'acme', '--grandfather-until', '2031-01-31')).rejects.toThrow(/go together/);
    const t = await json('tenant', 'update', '--slug', 'acme', '--plan', 'Growth', '--quota', 'maxWorkspaces=unlimited', 'chatHardCap=500', '--grandfather-until', '2031-01-31', '--legacy-plan', 'team');
    expect(t).toMatchObject({ plan: 'growth', quotas: { maxWorkspaces: null, chatHardCap: 500, legacyPlan: 'team', grandfatheredUntil: '2031-01-31' } });
    const ended = await json('tenant', 'update', '--slug', 'acme', '--end-grandfathering', '--quota', 'chatHardCap=default');
    expect(ended.quotas).toEqual({ maxWorkspaces: null });
    // Cross-workspace visitor linking: an Enterprise flag, stored (not implemented).
    await expect(run('tenant', 'update', '--slug', 'acme', '--cross-workspace-visitor-linking', 'on')).rejects.toThrow(/Enterprise/);
    const linked = await json('tenant', 'update', '--slug', 'acme', '--plan', 'enterprise', '--cross-workspace-visitor-linking', 'on');
    expect(linked.quotas).toMatchObject({ crossWorkspaceVisitorLinking: true });
  });

  it('lists and revokes keys; a revoked key stops working', async () => {
    const a = await json('tenant', 'create', '--slug', 'acme');
    const keys = await json('key', 'list', '--tenant', 'acme');
    expect(keys).toEqual([expect.objectContaining({ id: a.apiKey.id, prefix: a.apiKey.key.slice(0, 13), revokedAt: null })]);
    expect(keys[0]).not.toHaveProperty('secretHash');
    expect(await json('key', 'revoke', '--tenant', 'acme', '--id', a.apiKey.id)).toEqual({ id: a.apiKey.id, revoked: true });
    await expect(run('key', 'revoke', '--tenant', 'acme', '--id', a.apiKey.id)).rejects.toThrow(/"key_.*" not found \(or already revoked\) in tenant "acme"/);
    expect(await run('key', 'list', '--tenant', 'acme')).toMatch(/revoked/);
    const engine = createEngine({ store: openSqliteStore({ path: db }) });
    try {
      expect((await engine.apiKeys.authenticate(a.apiKey.key))._unsafeUnwrapErr().code).toBe('unauthorized');
    } finally {
      await engine.close();
    }
  });
});

describe('panya tenant erase', () => {
  it('refuses without the slug confirmed, then erases the tenant and leaves a tombstone', async () => {
    await run('tenant', 'create', '--slug', 'acme', '--plan', 'business');
    await run('tenant', 'create', '--slug', 'globex');
    await expect(run('tenant', 'erase', 'acme', '--confirm', 'globex')).rejects.toThrow(/confirm with the tenant's slug/);
    const erased = await json('tenant', 'erase', 'acme', '--confirm', 'acme');
    expect(erased).toMatchObject({ slug: 'acme', hostnames: [], deleted: expect.objectContaining({ tenants: 1, workspaces: 1, api_keys: 1 }) });
    expect((await json('tenant', 'list')).map((t: { slug: string }) => t.slug)).toEqual(['globex']);
    const store = openSqliteStore({ path: db });
    try {
      expect(await store.tombstones.getBySlug('acme')).toMatchObject({ slug: 'acme', purgedAt: null });
    } finally {
      await store.close();
    }
    await expect(run('tenant', 'erase', 'acme', '--confirm', 'acme')).rejects.toThrow(/Tenant "acme" not found/);
    await expect(run('tenant', 'create', '--slug', 'acme')).rejects.toThrow(/erased tenant/);
  });
});
