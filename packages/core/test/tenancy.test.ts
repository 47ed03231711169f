import { describe, expect, it } from 'vitest';
import { createEngine } from '@panya/core';
import { hashApiKey } from '../src/tenancy/api-keys.js';
import { openSqliteStore } from '@panya/store-sqlite';
import { engineInternals } from '@panya/core/testing';

const engine = () => createEngine({ store: openSqliteStore({ path: ':memory:' }) });

describe('tenancy', () => {
  it('creates a tenant with its default workspace in one step', async () => {
    const e = engine();
    const created = (await e.tenancy.createTenant({ slug: 'acme', plan: 'Team' }))._unsafeUnwrap();
    expect(created.tenant).toMatchObject({ slug: 'acme', plan: 'team', quotas: {}, paymentCustomerId: null });
    expect(created.defaultWorkspace).toMatchObject({ slug: 'default', isDefault: true, tenantId: created.tenant.id });
    expect(await engineInternals(e).store.workspaces.getDefault(created.tenant.id)).toEqual(created.defaultWorkspace);
  });

  it.each(['A', 'a', '-acme', 'acme-', 'ac--me', 'ac_me', 'api', 'x'.repeat(41)])('refuses the slug %j', async (slug) => {
    const result = await engine().tenancy.createTenant({ slug, plan: 'free' });
    expect(result._unsafeUnwrapErr().code).toBe('invalid_request');
  });

  it('refuses an unknown plan and invalid quotas', async () => {
    const e = engine();
    expect((await e.tenancy.createTenant({ slug: 'acme', plan: 'platinum' as never }))._unsafeUnwrapErr().code).toBe('invalid_request');
    expect((await e.tenancy.createTenant({ slug: 'acme', quotas: { queriesPerDay: -1 } }))._unsafeUnwrapErr().code).toBe('invalid_request');
    expect(await engineInternals(e).store.tenants.getBySlug('acme')).toBeNull();
  });

  it('answers a duplicate slug with conflict and leaves no orphan workspace', async () => {
    const e = engine();
    const first = (await e.tenancy.createTenant({ slug: 'acme' }))._unsafeUnwrap();
    expect((await e.tenancy.createTenant({ slug: 'acme' }))._unsafeUnwrapErr().code).toBe('conflict');
    expect(await engineInternals(e).store.workspaces.list(first.tenant.id)).toHaveLength(1);
  });
});

describe('API keys', () => {
  it('issues svc_live_ keys with 32 base62 characters, storing only a hash and a display prefix', async () => {
    const e = engine();
    const { tenant } = (await e.tenancy.createTenant({ slug: 'acme' }))._unsafeUnwrap();
    const created = (await e.apiKeys.create(tenant.id, { scopes: ['read', 'read', 'mcp'] }))._unsafeUnwrap();
    expect(created.key).toMatch(/^svc_live_[0-9A-Za-z]{32}$/);
    expect(created.record.scopes).toEqual(['read', 'mcp']);
    expect(created.record.prefix).toBe(created.key.slice(0, 13));
    expect(created.record).not.toHaveProperty('secretHash');
    const stored = await engineInternals(e).store.apiKeys.findByHash(hashApiKey(created.key));
    expect(stored?.secretHash).toBe(hashApiKey(created.key));
    expect(JSON.stringify(stored)).not.toContain(created.key);
  });

  it('authenticates the key, and nothing else', async () => {
    const e = engine();
    const { tenant } = (await e.tenancy.createTenant({ slug: 'acme' }))._unsafeUnwrap();
    const { key } = (await e.apiKeys.create(tenant.id, { scopes: ['read'] }))._unsafeUnwrap();
    expect((await e.apiKeys.authenticate(key))._unsafeUnwrap()).toMatchObject({ tenantId: tenant.id, scopes: ['read'], workspaceId: null });
    const flipped = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
    for (const bad of [undefined, '', flipped, key.slice(0, -1), `${key}x`, key.replace('svc_live_', 'svc_test_')]) {
      expect((await e.apiKeys.authenticate(bad))._unsafeUnwrapErr().code).toBe('unauthorized');
    }
  });

  it('binds a key to a workspace and refuses unknown workspaces and scopes', async () => {
    const e = engine();
    const { tenant, defaultWorkspace } = (await e.tenancy.createTenant({ slug: 'acme' }))._unsafeUnwrap();
    const bound = (await e.apiKeys.create(tenant.id, { scopes: ['read'], workspaceSlug: 'default' }))._unsafeUnwrap();
    expect(bound.record.workspaceId).toBe(defaultWorkspace.id);
    expect((await e.apiKeys.create(tenant.id, { scopes: ['read'], workspaceSlug: 'nope' }))._unsafeUnwrapErr().code).toBe('not_found');
    expect((await e.apiKeys.create(tenant.id, { scopes: ['root' as never] }))._unsafeUnwrapErr().code).toBe('invalid_request');
    expect((await e.apiKeys.create(tenant.id, { scopes: [] }))._unsafeUnwrapErr().code).toBe('invalid_request');
  });

  it('revokes a key so it no longer authenticates', async () => {
    const e = engine();
    const { tenant } = (await e.tenancy.createTenant({ slug: 'acme' }))._unsafeUnwrap();
    const { key, record } = (await e.apiKeys.create(tenant.id, { scopes: ['read'] }))._unsafeUnwrap();
    expect((await e.apiKeys.revoke(tenant.id, record.id)).isOk()).toBe(true);
    expect((await e.apiKeys.authenticate(key)).isErr()).toBe(true);
    expect((await e.apiKeys.revoke(tenant.id, record.id))._unsafeUnwrapErr().code).toBe('not_found');
  });
});
