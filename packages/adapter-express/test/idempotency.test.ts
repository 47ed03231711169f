import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine, type Store } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { openPostgresStore } from '@panya/store-postgres';
import { createPanyaApp } from '@panya/adapter-express';
import { makeTenant } from './helpers.js';
import { engineInternals } from '@panya/core/testing';

const pgUrl = process.env.PANYA_TEST_PG;
if (!pgUrl) console.warn('Idempotency-Key on PostgreSQL skipped: set PANYA_TEST_PG=postgres://… to run it.');

interface StoreCase {
  name: string;
  open(): Promise<{ store: Store; drop(): Promise<void> }>;
}

const STORES: StoreCase[] = [
  { name: 'sqlite', open: async () => ({ store: openSqliteStore({ path: ':memory:' }), drop: async () => {} }) },
  ...(pgUrl
    ? [
        {
          name: 'postgres',
          open: async () => {
            const schema = `panya_idem_${randomBytes(6).toString('hex')}`;
            const store = await openPostgresStore({ connectionString: pgUrl, schema });
            return { store, drop: async () => void (await store.pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)) };
          },
        },
      ]
    : []),
];

describe.each(STORES)('Idempotency-Key on $name', (storeCase) => {
  let engine: Engine;
  let clockOffsetMs = 0;
  let drop: () => Promise<void>;
  let app: ReturnType<typeof createPanyaApp>;
  let acme: Awaited<ReturnType<typeof makeTenant>>;
  beforeEach(async () => {
    const opened = await storeCase.open();
    drop = opened.drop;
    clockOffsetMs = 0;
    engine = createEngine({ store: opened.store, clock: { now: () => new Date(Date.now() + clockOffsetMs) } });
    app = createPanyaApp(engine);
    acme = await makeTenant(engine, 'acme');
  });
  afterEach(async () => {
    await engineInternals(engine).worker.stop();
    await drop();
    await engine.close();
  });

  const article = { title: 'Reset your password', contentMd: 'Open settings.' };
  const docCount = async () => (await request(app).get('/api/docs').set(acme.auth).expect(200)).body.data.length as number;

  it('creates one document for the same POST sent twice with one key, and replays the first response', async () => {
    const first = await request(app).post('/api/docs').set(acme.auth).set('Idempotency-Key', 'create-reset-1').send(article).expect(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // Same body, keys in another order: the same request.
    const second = await request(app).post('/api/docs').set(acme.auth).set('Idempotency-Key', 'create-reset-1').send({ contentMd: article.contentMd, title: article.title }).expect(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(second.headers.location).toBe(first.headers.location);
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(await docCount()).toBe(1);
    // Without a key, or with another key, the POST runs again.
    await request(app).post('/api/docs').set(acme.auth).set('Idempotency-Key', 'create-reset-2').send(article).expect(201);
    await request(app).post('/api/docs').set(acme.auth).send(article).expect(201);
    expect(await docCount()).toBe(3);
  });

  it('refuses the key with a different body, path or caller as a 409 problem and changes nothing', async () => {
    await request(app).post('/api/docs').set(acme.auth).set('Idempotency-Key', 'k').send(article).expect(201);
    const other = await request(app).post('/api/docs').set(acme.auth).set('Idempotency-Key', 'k').send({ ...article, title: 'Other' }).expect(409);
    expect(other.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(other.body).toMatchObject({ code: 'conflict', reason: 'idempotency_key_reused' });
    await request(app).post('/api/search').set(acme.auth).set('Idempotency-Key', 'k').send({ query: 'reset' }).expect(409);
    const otherKey = (await engine.apiKeys.create(acme.tenant.id, { scopes: ['read', 'write'] }))._unsafeUnwrap().key;
    await request(app).post('/api/docs').set({ Authorization: `Bearer ${otherKey}` }).set('Idempotency-Key', 'k').send(article).expect(409);
    expect(await docCount()).toBe(1);
    // Another tenant's key of the same name is unrelated.
    const globex = await makeTenant(engine, 'globex');
    await request(app).post('/api/docs').set(globex.auth).set('Idempotency-Key', 'k').send(article).expect(201);
  });

  it('answers 409 to a duplicate while the first request is in flight, and keeps no response of a refused request', async () => {
    const ctx = { tenant: acme.tenant, principal: { kind: 'api_key', id: 'key_x', tenantId: acme.tenant.id, workspaceId: null, scopes: ['write'] } } as never;
    const started = (await engine.idempotency.begin(ctx, 'busy', { method: 'POST', path: '/api/docs', body: article }))._unsafeUnwrap();
    expect(started.kind).toBe('run');
    const dup = await engine.idempotency.begin(ctx, 'busy', { method: 'POST', path: '/api/docs', body: article });
    expect(dup._unsafeUnwrapErr()).toMatchObject({ code: 'conflict', reason: 'idempotency_key_in_use' });
    if (started.kind === 'run') await started.finish({ status: 503, headers: {}, body: '' });
    // A 5xx is not the outcome: the retry runs.
    expect((await engine.idempotency.begin(ctx, 'busy', { method: 'POST', path: '/api/docs', body: article }))._unsafeUnwrap().kind).toBe('run');

    // Over HTTP: a validation failure is replayed as it was (the same body fails the same way).
    const bad = await request(app).post('/api/docs').set(acme.auth).set('Idempotency-Key', 'bad').send({ title: '' }).expect(400);
    const again = await request(app).post('/api/docs').set(acme.auth).set('Idempotency-Key', 'bad').send({ title: '' }).expect(400);
    expect(again.body.errors).toEqual(bad.body.errors);
    await request(app).post('/api/docs').set(acme.auth).set('Idempotency-Key', 'x'.repeat(256)).send(article).expect(400);
    expect(await docCount()).toBe(0);
  });

  it('forgets keys after 24 hours: the retention job purges them', async () => {
    await request(app).post('/api/docs').set(acme.auth).set('Idempotency-Key', 'old').send(article).expect(201);
    clockOffsetMs = 23 * 60 * 60 * 1000;
    expect((await engine.jobs.run('retention', { holder: 'test' }))._unsafeUnwrap()).toMatchObject({ ran: true, summary: expect.objectContaining({ expiredIdempotencyKeys: 0 }) });
    await request(app).post('/api/docs').set(acme.auth).set('Idempotency-Key', 'old').send(article).expect(201);
    clockOffsetMs = 24 * 60 * 60 * 1000 + 1000;
    expect((await engine.jobs.run('retention', { holder: 'test' }))._unsafeUnwrap()).toMatchObject({ ran: true, summary: expect.objectContaining({ expiredIdempotencyKeys: 1 }) });
    // Once forgotten, the key runs the request again.
    await request(app).post('/api/docs').set(acme.auth).set('Idempotency-Key', 'old').send(article).expect(201);
    expect(await docCount()).toBe(2);
  });
});
