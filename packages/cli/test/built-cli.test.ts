import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildProgram } from '@panya/cli';
import { demoArticles } from '../src/demo/articles.js';

/** The built CLI (`pnpm build`) as an operator runs it: one process serving, others writing beside it. */
let dir: string;
let db: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'panya-built-'));
  db = join(dir, 'data', 'panya.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function run(args: string[]) {
  const out: string[] = [];
  await buildProgram({ out: (s) => out.push(s), err: () => {} }, {}).parseAsync(['node', 'panya', ...args]);
  return out.join('\n');
}

describe('panya serve (built binary)', () => {
  const bin = resolve(dirname(fileURLToPath(import.meta.url)), '../dist/bin.js');

  it('starts with the demo tenant, serves the API with the printed key, and works while other commands write', async () => {
    expect(existsSync(bin), 'run `pnpm build` first: this test starts the built CLI').toBe(true);
    const child = spawn(process.execPath, [bin, 'serve', '--demo', '--port', '0', '--db', db], { env: { ...process.env, PANYA_LOG_LEVEL: 'warn' } });
    try {
      let output = '';
      const { url, key } = await new Promise<{ url: string; key: string }>((ok, fail) => {
        const timer = setTimeout(() => fail(new Error(`server did not start:\n${output}`)), 30_000);
        child.stdout.on('data', (d: Buffer) => {
          output += d.toString();
          const url = /listening on (\S+)/.exec(output)?.[1];
          const key = /(svc_live_[0-9A-Za-z]{32})/.exec(output)?.[1];
          if (url && key) (clearTimeout(timer), ok({ url, key }));
        });
        child.once('exit', (code) => fail(new Error(`server exited with ${code}:\n${output}`)));
      });
      // The banner names every address, the help center on help.localhost at the port it listens on.
      expect(output).toContain(`Help center  http://help.localhost:${new URL(url).port}/demo/`);
      for (const label of ['API docs', 'Admin app', 'MCP', 'Widget']) expect(output).toContain(`  ${label}`);
      const health = await fetch(`${url}/healthz`);
      expect(health.status).toBe(200);
      const docs = await fetch(`${url}/api/docs?limit=100`, { headers: { Authorization: `Bearer ${key}` } });
      expect(docs.status).toBe(200);
      expect(((await docs.json()) as { data: unknown[] }).data).toHaveLength(demoArticles.length);

      // On loopback, MCP requests for another host name are refused (DNS-rebinding protection).
      const mcpInit = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
      const mcpHeaders = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
      // fetch cannot set Host, so this one request goes through node:http.
      const rebound = await new Promise<number>((ok, fail) => {
        const req = httpRequest(`${url}/api/mcp`, { method: 'POST', headers: { ...mcpHeaders, Host: 'attacker.example' } }, (res) => (res.resume(), ok(res.statusCode ?? 0)));
        req.on('error', fail);
        req.end(JSON.stringify(mcpInit));
      });
      expect(rebound).toBe(403);
      const local = await fetch(`${url}/api/mcp`, { method: 'POST', headers: mcpHeaders, body: JSON.stringify(mcpInit) });
      expect(local.status).toBe(200);

      // A CLI command writing to the same database while the server runs.
      await run(['tenant', 'create', '--slug', 'second', '--db', db]);
      const again = await fetch(`${url}/api/docs`, { headers: { Authorization: `Bearer ${key}` } });
      expect(again.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
