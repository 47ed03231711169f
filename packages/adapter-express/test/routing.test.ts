import request from 'supertest';
import { createPanyaApp } from '@panya/adapter-express';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeEngine, makeTenant } from './helpers.js';

const SECRET = 'cron-secret-for-routing-tests';

async function setup(options: { cronSecret?: string } = { cronSecret: SECRET }) {
  const engine = await makeEngine();
  const app = createPanyaApp(engine, { ...options, secureCookies: false });
  const acme = await makeTenant(engine, 'acme');
  return { engine, app, acme };
}

let t: Awaited<ReturnType<typeof setup>>;
beforeEach(async () => (t = await setup()));
afterEach(async () => t.engine.close());

const expectProblem = (res: request.Response, status: number, code: string) => {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({ status, code });
};

describe('routing before authentication', () => {
  it('answers a wrong method on a known route with 405 and Allow, with or without a key', async () => {
    for (const auth of [{}, t.acme.auth]) {
      const search = await request(t.app).get('/api/search').set(auth);
      expectProblem(search, 405, 'method_not_allowed');
      expect(search.headers.allow).toBe('POST');
      expect(search.body.detail).toContain('GET is not allowed here; use POST');
    }
    expect((await request(t.app).delete('/api/docs')).headers.allow).toBe('GET, HEAD, POST');
    expect((await request(t.app).put('/api/docs/doc_x').set(t.acme.auth).expect(405)).headers.allow).toBe('DELETE, GET, HEAD, PATCH');
    expect((await request(t.app).get('/c/acme/api/docs/doc_x/reindex').expect(405)).headers.allow).toBe('POST');
    expect((await request(t.app).get('/c/acme/_w/default/api/chat').expect(405)).headers.allow).toBe('POST');
    expect((await request(t.app).get('/api/docs/upload').set(t.acme.auth).expect(404)).body.code).toBe('not_found'); // GET /docs/:id with id "upload"
    expect((await request(t.app).get('/api/auth/login').expect(405)).headers.allow).toBe('POST');
    expect((await request(t.app).post('/api/edge/tls-allowed').expect(405)).headers.allow).toBe('GET, HEAD');
    expect((await request(t.app).get('/api/billing/webhook').expect(405)).headers.allow).toBe('POST');
  });

  it('answers an unknown /api route with 404 even without a key, and a known one without a key with 401', async () => {
    for (const path of ['/api/nothing-here', '/api/docs/a/b/c', '/c/acme/api/nope', '/c/acme/_w/default/api/nope', '/api/auth/nope']) {
      const res = await request(t.app).post(path);
      expectProblem(res, 404, 'not_found');
      expect(res.headers['www-authenticate']).toBeUndefined();
    }
    expectProblem(await request(t.app).get('/api/docs'), 401, 'unauthorized');
    expectProblem(await request(t.app).post('/api/search').send({ query: 'x' }), 401, 'unauthorized');
    await request(t.app).get('/api/docs').set(t.acme.auth).expect(200);
  });
});

describe('JSON bodies', () => {
  it('refuses a form-encoded body with 415 and says to send JSON, writing and counting nothing', async () => {
    const created = await request(t.app).post('/api/docs').set(t.acme.auth).type('form').send('title=Hello&contentMd=World');
    expectProblem(created, 415, 'unsupported_media_type');
    expect(created.body.detail).toContain('Content-Type: application/json');
    expect(created.body.detail).toContain('form-encoded');
    expect(created.body.supported).toEqual(['application/json']);
    expect((await request(t.app).get('/api/docs').set(t.acme.auth)).body.data).toEqual([]);

    const search = await request(t.app).post('/api/search').set(t.acme.auth).type('form').send('query=refunds');
    expectProblem(search, 415, 'unsupported_media_type');
    expect(search.headers['ratelimit-remaining']).toBeUndefined();
    const chat = await request(t.app).post('/api/chat').set(t.acme.auth).type('form').send('query=refunds');
    expectProblem(chat, 415, 'unsupported_media_type');
    const text = await request(t.app).post('/api/answer').set(t.acme.auth).set('Content-Type', 'text/plain').send('refunds?');
    expectProblem(text, 415, 'unsupported_media_type');
    expect(text.body.detail).toContain('not text/plain');
    // JSON still works, and a body-less POST is left to validation.
    await request(t.app).post('/api/search').set(t.acme.auth).send({ query: 'refunds' }).expect(200);
    expectProblem(await request(t.app).post('/api/search').set(t.acme.auth), 400, 'invalid_request');
  });
});

describe('cron routes', () => {
  it('answers any method without authorization with 403, and a wrong method with the secret with 405', async () => {
    for (const method of ['get', 'post', 'put', 'delete'] as const) {
      expectProblem(await request(t.app)[method]('/api/cron/sla-breach'), 403, 'forbidden');
      expectProblem(await request(t.app)[method]('/c/acme/api/cron/usage-reporter'), 403, 'forbidden');
    }
    const post = await request(t.app).post('/api/cron/sla-breach').set('Authorization', `Bearer ${SECRET}`);
    expectProblem(post, 405, 'method_not_allowed');
    expect(post.headers.allow).toBe('GET, HEAD');
    await request(t.app).get('/api/cron/sla-breach').set('Authorization', `Bearer ${SECRET}`).expect(200);
  });

  it('says in the 403 when no cron secret is configured', async () => {
    const wrong = await request(t.app).get('/api/cron/sla-breach').set('Authorization', 'Bearer nope');
    expect(wrong.body.detail).not.toContain('no cron secret is configured');
    expect(wrong.body.detail).toContain('Authorization: Bearer <PANYA_CRON_SECRET>');
    await t.engine.close();
    t = await setup({});
    for (const path of ['/api/cron/sla-breach', '/c/acme/api/cron/usage-reporter', '/api/ops/hostnames']) {
      const res = await request(t.app).get(path).set('Authorization', 'Bearer anything-at-all-here');
      expectProblem(res, 403, 'forbidden');
      expect(res.body.detail).toContain('no cron secret is configured on this server: set PANYA_CRON_SECRET');
    }
  });
});
