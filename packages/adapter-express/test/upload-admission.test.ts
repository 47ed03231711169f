import { request as httpRequest, type ClientRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPanyaApp, uploadAdmission } from '@panya/adapter-express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeConversionPool } from '@panya/convert';
import { makeEngine, makeTenant } from './helpers.js';

describe('uploadAdmission', () => {
  const never = new AbortController().signal;

  it('admits up to the per-tenant and total limits, then queues until room is released', async () => {
    const admission = uploadAdmission(100, 60);
    const a1 = await admission.acquire('a', 50, 1_000, never);
    expect('release' in a1).toBe(true);
    // Tenant a would pass its 60: waits; tenant b fits (50 + 40 ≤ 100): at once.
    const a2 = admission.acquire('a', 20, 1_000, never);
    const b1 = await admission.acquire('b', 40, 1_000, never);
    expect('release' in b1).toBe(true);
    expect(admission.inFlight()).toBe(90);
    let a2Settled = false;
    void a2.then(() => (a2Settled = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(a2Settled).toBe(false);
    if ('release' in a1) a1.release();
    expect('release' in (await a2)).toBe(true);
    expect(admission.inFlight()).toBe(60);
  });

  it('a tenant at its own limit never holds up another tenant queued behind it', async () => {
    const admission = uploadAdmission(100, 50);
    await admission.acquire('a', 50, 1_000, never);
    const a2 = admission.acquire('a', 10, 1_000, never); // waits for tenant a
    const b = await Promise.race([admission.acquire('b', 30, 1_000, never), new Promise((r) => setTimeout(() => r('waited'), 50))]);
    expect(b).not.toBe('waited');
    void a2;
  });

  it('refuses with the limit that kept the upload out once the wait is over, and forgets it', async () => {
    const admission = uploadAdmission(100, 80);
    await admission.acquire('a', 70, 1_000, never);
    expect(await admission.acquire('b', 40, 30, never)).toEqual({ refused: 'MAX_UPLOAD_BYTES_IN_FLIGHT', max: 100 });
    expect(await admission.acquire('a', 20, 30, never)).toEqual({ refused: 'MAX_TENANT_UPLOAD_BYTES_IN_FLIGHT', max: 80 });
    expect(admission.inFlight()).toBe(70);
    const gone = new AbortController();
    const waiting = admission.acquire('c', 40, 10_000, gone.signal);
    gone.abort();
    expect(await waiting).toEqual({ refused: 'MAX_UPLOAD_BYTES_IN_FLIGHT', max: 100 });
  });

  it("an upload queued behind its own tenant's is refused naming the tenant's limit", async () => {
    const admission = uploadAdmission(100, 50);
    await admission.acquire('a', 40, 1_000, never);
    const big = admission.acquire('a', 40, 60, never); // over a's 50: waits
    // Would fit a's room (40 + 5) but waits behind a's queue, which is a's limit at work.
    expect(await admission.acquire('a', 5, 30, never)).toEqual({ refused: 'MAX_TENANT_UPLOAD_BYTES_IN_FLIGHT', max: 50 });
    expect(await big).toEqual({ refused: 'MAX_TENANT_UPLOAD_BYTES_IN_FLIGHT', max: 50 });
  });

  it('a release is counted once however often it is called', async () => {
    const admission = uploadAdmission(100, 100);
    const held = await admission.acquire('a', 30, 1_000, never);
    if ('release' in held) (held.release(), held.release());
    expect(admission.inFlight()).toBe(0);
  });
});

describe('POST /api/docs/upload under the in-flight limits', () => {
  let port: number;
  let close: () => Promise<void>;
  let auth: Record<string, string>;
  let otherAuth: Record<string, string>;
  let thirdAuth: Record<string, string>;
  // One tenant may have 1 MB of uploads in flight, the server 2 MB; waiting lasts 200 ms.
  const admission = uploadAdmission(2 * 1024 * 1024, 1024 * 1024);
  beforeAll(async () => {
    const engine = await makeEngine();
    const app = createPanyaApp(engine, { uploads: { admission, admissionWaitMs: 200 } });
    auth = (await makeTenant(engine, 'acme')).auth;
    otherAuth = (await makeTenant(engine, 'globex')).auth;
    thirdAuth = (await makeTenant(engine, 'initech')).auth;
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    port = (server.address() as AddressInfo).port;
    close = async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await closeConversionPool();
      await engine.close();
    };
  });
  afterAll(() => close());

  const boundary = 'adm';
  const multipart = (name: string, text: string) => `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/markdown\r\n\r\n${text}\r\n--${boundary}--\r\n`;
  const opening = (name: string) => `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/markdown\r\n\r\n`;
  /** Starts an upload (with `declared` as its length, or chunked without one); `body` is sent now, the rest never unless ended. */
  function upload(headers: Record<string, string>, declared: number | null, body: string) {
    let req!: ClientRequest;
    const response = new Promise<{ status: number; headers: Record<string, unknown>; body: Record<string, unknown> }>((resolve, reject) => {
      req = httpRequest({ port, host: '127.0.0.1', method: 'POST', path: '/api/docs/upload', headers: { ...headers, 'Content-Type': `multipart/form-data; boundary=${boundary}`, ...(declared === null ? {} : { 'Content-Length': String(declared) }) } }, (r) => {
        let text = '';
        r.on('data', (c) => (text += c));
        r.on('end', () => resolve({ status: r.statusCode!, headers: r.headers, body: JSON.parse(text) }));
      });
      req.on('error', reject);
      req.write(body);
    });
    return { response, req };
  }
  const complete = (headers: Record<string, string>, name: string, text: string) => {
    const body = multipart(name, text);
    const sent = upload(headers, Buffer.byteLength(body), body);
    sent.req.end();
    return sent.response;
  };

  it("two tenants' trickled uploads without a length never refuse a third tenant's upload", async () => {
    // Each opens a chunked upload with no length and sends a byte now and then: before, each was counted as a whole budget.
    const trickles = [upload(auth, null, opening('a.md')), upload(otherAuth, null, opening('b.md'))];
    for (const t of trickles) t.req.write('x');
    const admitted = await complete(thirdAuth, 'third.md', '# Third tenant\n\nnot held up');
    expect(admitted.status).toBe(201);
    // Each trickling tenant's own next upload is not refused either: they hold only what they sent.
    expect((await complete(auth, 'mine.md', '# Acme\n\nsmall')).status).toBe(201);
    for (const t of trickles) {
      t.response.catch(() => {});
      t.req.destroy();
    }
  });

  it("an upload past the tenant's received bytes waits, then 503 with Retry-After naming the limit; another tenant is not held up", async () => {
    // 900 KB actually received (the body never ends) holds most of acme's 1 MB.
    const slow = upload(auth, 2 * 1024 * 1024, opening('slow.md') + 'x'.repeat(900 * 1024));
    // Wait until those bytes are held.
    await expect.poll(() => admission.inFlight(), { interval: 10 }).toBeGreaterThanOrEqual(900 * 1024);
    const refused = await upload(auth, null, opening('second.md') + 'y'.repeat(200 * 1024)).response;
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.body).toMatchObject({ code: 'unavailable', limit: 'MAX_TENANT_UPLOAD_BYTES_IN_FLIGHT', max: 1024 * 1024, retryAfter: 5 });

    const admitted = await complete(otherAuth, 'other.md', '# Other tenant\n\nnot held up');
    expect(admitted.status).toBe(201);
    expect(admitted.body.data).toEqual([expect.not.objectContaining({ contentMd: expect.anything() })]);

    // The slow client leaves: its bytes are released, the next upload of acme goes through.
    slow.response.catch(() => {}); // it never gets an answer
    slow.req.destroy();
    await expect.poll(() => admission.inFlight(), { interval: 10 }).toBe(0);
    expect((await complete(auth, 'third.md', '# Third\n\nroom again')).status).toBe(201);
  });
});
