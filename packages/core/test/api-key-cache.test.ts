import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { API_KEY_CACHE_MS, createEngine, type Engine } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { engineInternals } from '@panya/core/testing';

/** Two engines over one database file: two processes (or nodes), each with its own connection and key cache. */
describe('API keys looked up once per API_KEY_CACHE_MS', () => {
  let dir: string;
  let now: number;
  const clock = { now: () => new Date(now) };
  let a: Engine;
  let b: Engine;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'panya-key-cache-'));
    now = Date.parse('2030-01-02T03:04:05.000Z');
    a = createEngine({ store: openSqliteStore({ path: join(dir, 'panya.db') }), clock });
    b = createEngine({ store: openSqliteStore({ path: join(dir, 'panya.db') }), clock });
  });

  afterEach(async () => {
    await a.close();
    await b.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function keyOf(engine: Engine) {
    const { tenant } = (await engine.tenancy.createTenant({ slug: 'acme' }))._unsafeUnwrap();
    return { tenant, ...(await engine.apiKeys.create(tenant.id, { scopes: ['read'] }))._unsafeUnwrap() };
  }

  it('a key revoked in one process stops working in the other once the bound has passed', async () => {
    const { tenant, key, record } = await keyOf(a);
    expect((await b.apiKeys.authenticate(key))._unsafeUnwrap().id).toBe(record.id);
    (await a.apiKeys.revoke(tenant.id, record.id))._unsafeUnwrap();
    // The revoking process forgets the key at once.
    expect((await a.apiKeys.authenticate(key))._unsafeUnwrapErr().code).toBe('unauthorized');
    // The other may still trust its lookup within the bound (the documented staleness)…
    now += API_KEY_CACHE_MS - 1;
    expect((await b.apiKeys.authenticate(key)).isOk()).toBe(true);
    // …and never after it.
    now += 1;
    expect((await b.apiKeys.authenticate(key))._unsafeUnwrapErr().code).toBe('unauthorized');
    now += 60_000;
    expect((await b.apiKeys.authenticate(key))._unsafeUnwrapErr().code).toBe('unauthorized');
  });

  it('within the bound a process asks the store once; an unknown key is asked every time', async () => {
    const { key } = await keyOf(a);
    let lookups = 0;
    const findByHash = engineInternals(b).store.apiKeys.findByHash.bind(engineInternals(b).store.apiKeys);
    engineInternals(b).store.apiKeys.findByHash = (hash) => (lookups++, findByHash(hash));
    for (let i = 0; i < 5; i++) expect((await b.apiKeys.authenticate(key)).isOk()).toBe(true);
    expect(lookups).toBe(1);
    now += API_KEY_CACHE_MS;
    expect((await b.apiKeys.authenticate(key)).isOk()).toBe(true);
    expect(lookups).toBe(2);
    const unknown = `svc_live_${'x'.repeat(32)}`;
    for (let i = 0; i < 3; i++) expect((await b.apiKeys.authenticate(unknown)).isErr()).toBe(true);
    expect(lookups).toBe(5);
  });

  it('a cached key still records its last use once a minute', async () => {
    const { tenant, key, record } = await keyOf(a);
    // The process that saw the use lists it at once; another one once it is written (within a second).
    const lastUsed = async () => (await b.apiKeys.list(tenant.id)).find((k) => k.id === record.id)!.lastUsedAt;
    await b.apiKeys.authenticate(key);
    expect(await lastUsed()).toBe('2030-01-02T03:04:05.000Z');
    now += 30_000;
    await b.apiKeys.authenticate(key);
    expect(await lastUsed()).toBe('2030-01-02T03:04:05.000Z');
    now += 31_000;
    await b.apiKeys.authenticate(key);
    expect(await lastUsed()).toBe('2030-01-02T03:05:06.000Z');
    now += 61_000;
    await b.apiKeys.authenticate(key);
    const elsewhere = async () => (await a.apiKeys.list(tenant.id)).find((k) => k.id === record.id)!.lastUsedAt;
    expect(await elsewhere()).toBe('2030-01-02T03:05:06.000Z');
    await new Promise((r) => setTimeout(r, 1_100));
    expect(await elsewhere()).toBe('2030-01-02T03:06:07.000Z');
  });
});
