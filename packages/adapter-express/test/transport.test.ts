import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createEngine, STORE_BUSY_RETRY_AFTER_SECONDS, type Logger } from '@panya/core';
import { createPanyaApp } from '@panya/adapter-express';
import { openSqliteStore } from '@panya/store-sqlite';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEngine, makeTenant } from './helpers.js';

type Line = { level: string; msg: string; data?: Record<string, unknown> };

async function setup() {
  const lines: Line[] = [];
  const logger: Logger = {
    debug: (msg, data) => lines.push({ level: 'debug', msg, ...(data ? { data } : {}) }),
    info: (msg, data) => lines.push({ level: 'info', msg, ...(data ? { data } : {}) }),
    warn: (msg, data) => lines.push({ level: 'warn', msg, ...(data ? { data } : {}) }),
    error: (msg, data) => lines.push({ level: 'error', msg, ...(data ? { data } : {}) }),
  };
  const engine = await makeEngine();
  const app = createPanyaApp(engine, { logger, requestBodyTimeoutMs: 400 });
  const acme = await makeTenant(engine, 'acme');
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const port = (server.address() as AddressInfo).port;
  return { engine, app, acme, lines, server, port };
}

let t: Awaited<ReturnType<typeof setup>>;
beforeAll(async () => (t = await setup()));
afterAll(async () => {
  t.server.closeAllConnections();
  await new Promise((r) => t.server.close(r));
  await t.engine.close();
});

const expectProblem = (res: request.Response, status: number, code: string) => {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.body.code).toBe(code);
  expect(res.body.status).toBe(status);
};

/** A request sent byte for byte (supertest would re-encode a Buffer body declared as JSON). */
function raw(path: string, headers: Record<string, string>, body: Buffer): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ port: t.port, host: '127.0.0.1', method: 'POST', path, headers: { ...headers, 'Content-Length': String(body.length) } }, (r) => {
      let text = '';
      r.on('data', (c) => (text += c));
      r.on('end', () => resolve({ status: r.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Lines a client fault must never produce: errors, warnings, stack traces. */
const noisy = () => t.lines.filter((l) => l.level === 'error' || l.level === 'warn' || JSON.stringify(l.data ?? {}).includes('    at '));

describe('client faults are 4xx problem documents, never 500', () => {
  it.each(['latin1', 'iso-8859-1', 'ascii', 'klingon'])('JSON with charset=%s → 415', async (charset) => {
    const res = await request(t.app).post('/api/search').set(t.acme.auth).set('Content-Type', `application/json; charset=${charset}`).send('{"query":"refund"}');
    expectProblem(res, 415, 'unsupported_media_type');
  });

  it.each(['x-gzip', 'compress', 'zstd', 'gzip, gzip'])('Content-Encoding %s → 415', async (encoding) => {
    const res = await raw('/api/search', { ...t.acme.auth, 'Content-Type': 'application/json', 'Content-Encoding': encoding }, gzipSync('{"query":"refund"}'));
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('unsupported_media_type');
  });

  it('a corrupt gzip body → 400', async () => {
    const body = gzipSync('{"query":"refund policy"}');
    body[body.length - 12]! ^= 0xff;
    const res = await raw('/api/search', { ...t.acme.auth, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }, body.subarray(0, body.length - 4));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_request');
  });

  it('a real gzip body is still read', async () => {
    const res = await raw('/api/search', { ...t.acme.auth, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }, gzipSync('{"query":"refund"}'));
    expect(res.body).toEqual(expect.objectContaining({ results: [] }));
    expect(res.status).toBe(200);
  });

  it.each([
    ['/api/docs/%zz', true],
    ['/c/%ff/api/docs', false],
    ['/c/acme/_w/%E0%A4%A/api/docs', false],
  ])('malformed percent-encoding in %s → 400', async (path, withKey) => {
    const req = request(t.app).get(path);
    const res = await (withKey ? req.set(t.acme.auth) : req);
    expectProblem(res, 400, 'invalid_request');
  });

  it('a NUL in a multipart file name → 400 and nothing written', async () => {
    const res = await request(t.app).post('/api/docs/upload').set(t.acme.auth).attach('file', Buffer.from('# Hi\n\nbody'), 'evil\u0000.md');
    expectProblem(res, 400, 'invalid_request');
    const docs = await request(t.app).get('/api/docs').set(t.acme.auth).expect(200);
    expect(docs.body.data).toHaveLength(0);
  });

  it('a malformed multipart body → 400', async () => {
    const boundary = 'XYZ';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.md"\r\nContent-Type: text/markdown\r\n\r\n# truncated`;
    const res = await request(t.app).post('/api/docs/upload').set(t.acme.auth).set('Content-Type', `multipart/form-data; boundary=${boundary}`).send(body);
    expectProblem(res, 400, 'invalid_request');
  });

  it('an upload declaring more than the request budget → 413 naming the limit, before the body is read', async () => {
    const res = await new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
      const req = httpRequest({ port: t.port, host: '127.0.0.1', method: 'POST', path: '/api/docs/upload', headers: { ...t.acme.auth, 'Content-Type': 'multipart/form-data; boundary=x', 'Content-Length': String(500 * 1024 * 1024) } }, (r) => {
        let text = '';
        r.on('data', (c) => (text += c));
        r.on('end', () => resolve({ status: r.statusCode!, body: JSON.parse(text) }));
      });
      req.on('error', reject);
      req.write('--x\r\n');
    });
    expect(res.status).toBe(413);
    expect(res.body.limit).toBe('MAX_UPLOAD_REQUEST_BYTES');
  });

  it('none of these logged an error, a warning or a stack trace', () => {
    expect(noisy()).toEqual([]);
    expect(t.lines.some((l) => l.msg === 'client fault')).toBe(true);
  });
});

describe('slow and vanishing clients', () => {
  it('a trickled body ends with 408 problem JSON and a closed connection', async () => {
    const started = Date.now();
    const res = await new Promise<{ status: number; body: Record<string, unknown>; closed: boolean }>((resolve, reject) => {
      const req = httpRequest({ port: t.port, host: '127.0.0.1', method: 'POST', path: '/api/search', headers: { ...t.acme.auth, 'Content-Type': 'application/json', 'Content-Length': '200' } }, (r) => {
        let text = '';
        r.on('data', (c) => (text += c));
        r.on('end', () => resolve({ status: r.statusCode!, body: JSON.parse(text), closed: r.headers.connection === 'close' }));
      });
      req.on('error', reject);
      req.write('{');
      const drip = setInterval(() => req.write(' '), 100);
      req.on('close', () => clearInterval(drip));
    });
    expect(res.status).toBe(408);
    expect(res.body.code).toBe('request_timeout');
    expect(res.closed).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('a client that aborts mid-body is logged at debug, never as an error', async () => {
    const before = t.lines.length;
    await new Promise<void>((resolve) => {
      const req = httpRequest({ port: t.port, host: '127.0.0.1', method: 'POST', path: '/api/docs', headers: { ...t.acme.auth, 'Content-Type': 'application/json', 'Content-Length': '1000' } });
      req.on('error', () => resolve());
      req.write('{"title":"half');
      setTimeout(() => (req.destroy(), setTimeout(resolve, 200)), 100);
    });
    const after = t.lines.slice(before);
    // Besides the request's one access-log line, which says the client left.
    expect(after.filter((l) => l.level !== 'debug' && l.msg !== 'request')).toEqual([]);
    expect(after.filter((l) => l.msg === 'request').map((l) => l.data)).toEqual([expect.objectContaining({ method: 'POST', aborted: true })]);
    expect(noisy()).toEqual([]);
  });
});

describe('a database too busy to take a write', () => {
  it('answers 503 with Retry-After, logged as a warning, and writes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'panya-busy-'));
    const path = join(dir, 'panya.db');
    const lines: Line[] = [];
    const push = (level: string) => (msg: string, data?: Record<string, unknown>) => void lines.push({ level, msg, ...(data ? { data } : {}) });
    const engine = createEngine({ store: openSqliteStore({ path, busyTimeoutMs: 100 }) });
    const app = createPanyaApp(engine, { logger: { debug: push('debug'), info: push('info'), warn: push('warn'), error: push('error') } });
    const other = openSqliteStore({ path }).db; // another connection to the same file
    try {
      const acme = await makeTenant(engine, 'acme');
      other.exec('BEGIN IMMEDIATE'); // another writer holds the lock past the store's wait
      const res = await request(app).post('/api/docs').set(acme.auth).send({ title: 'Refunds', contentMd: 'Refunds take five days.' });
      other.exec('COMMIT');
      expectProblem(res, 503, 'unavailable');
      expect(res.headers['retry-after']).toBe(String(STORE_BUSY_RETRY_AFTER_SECONDS));
      expect(res.body.retryAfter).toBe(STORE_BUSY_RETRY_AFTER_SECONDS);
      expect(lines.filter((l) => l.level === 'error')).toEqual([]);
      expect(lines).toContainEqual(expect.objectContaining({ level: 'warn', msg: 'database busy' }));
      const listed = await request(app).get('/api/docs').set(acme.auth);
      expect(listed.body.data).toEqual([]);
    } finally {
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
      await engine.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
