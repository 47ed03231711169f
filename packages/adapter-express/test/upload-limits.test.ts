import { deflateSync } from 'node:zlib';
import { MAX_CONVERTED_CHARS, MAX_PDF_INFLATED_BYTES } from '@panya/core';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeConversionPool } from '@panya/convert';
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

  it('a PDF inflating past MAX_PDF_INFLATED_BYTES → 422 naming the limit, nothing written', async () => {
    const bomb = deflateSync(Buffer.alloc(MAX_PDF_INFLATED_BYTES + 1024 * 1024, 0x20), { level: 9 });
    const pdf = Buffer.concat([Buffer.from(`%PDF-1.4\n4 0 obj\n<< /Filter /FlateDecode /Length ${bomb.length} >>\nstream\n`), bomb, Buffer.from('\nendstream\nendobj\n%%EOF\n')]);
    const res = await request(t.app).post('/api/docs/upload').set(t.acme.auth).attach('file', pdf, 'bomb.pdf').expect(422);
    expect(res.body).toMatchObject({ code: 'limit_exceeded', limit: 'MAX_PDF_INFLATED_BYTES', max: MAX_PDF_INFLATED_BYTES });
    expect(res.body.detail).toContain('bomb.pdf');
    expect((await request(t.app).get('/api/docs').set(t.acme.auth)).body.data).toHaveLength(0);
  });

  it('files within the limits still convert in the pool', async () => {
    const res = await request(t.app).post('/api/docs/upload').set(t.acme.auth).attach('file', Buffer.from('# Pool\n\nconverted off the request thread'), 'pool.md').attach('file', Buffer.from('<title>Page</title><p>hello</p>'), 'page.html').expect(201);
    expect(res.body.data.map((d: { title: string }) => d.title).sort()).toEqual(['Page', 'Pool']);
  });
});
