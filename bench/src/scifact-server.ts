/**
 * Child of the SciFact benchmark: serves the real Express app (`createPanyaApp(engine)`, auth
 * included, default embedder) on 127.0.0.1 over the given database, with a read key for the
 * `bench` tenant. Prints one JSON line {port, key} when listening.
 */
import type { AddressInfo } from 'node:net';
import { createPanyaApp } from '@panya/adapter-express';
import { createEngine } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';

const engine = createEngine({ store: openSqliteStore({ path: process.argv[2]! }) });
const tenant = (await engine.tenancy.getTenantBySlug('bench'))._unsafeUnwrap();
const { key } = (await engine.apiKeys.create(tenant.id, { scopes: ['read'] }))._unsafeUnwrap();
const server = createPanyaApp(engine).listen(0, '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({ port: (server.address() as AddressInfo).port, key }) + '\n');
});
const stop = () => server.close(() => void engine.close().then(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
