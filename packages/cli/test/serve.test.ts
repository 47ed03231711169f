import { request } from 'node:http';
import { createEngine, silentLogger } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { describe, expect, it } from 'vitest';
import { startServer } from '../src/commands/serve.js';

describe('startServer shutdown', () => {
  it('closes connections still open when the grace period ends', async () => {
    const engine = createEngine({ store: openSqliteStore({ path: ':memory:' }) });
    const running = await startServer(engine, { port: 0, host: '127.0.0.1', logger: silentLogger, shutdownGraceMs: 300, app: { requestBodyTimeoutMs: 60_000 } });
    const port = Number(new URL(running.url).port);
    // A client trickling a body it never finishes.
    const req = request({ port, host: '127.0.0.1', method: 'POST', path: '/api/search', headers: { 'Content-Type': 'application/json', 'Content-Length': '1000' } });
    const ended = new Promise<string>((resolve) => {
      req.on('error', (e) => resolve(e.message));
      req.on('response', () => resolve('response'));
    });
    req.write('{');
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    await running.close();
    const took = Date.now() - started;
    expect(await ended).toMatch(/socket hang up|ECONNRESET|response/);
    expect(took).toBeGreaterThanOrEqual(250);
    expect(took).toBeLessThan(5_000);
    expect(running.server.listening).toBe(false);
  });

  it('an idle server closes at once', async () => {
    const engine = createEngine({ store: openSqliteStore({ path: ':memory:' }) });
    const running = await startServer(engine, { port: 0, host: '127.0.0.1', logger: silentLogger, shutdownGraceMs: 10_000 });
    const started = Date.now();
    await running.close();
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
