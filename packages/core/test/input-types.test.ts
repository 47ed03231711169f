import { describe, expect, it } from 'vitest';
import { createEngine, type Engine, type RequestContext } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';

/*
 * Service inputs are typed at compile time (`pnpm typecheck` fails on a misspelt field or an
 * unknown plan) and still validated at run time, for callers that hand over untrusted data.
 */

// Never called: these lines only have to fail to compile.
async function misuse(engine: Engine, ctx: RequestContext) {
  // @ts-expect-error the store stays inside the engine: callers use its services
  void engine.store;
  // @ts-expect-error so do the service deps
  void engine.deps;
  // @ts-expect-error and the ingest worker (`start`, `close`, `wakeIngest` are its process-level handles)
  void engine.worker;
  // @ts-expect-error `qurey` is not a search field
  await engine.api.search(ctx, { qurey: 'x' });
  // @ts-expect-error `pro` is not a plan
  await engine.tenancy.createTenant({ slug: 'acme', plan: 'pro' });
  // @ts-expect-error `root` is not a scope
  await engine.apiKeys.create('ten_x', { scopes: ['root'] });
  // @ts-expect-error documents need a title
  await engine.documents.create(ctx, { contentMd: 'x' });
  // @ts-expect-error topK is a number
  await engine.api.search(ctx, { query: 'x', topK: '5' });
  // @ts-expect-error `confirm` is the field that repeats the slug
  await engine.erasure.erase('acme', { confrim: 'acme' });
  // @ts-expect-error `confirm` is a string
  await engine.erasure.eraseOwn(ctx, { confirm: true });
  // @ts-expect-error a hostname is a string field named `hostname`
  await engine.hostnames.create(ctx, { host: 'help.example.com' });
}
void misuse;

describe('service inputs', () => {
  it('are still validated at run time when the types are bypassed', async () => {
    const engine = createEngine({ store: openSqliteStore({ path: ':memory:' }) });
    const untrusted = JSON.parse('{"slug":"acme","plan":"pro"}') as never;
    const refused = await engine.tenancy.createTenant(untrusted);
    expect(refused._unsafeUnwrapErr()).toMatchObject({ code: 'invalid_request', issues: [{ path: 'plan' }] });
    const tenant = (await engine.tenancy.createTenant({ slug: 'acme', plan: 'Business' }))._unsafeUnwrap();
    const ctx = (await engine.access.system('acme'))._unsafeUnwrap();
    expect(tenant.tenant.plan).toBe('business');
    const search = await engine.api.search(ctx, JSON.parse('{"qurey":"x"}') as never);
    expect(search._unsafeUnwrapErr()).toMatchObject({ code: 'invalid_request', issues: [{ path: 'query' }, { path: '' }] });
    await engine.close();
  });

  it('reach the data only through the engine\'s services: no store, deps or worker on it', () => {
    const engine = createEngine({ store: openSqliteStore({ path: ':memory:' }) });
    expect(Object.keys(engine)).not.toEqual(expect.arrayContaining(['store']));
    for (const internal of ['store', 'deps', 'worker']) expect(internal in engine).toBe(false);
  });
});
