import { createEngine, type ApiKeyScope, type Engine, type PlanName } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { createPanyaApp } from '@panya/adapter-express';

export async function makeEngine(): Promise<Engine> {
  return createEngine({ store: openSqliteStore({ path: ':memory:' }) });
}

export async function makeTenant(engine: Engine, slug: string, scopes: ApiKeyScope[] = ['read', 'write', 'mcp', 'admin'], plan: PlanName = 'business') {
  const created = (await engine.tenancy.createTenant({ slug, plan }))._unsafeUnwrap();
  const key = (await engine.apiKeys.create(created.tenant.id, { scopes }))._unsafeUnwrap().key;
  return { ...created, key, auth: { Authorization: `Bearer ${key}` } };
}

export async function setup() {
  const engine = await makeEngine();
  const app = createPanyaApp(engine);
  const acme = await makeTenant(engine, 'acme');
  const globex = await makeTenant(engine, 'globex');
  return { engine, app, acme, globex };
}
