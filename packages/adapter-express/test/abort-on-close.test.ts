import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { abortOnClose } from '../src/api/handler.js';

let server: Server | null = null;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

/** Serves one route whose handler reports its abort signal once the connection has closed. */
async function serve(handler: (res: express.Response, signal: AbortSignal) => void): Promise<{ url: string; closed: Promise<AbortSignal> }> {
  let report!: (signal: AbortSignal) => void;
  const closed = new Promise<AbortSignal>((resolve) => (report = resolve));
  const app = express();
  app.get('/work', (_req, res) => {
    const { signal } = abortOnClose(res);
    res.once('close', () => setImmediate(() => report(signal)));
    handler(res, signal);
  });
  server = createServer(app);
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', () => done()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/work`, closed };
}

describe('abortOnClose', () => {
  it('a response sent in full aborts nothing', async () => {
    const { url, closed } = await serve((res) => res.json({ ok: true }));
    const body = await (await fetch(url)).json();
    expect(body).toEqual({ ok: true });
    expect((await closed).aborted).toBe(false);
  });

  it('a client leaving before the answer aborts the work', async () => {
    const { url, closed } = await serve(() => {});
    const req = httpRequest(url);
    req.on('error', () => {});
    req.end();
    setTimeout(() => req.destroy(), 50);
    expect((await closed).aborted).toBe(true);
  });

  it('a signal first read after the client left is already aborted', async () => {
    let report!: (signal: AbortSignal) => void;
    const read = new Promise<AbortSignal>((resolve) => (report = resolve));
    const app = express();
    app.get('/work', (_req, res) => {
      const client = abortOnClose(res);
      // The work reads its signal only after the connection is gone.
      res.once('close', () => setImmediate(() => report(client.signal)));
    });
    server = createServer(app);
    await new Promise<void>((done) => server!.listen(0, '127.0.0.1', () => done()));
    const req = httpRequest(`http://127.0.0.1:${(server.address() as AddressInfo).port}/work`);
    req.on('error', () => {});
    req.end();
    setTimeout(() => req.destroy(), 50);
    expect((await read).aborted).toBe(true);
  });
});
