import { MAX_CONVERTED_CHARS } from '@panya/core';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeConversionPool } from '../src/upload/pool.js';
import { setup } from './helpers.js';

let t: Awaited<ReturnType<typeof setup>>;
beforeAll(async () => (t = await setup()));
afterAll(async () => {
  await closeConversionPool();
  await t.engine.close();
});

describe('upload processing limits (converted in worker threads)', () => {
  it('text converting to more than MAX_CONVERTED_CHARS → 422 naming the limit', async () => {
    const res = await request(t.app).post('/api/docs/upload').set(t.acme.auth).attach('file', Buffer.from('a'.repeat(MAX_CONVERTED_CHARS + 1)), 'long.txt').expect(422);
    expect(res.body).toMatchObject({ code: 'limit_exceeded', limit: 'MAX_CONVERTED_CHARS', max: MAX_CONVERTED_CHARS });
    expect((await request(t.app).get('/api/docs').set(t.acme.auth)).body.data).toHaveLength(0);
  });

  it('files within the limits still convert in the pool', async () => {
    const res = await request(t.app).post('/api/docs/upload').set(t.acme.auth).attach('file', Buffer.from('# Pool\n\nconverted off the request thread'), 'pool.md').attach('file', Buffer.from('<title>Page</title><p>hello</p>'), 'page.html').expect(201);
    expect(res.body.data.map((d: { title: string }) => d.title).sort()).toEqual(['Page', 'Pool']);
  });
});
