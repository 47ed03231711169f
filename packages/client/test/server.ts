import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createEngine, type Engine } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { createPanyaApp } from '@panya/adapter-express';

/** A real Panya server on a free port (in-memory SQLite), with one tenant and a full-scope key. */
export async function startServer(): Promise<{ url: string; key: string; engine: Engine; close(): Promise<void> }> {
  const engine = createEngine({ store: openSqliteStore({ path: ':memory:' }) });
  await engine.start();
  const tenant = (await engine.tenancy.createTenant({ slug: 'acme', plan: 'business' }))._unsafeUnwrap();
  const key = (await engine.apiKeys.create(tenant.tenant.id, { scopes: ['read', 'write', 'mcp', 'admin'] }))._unsafeUnwrap().key;
  const server: Server = createPanyaApp(engine, { sseHeartbeatMs: 50 }).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    key,
    engine,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await engine.close();
    },
  };
}
