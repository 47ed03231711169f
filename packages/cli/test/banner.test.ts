import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '@panya/core';
import { createPanyaFromEnv, panyaAppOptionsFromEnv } from '../src/from-env.js';
import { demoCommand, demoKeyFile, DEMO_BRAND } from '../src/commands/demo.js';
import { startServer, withLocalHelpHost, type RunningServer } from '../src/commands/serve.js';
import { serveBanner } from '../src/banner.js';
import { parseHelpHost } from '@panya/core';

/** A GET to this server with any Host (fetch cannot set Host; `help.localhost` needs no resolver this way). */
function get(url: string, port: number, headers: Record<string, string> = {}): Promise<{ status: number; body: string; type: string }> {
  const u = new URL(url);
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port, path: `${u.pathname}${u.search}`, headers: { Host: u.host, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d)).on('end', () => ok({ status: res.statusCode ?? 0, body, type: String(res.headers['content-type'] ?? '') }));
    });
    req.on('error', fail);
    req.end();
  });
}

describe('panya serve --demo banner', () => {
  const dir = mkdtempSync(join(tmpdir(), 'panya-banner-'));
  const db = join(dir, 'panya.db');
  let running: RunningServer;
  let lines: string[];
  let port: number;
  let demo: Awaited<ReturnType<typeof demoCommand>>;

  beforeAll(async () => {
    // As `panya serve --demo --port 0` on loopback wires it.
    const listen = { port: 0, host: '127.0.0.1' };
    const env = await withLocalHelpHost({ PANYA_EMBEDDER: 'hash' }, listen);
    const engine = await createPanyaFromEnv(env, { db, logger: silentLogger });
    demo = await demoCommand(engine, { out: () => {}, err: () => {} }, { keyFile: demoKeyFile(db)! });
    await engine.ingest.drain();
    await engine.start();
    running = await startServer(engine, { ...listen, logger: silentLogger, app: panyaAppOptionsFromEnv(env) });
    port = Number(new URL(running.url).port);
    lines = serveBanner({ url: running.url, helpOrigin: parseHelpHost(env.PANYA_HELP_HOST!).origin, demo });
  }, 60_000);
  afterAll(async () => {
    await running?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const address = (label: string) => {
    const line = lines.find((l) => l.trimStart().startsWith(label));
    expect(line, `the banner names ${label}:\n${lines.join('\n')}`).toBeDefined();
    return /(https?:\/\/\S+)/.exec(line!)![1]!;
  };

  it('names the API, docs, admin app with its sign-in, help center, MCP and widget, each answering', async () => {
    expect(lines[0]).toBe(`Panya listening on ${running.url}`);
    const auth = { Authorization: `Bearer ${demo.apiKey}` };

    const api = address('API ');
    expect((await get(`${api}/docs?limit=1`, port, auth)).status).toBe(200);
    expect((await get(`${api}/openapi.json`, port)).status).toBe(200);
    expect((await get(address('API docs'), port)).type).toMatch(/html/);

    const admin = lines.find((l) => l.includes('Admin app'))!;
    expect((await get(address('Admin app'), port)).status).toBe(200);
    const [, email, password] = /sign in: (\S+) \/ (\S+)\)/.exec(admin)!;
    const login = await fetch(`${running.url}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password }) });
    expect(login.status).toBe(200);

    // The help center on help.localhost:<the real port>, with the demo's brand.
    const help = address('Help center');
    expect(help).toBe(`http://help.localhost:${port}/demo/`);
    const home = await get(help, port);
    expect(home.status).toBe(200);
    expect(home.body).toContain(DEMO_BRAND.name);
    expect(home.body).toContain(DEMO_BRAND.brandAccent);

    const mcp = address('MCP');
    const init = await fetch(mcp, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
    });
    expect(init.status).toBe(200);

    // The widget snippet: its script, and its key reads the help center's published articles.
    const widget = lines.find((l) => l.includes('Widget'))!;
    const src = /src="([^"]+)"/.exec(widget)![1]!;
    const key = /data-key="(svc_pub_[^"]+)"/.exec(widget)![1]!;
    expect((await get(src, port)).type).toMatch(/javascript/);
    const search = await fetch(`${running.url}/api/search`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, Origin: `http://help.localhost:${port}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ query: 'refund' }) });
    expect(search.status).toBe(200);

    expect(lines.join('\n')).toContain(demo.apiKey);
  });

  it('keeps the sign-in across restarts of the same database', async () => {
    const env = { PANYA_EMBEDDER: 'hash' };
    const engine = await createPanyaFromEnv(env, { db: join(dir, 'again.db'), logger: silentLogger });
    const first = await demoCommand(engine, { out: () => {}, err: () => {} }, { keyFile: demoKeyFile(join(dir, 'again.db'))! });
    const second = await demoCommand(engine, { out: () => {}, err: () => {} }, { keyFile: demoKeyFile(join(dir, 'again.db'))! });
    await engine.close();
    expect(first.signIn.password).toBeTruthy();
    expect(second.signIn).toEqual(first.signIn);
  });
});
