/**
 * Child of the HTTP benchmark: serves the real Express app (`createPanyaApp(engine)`, auth
 * included) on 127.0.0.1 over a private copy of the cached 10k-chunk database, with an API key
 * (scopes read, write). Prints one JSON line {port, key, tenant} when listening.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createPanyaApp } from '@panya/adapter-express';
import { createEngine } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { SearchCorpus } from './lib/corpus.js';
import { copyDb, LookupEmbedder, panyaDb } from './lib/panya.js';
import { HTTP_QUERY_SALT, HTTP_QUERIES } from './lib/http-shared.js';

const n = Number(process.argv[2] ?? 10_000);
const corpus = new SearchCorpus(n);
const built = await panyaDb(corpus, 1, (m) => process.stderr.write(m + '\n'));
const path = copyDb(built.path, join(mkdtempSync(join(tmpdir(), 'panya-bench-http-')), 'panya.db'));
// Every search and answer runs (the cache of recent answers off): the queries repeat.
const engine = createEngine({ store: openSqliteStore({ path }), embedder: new LookupEmbedder(corpus, [], corpus.queries(HTTP_QUERIES, null, HTTP_QUERY_SALT)), search: { resultCache: false } });
const tenant = (await engine.tenancy.getTenantBySlug('bench'))._unsafeUnwrap();
const { key } = (await engine.apiKeys.create(tenant.id, { scopes: ['read', 'write'] }))._unsafeUnwrap();
const server = createPanyaApp(engine).listen(0, '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({ port: (server.address() as AddressInfo).port, key, dbPath: path }) + '\n');
});
const stop = () => server.close(() => void engine.close().then(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
