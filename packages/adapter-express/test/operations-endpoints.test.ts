import { randomBytes } from 'node:crypto';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { createEngine, type Logger } from '@panya/core';
import { openPostgresStore } from '@panya/store-postgres';
import { openSqliteStore } from '@panya/store-sqlite';
import { createPanyaApp } from '@panya/adapter-express';
import parsePrometheusTextFormat, { type MetricFamily } from 'parse-prometheus-text-format';
import { AggregatorRegistry } from 'prom-client';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createMetrics } from '../src/observability.js';
import { makeTenant } from './helpers.js';
import { engineInternals } from '@panya/core/testing';

const engines: ReturnType<typeof createEngine>[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close().catch(() => undefined);
});

function recordingLogger() {
  const lines: { msg: string; data?: Record<string, unknown> }[] = [];
  const logger: Logger = { debug() {}, info: (msg, data) => lines.push({ msg, ...(data ? { data } : {}) }), warn() {}, error() {} };
  return { logger, lines };
}

async function started(options: { logger?: Logger } = {}) {
  const engine = createEngine({ store: openSqliteStore({ path: ':memory:' }), ingest: { pollMs: 20 } });
  engines.push(engine);
  await engine.start();
  return { engine, app: createPanyaApp(engine, options) };
}

const family = (families: MetricFamily[], name: string) => families.find((f) => f.name === name);

describe('GET /readyz', () => {
  it('is 200 with every check ok when the database answers, migrations are current and the worker runs', async () => {
    const { app } = await started();
    const res = await request(app).get('/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', ingestWorker: 'ok' } });
  });

  it('is 503 problem JSON naming the database when the database is closed', async () => {
    const { engine, app } = await started();
    await engineInternals(engine).store.close();
    const res = await request(app).get('/readyz');
    expect(res.status).toBe(503);
    expect(res.type).toBe('application/problem+json');
    expect(res.body).toMatchObject({ status: 503, failed: ['database', 'migrations'], checks: { database: 'failed', ingestWorker: 'ok' } });
    expect(res.body.detail).toMatch(/database did not answer/);
  });

  it('is 503 naming the ingest worker when it is stopped, and the schema when a migration is pending', async () => {
    const { engine, app } = await started();
    await engineInternals(engine).worker.stop();
    const stopped = await request(app).get('/readyz');
    expect(stopped.status).toBe(503);
    expect(stopped.body).toMatchObject({ failed: ['ingestWorker'], checks: { database: 'ok', migrations: 'ok', ingestWorker: 'failed' } });

    engineInternals(engine).worker.start();
    const db = (engineInternals(engine).store as unknown as { db: { pragma(s: string): unknown } }).db;
    db.pragma('user_version = 1');
    const behind = await request(app).get('/readyz');
    expect(behind.status).toBe(503);
    expect(behind.body).toMatchObject({ failed: ['migrations'] });
    expect(behind.body.detail).toMatch(/schema is at migration 1/);
  });
});

const pgUrl = process.env.PANYA_TEST_PG;
if (!pgUrl) console.warn('/readyz on PostgreSQL skipped: set PANYA_TEST_PG=postgres://… to run it.');

/** A TCP relay to the database that can be cut (connections refused), or left silent (accepting, never answering). */
async function databaseRelay(target: URL) {
  let mode: 'open' | 'silent' = 'open';
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => (sockets.add(socket), socket.on('close', () => sockets.delete(socket)).on('error', () => socket.destroy()));
  const server = createServer((client) => {
    track(client);
    if (mode === 'silent') return;
    const upstream = track(connect(Number(target.port || 5432), target.hostname));
    client.pipe(upstream).pipe(client);
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  const listen = (port = 0) => new Promise<void>((ok) => server.listen(port, '127.0.0.1', ok));
  await listen();
  const port = (server.address() as AddressInfo).port;
  const dropAll = () => sockets.forEach((s) => s.destroy());
  return {
    url: Object.assign(new URL(target.href), { host: `127.0.0.1:${port}` }).href,
    /** The server is gone: open connections break, new ones are refused. */
    cut: () => new Promise<void>((ok) => (server.close(() => ok()), dropAll())),
    /** Reachable again, but answering nothing (a server hung, or packets dropped on the way). */
    silence: async () => ((mode = 'silent'), await listen(port)),
    restore: () => ((mode = 'open'), dropAll()),
    close: () => new Promise<void>((ok) => (server.close(() => ok()), dropAll())),
  };
}

describe.skipIf(!pgUrl)('GET /readyz on PostgreSQL', () => {
  it('goes 503 when the database server is gone or silent, in bounded time, and 200 once it is back', async () => {
    const relay = await databaseRelay(new URL(pgUrl!));
    const schema = `panya_ready_${randomBytes(6).toString('hex')}`;
    const store = await openPostgresStore({ connectionString: relay.url, schema });
    const engine = createEngine({ store, ingest: { pollMs: 50 } });
    engines.push(engine);
    await engine.start();
    const app = createPanyaApp(engine);
    try {
      expect((await request(app).get('/readyz')).status).toBe(200);

      await relay.cut();
      const gone = await request(app).get('/readyz');
      expect(gone.status).toBe(503);
      expect(gone.body).toMatchObject({ checks: { database: 'failed' } });

      await relay.silence();
      const started = Date.now();
      const silent = await request(app).get('/readyz');
      expect(silent.status).toBe(503);
      expect(silent.body.detail).toMatch(/database did not answer: timed out after 2 s/);
      expect(Date.now() - started).toBeLessThan(10_000);
      // The queue-depth gauge reads the database the same way: the scrape still answers, in bounded time.
      const scraped = Date.now();
      expect((await request(app).get('/metrics')).status).toBe(200);
      expect(Date.now() - scraped).toBeLessThan(10_000);

      relay.restore();
      let back = 0;
      for (const deadline = Date.now() + 15_000; back !== 200 && Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) back = (await request(app).get('/readyz')).status;
      expect(back).toBe(200);
    } finally {
      relay.restore();
      await store.pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
      await relay.close();
    }
  }, 60_000);
});

describe('GET /metrics and the access log', () => {
  it('serves Prometheus text that counts requests by route template and status, searches, the queue and refusals', async () => {
    const { logger, lines } = recordingLogger();
    const { engine, app } = await started({ logger });
    const acme = await makeTenant(engine, 'acme');
    await engineInternals(engine).worker.stop(); // keep the document queued for the gauge
    await request(app).post('/c/acme/api/docs').set(acme.auth).send({ title: 'Shipping', contentMd: 'Orders ship in two days.' }).expect(201);
    // The second is answered from the cache of recent answers: no retrieval, counted apart.
    for (let i = 0; i < 2; i++) await request(app).post('/c/acme/api/search').set(acme.auth).send({ query: 'shipping' }).expect(200);
    await request(app).get('/api/docs/doc_missing').set(acme.auth).expect(404);
    await request(app).get('/nowhere').expect(404);
    // The admin app's files are its own surface, not unmatched.
    await request(app).get('/admin/').expect(200);

    const res = await request(app).get('/metrics').expect(200);
    expect(res.type).toBe('text/plain');
    const families = parsePrometheusTextFormat(res.text);
    const requests = family(families, 'panya_http_requests_total')!;
    expect(requests.type).toBe('COUNTER');
    const count = (labels: Record<string, string>) => requests.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))?.value;
    expect(count({ method: 'POST', route: '/c/:tenantSlug/api/search', status: '200' })).toBe('2');
    expect(count({ method: 'POST', route: '/c/:tenantSlug/api/docs', status: '201' })).toBe('1');
    expect(count({ method: 'GET', route: '/api/docs/:id', status: '404' })).toBe('1');
    expect(count({ method: 'GET', route: 'unmatched', status: '404' })).toBe('1');
    expect(count({ method: 'GET', route: '/admin', status: '200' })).toBe('1');
    const latency = family(families, 'panya_http_request_duration_seconds')!;
    expect(latency.type).toBe('HISTOGRAM');
    // The parser folds the series of a labelled histogram into one; their counts are read from the text.
    expect(res.text).toContain('panya_http_request_duration_seconds_count{method="POST",route="/c/:tenantSlug/api/search",status="200"} 2\n');
    expect(family(families, 'panya_search_duration_seconds')!.metrics[0]!.count).toBe('1');
    expect(family(families, 'panya_search_cache_hits_total')!.metrics[0]!.value).toBe('1');
    expect(family(families, 'panya_ingest_queue_depth')!.metrics[0]!.value).toBe('1');

    const line = lines.find((l) => l.msg === 'request' && l.data?.route === '/c/:tenantSlug/api/search')!;
    expect(line.data).toMatchObject({ tenant: 'acme', method: 'POST', status: 200 });
    expect(line.data!.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof line.data!.durationMs).toBe('number');
    expect(lines.find((l) => l.data?.route === 'unmatched')!.data).toMatchObject({ tenant: null, status: 404 });
  });

  it('shows the index cache: bytes held, hits, loads and load time', async () => {
    const { engine, app } = await started();
    const acme = await makeTenant(engine, 'acme');
    await request(app).post('/c/acme/api/docs?wait=true').set(acme.auth).send({ title: 'Shipping', contentMd: 'Orders ship in two days from our warehouse.' }).expect(201);
    await engine.ingest.drain();
    const figures = async () => {
      const families = parsePrometheusTextFormat((await request(app).get('/metrics').expect(200)).text);
      const value = (name: string) => Number(family(families, name)!.metrics[0]!.value);
      return { bytes: value('panya_index_cache_bytes'), hits: value('panya_index_cache_hits_total'), loads: value('panya_index_cache_loads_total'), seconds: value('panya_index_cache_load_seconds_total') };
    };
    const before = await figures();
    await request(app).post('/c/acme/api/search').set(acme.auth).send({ query: 'shipping' }).expect(200);
    const loaded = await figures();
    expect(loaded.loads).toBe(before.loads + 1);
    expect(loaded.seconds).toBeGreaterThan(before.seconds);
    expect(loaded.bytes).toBeGreaterThan(before.bytes);
    // Another query of the same workspace finds its index loaded.
    await request(app).post('/c/acme/api/search').set(acme.auth).send({ query: 'warehouse' }).expect(200);
    const warm = await figures();
    expect(warm.hits).toBe(loaded.hits + 1);
    expect(warm.loads).toBe(loaded.loads);
  });

  it('counts rate-limit refusals', async () => {
    const { engine, app } = await started();
    const acme = await makeTenant(engine, 'acme');
    const search = () => request(app).post('/api/search').set(acme.auth).send({ query: 'refund' });
    // The business plan allows 60 searches an hour per key.
    for (let i = 0; i < 60; i++) await search().expect(200);
    await search().expect(429);
    const families = parsePrometheusTextFormat((await request(app).get('/metrics')).text);
    expect(family(families, 'panya_rate_limit_refusals_total')!.metrics).toEqual([{ labels: { route: '/api/search' }, value: '1' }]);
  });

  it('sums requests and latencies across processes, and reads the queue depth once (cluster workers)', async () => {
    const { engine } = await started();
    await makeTenant(engine, 'acme');
    await engineInternals(engine).worker.stop();
    const ctx = (await engine.access.system('acme'))._unsafeUnwrap();
    (await engine.documents.create(ctx, { title: 'Queued', contentMd: 'Waits for the worker.' }))._unsafeUnwrap();
    // Two processes' registries over one database, as `panya serve --workers 2` has them.
    const [first, second] = [createMetrics(engine), createMetrics(engine)];
    first.record('GET', '/api/docs', 200, 0.02, false);
    first.record('POST', '/api/search', 429, 0.001, true);
    second.record('GET', '/api/docs', 200, 0.2, false);
    second.record('GET', '/api/docs', 200, 0.003, false);
    const text = await AggregatorRegistry.aggregate([await first.registry.getMetricsAsJSON(), await second.registry.getMetricsAsJSON()]).metrics();
    const families = parsePrometheusTextFormat(text);
    expect(family(families, 'panya_http_requests_total')!.metrics.find((m) => m.labels?.route === '/api/docs')!.value).toBe('3');
    expect(text).toContain('panya_http_request_duration_seconds_count{method="GET",route="/api/docs",status="200"} 3\n');
    expect(text).toContain('panya_http_request_duration_seconds_bucket{le="0.025",method="GET",route="/api/docs",status="200"} 2\n');
    expect(family(families, 'panya_rate_limit_refusals_total')!.metrics).toEqual([{ labels: { route: '/api/search' }, value: '1' }]);
    expect(family(families, 'panya_ingest_queue_depth')!.metrics[0]!.value).toBe('1');
  });
});
