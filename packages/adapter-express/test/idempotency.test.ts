import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, HTTP_OPERATIONS, takesIdempotencyKey, type Engine, type Store } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { openPostgresStore } from '@panya/store-postgres';
import { createPanyaApp } from '@panya/adapter-express';
import { makeTenant } from './helpers.js';
import { engineInternals } from '@panya/core/testing';

const pgUrl = process.env.PANYA_TEST_PG;
if (!pgUrl) console.warn('Idempotency-Key on PostgreSQL skipped: set PANYA_TEST_PG=postgres://… to run it.');

interface StoreCase {
  name: string;
  open(): Promise<{ store: Store; drop(): Promise<void>; schema?: string }>;
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
            return { store, schema, drop: async () => void (await store.pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)) };
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
  let store: Store;
  let schema: string | undefined;
  beforeEach(async () => {
    const opened = await storeCase.open();
    drop = opened.drop;
    store = opened.store;
    schema = opened.schema;
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
    await request(app).post('/api/docs/d_missing/reindex').set(acme.auth).set('Idempotency-Key', 'k').send({}).expect(409);
    expect(await docCount()).toBe(1);
    // Keys are per API key: another key of the tenant (a page's publishable key, say) has its own.
    const otherKey = (await engine.apiKeys.create(acme.tenant.id, { scopes: ['read', 'write'] }))._unsafeUnwrap().key;
    await request(app).post('/api/docs').set({ Authorization: `Bearer ${otherKey}` }).set('Idempotency-Key', 'k').send(article).expect(201);
    expect(await docCount()).toBe(2);
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
  /** Every idempotency record as stored: its key and its response, as text. */
  async function storedRecords(): Promise<{ key: string; response: string }[]> {
    const sql = 'SELECT key, response FROM idempotency_keys';
    if (schema !== undefined) return ((await (store as unknown as { pool: { query(q: string): Promise<{ rows: { key: string; response: unknown }[] }> } }).pool.query(sql.replace('idempotency_keys', `"${schema}".idempotency_keys`))).rows).map((r) => ({ key: r.key, response: r.response === null ? '' : JSON.stringify(r.response) }));
    return ((store as unknown as { db: { prepare(q: string): { all(): { key: string; response: string | null }[] } } }).db.prepare(sql).all()).map((r) => ({ key: r.key, response: r.response ?? '' }));
  }

  it('keeps nothing of a search or an answer, at every API address', async () => {
    await request(app).post('/api/docs').set(acme.auth).send(article).expect(201);
    for (const path of ['/api/search', '/api/answer', '/c/acme/api/search', '/c/acme/api/answer']) {
      const first = await request(app).post(path).set(acme.auth).set('Idempotency-Key', `read-${path}`).send({ query: 'reset password' }).expect(200);
      const again = await request(app).post(path).set(acme.auth).set('Idempotency-Key', `read-${path}`).send({ query: 'reset password' }).expect(200);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      expect(again.headers['idempotent-replayed']).toBeUndefined();
    }
    expect(await storedRecords()).toEqual([]);
  });

  it('never keeps a response that carries a secret: the request runs once, a retry is told so with 409', async () => {
    const listKeys = async () => (await request(app).get('/api/api-keys').set(acme.auth).expect(200)).body.data.length as number;
    const before = await listKeys();
    for (const kind of ['secret', 'publishable'] as const) {
      const body = { name: `k-${kind}`, kind, scopes: ['read'], ...(kind === 'publishable' ? { workspaceSlug: 'default' } : {}) };
      const created = await request(app).post('/api/api-keys').set(acme.auth).set('Idempotency-Key', `mint-${kind}`).send(body);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.key).toMatch(kind === 'secret' ? /^svc_live_/ : /^svc_pub_/);
      const retry = await request(app).post('/api/api-keys').set(acme.auth).set('Idempotency-Key', `mint-${kind}`).send(body).expect(409);
      expect(retry.body).toMatchObject({ code: 'conflict', reason: 'idempotency_response_not_kept' });
      expect(JSON.stringify(retry.body)).not.toContain(created.body.key);
    }
    expect(await listKeys()).toBe(before + 2);
    const secret = await request(app).post('/api/tenant/connectors/secret').set(acme.auth).set('Idempotency-Key', 'rotate').send({}).expect(201);
    expect(secret.body.secret).toMatch(/^pcs_/);
    const again = await request(app).post('/api/tenant/connectors/secret').set(acme.auth).set('Idempotency-Key', 'rotate').send({}).expect(409);
    expect(again.body.reason).toBe('idempotency_response_not_kept');
    for (const record of await storedRecords()) expect(record.response).not.toMatch(/svc_live_|svc_pub_|pcs_/);
  });

  it('leaves no key or secret in the idempotency table after any POST route', async () => {
    const posts = HTTP_OPERATIONS.filter((op) => op.http!.method === 'POST');
    expect(posts.filter(takesIdempotencyKey).length).toBeGreaterThan(20);
    const secrets = [acme.key];
    for (const [i, op] of posts.entries()) {
      const path = `/api${op.http!.path.replace(/:[a-zA-Z]+/g, 'x')}`;
      const body = op.id === 'apiKeys.create' ? { name: 'scan', scopes: ['read'] } : op.id === 'documents.create' ? article : {};
      const sent = await request(app).post(path).set(acme.auth).set('Idempotency-Key', `scan-${i}`).send(body);
      expect(sent.status, `${op.id}: ${sent.text}`).not.toBe(500);
      for (const match of sent.text.match(/(svc_live_|svc_pub_|pcs_)[A-Za-z0-9_-]+/g) ?? []) secrets.push(match);
      for (const record of await storedRecords()) {
        expect(record.response, op.id).not.toMatch(/svc_live_|svc_pub_|pcs_/);
        for (const secret of secrets) expect(`${record.key} ${record.response}`, op.id).not.toContain(secret);
      }
    }
    // The key and connector secret routes were among them, and answered their secrets; the records were there to scan.
    expect(secrets.length).toBeGreaterThanOrEqual(3);
    expect((await storedRecords()).length).toBeGreaterThan(20);
  });

  it('keeps a bounded amount: past the size limit or the day budget a response is kept without its body', async () => {
    const big = { title: 'Big', contentMd: 'word '.repeat(60_000) };
    const created = await request(app).post('/api/docs').set(acme.auth).set('Idempotency-Key', 'big').send(big).expect(201);
    expect(created.text.length).toBeGreaterThan(256 * 1024);
    const retry = await request(app).post('/api/docs').set(acme.auth).set('Idempotency-Key', 'big').send(big).expect(409);
    expect(retry.body).toMatchObject({ reason: 'idempotency_response_not_kept' });
    expect(retry.body.detail ?? retry.body.message ?? '').toMatch(/larger than 262144 bytes/);
    expect(await docCount()).toBe(1);
    const kept = (await storedRecords()).map((r) => r.response.length);
    expect(Math.max(...kept)).toBeLessThan(1024);
    // The day budget per caller: ~240 KiB responses, 16 MiB a day: the 69th is kept without its body.
    const medium = { title: 'Medium', contentMd: 'word '.repeat(48_000) };
    let withheld = 0;
    for (let i = 0; i < 70; i++) {
      await request(app).post('/api/docs').set(acme.auth).set('Idempotency-Key', `m-${i}`).send(medium).expect(201);
      const again = await request(app).post('/api/docs').set(acme.auth).set('Idempotency-Key', `m-${i}`).send(medium);
      if (again.status === 409) withheld++;
      else expect(again.headers['idempotent-replayed']).toBe('true');
    }
    expect(withheld).toBeGreaterThan(0);
    expect(withheld).toBeLessThan(5);
    // Another key of the tenant still has its own budget.
    const otherKey = (await engine.apiKeys.create(acme.tenant.id, { scopes: ['read', 'write'] }))._unsafeUnwrap().key;
    await request(app).post('/api/docs').set({ Authorization: `Bearer ${otherKey}` }).set('Idempotency-Key', 'o-1').send(medium).expect(201);
    const replayed = await request(app).post('/api/docs').set({ Authorization: `Bearer ${otherKey}` }).set('Idempotency-Key', 'o-1').send(medium).expect(201);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
  }, 120_000);

  it('saves the record before the response is sent: a retry right after the answer replays it, never 409 "in use"', async () => {
    // A slow database: saving the response takes a while.
    const complete = store.idempotency.complete.bind(store.idempotency);
    const order: string[] = [];
    store.idempotency.complete = async (...args) => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      await complete(...args);
      order.push('saved');
    };
    const first = await request(app).post('/api/docs').set(acme.auth).set('Idempotency-Key', 'quick').send(article).expect(201);
    order.push('answered');
    const retry = await request(app).post('/api/docs').set(acme.auth).set('Idempotency-Key', 'quick').send(article).expect(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(order).toEqual(['saved', 'answered']);
  });
});
