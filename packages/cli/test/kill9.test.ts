import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore, type SqliteStore } from '@panya/store-sqlite';

/**
 * `panya serve` (the built CLI) killed with SIGKILL in the middle of work, then started again on
 * the same database: nothing it acknowledged is lost, and nothing is left half done.
 */
const bin = resolve(dirname(fileURLToPath(import.meta.url)), '../dist/bin.js');
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'panya-kill9-'));
const db = join(dir, 'panya.db');
const CRON_SECRET = 'kill9-cron-secret-0123456789';
const env = { ...process.env, PANYA_CRON_SECRET: CRON_SECRET, PANYA_EMBEDDER: 'hash', PANYA_LOG_LEVEL: 'warn' };

interface Node {
  child: ChildProcess;
  url: string;
}

function start(): Promise<Node> {
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--db', db], { env });
  let output = '';
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`serve did not start:\n${output}`)), 30_000);
    const onData = (d: Buffer) => {
      output += d.toString();
      const listening = /listening on (\S+)/.exec(output)?.[1];
      if (listening) (clearTimeout(timer), ok({ child, url: listening }));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => (clearTimeout(timer), fail(new Error(`serve exited with ${code}:\n${output}`))));
  });
}

function kill9(node: Node): Promise<void> {
  if (node.child.exitCode !== null || node.child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    node.child.once('exit', () => done());
    node.child.kill('SIGKILL');
  });
}

function stop(node: Node | undefined): Promise<void> {
  if (!node || node.child.exitCode !== null || node.child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    node.child.once('exit', () => done());
    node.child.kill('SIGTERM');
  });
}

const call = (node: Node, path: string, auth: string, method = 'GET', body?: unknown) =>
  fetch(`${node.url}${path}`, { method, headers: { Authorization: `Bearer ${auth}`, 'Content-Type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

let key: string;
let node: Node | undefined;
const crashes: string[] = [];

beforeAll(async () => {
  expect(existsSync(bin), 'run `pnpm build` first: this test starts the built CLI').toBe(true);
  key = JSON.parse((await run(process.execPath, [bin, 'tenant', 'create', '--slug', 'acme', '--plan', 'business', '--json', '--db', db], { env })).stdout).apiKey.key;
}, 60_000);
afterAll(async () => {
  await stop(node);
  rmSync(dir, { recursive: true, force: true });
});

describe('kill -9 and restart', () => {
  it('bulk ingest: every acknowledged document survives and gets indexed', async () => {
    node = await start();
    const acknowledged: string[] = [];
    let sent = 0;
    const writer = async (w: number) => {
      for (let i = 0; ; i++) {
        const items = Array.from({ length: 20 }, (_, j) => ({ title: `Batch ${w}-${i}-${j}`, contentMd: `# Batch ${w} ${i} ${j}\n\nRefund rule number ${w * 1000 + i * 20 + j}.` }));
        sent += items.length;
        try {
          const res = await call(node!, '/api/docs/bulk', key, 'POST', { create: items });
          if (res.status >= 300) return;
          const body = (await res.json()) as { created?: { id: string }[]; results?: { id: string }[] };
          for (const d of body.created ?? body.results ?? []) acknowledged.push(d.id);
        } catch {
          return; // the connection died with the process: not acknowledged
        }
      }
    };
    const writers = [0, 1, 2].map(writer);
    while (acknowledged.length < 200) await new Promise((r) => setTimeout(r, 20));
    await kill9(node);
    await Promise.all(writers);
    expect(acknowledged.length).toBeGreaterThanOrEqual(200);

    node = await start();
    const deadline = Date.now() + 90_000;
    let pending = [...acknowledged];
    while (pending.length > 0 && Date.now() < deadline) {
      const statuses = await Promise.all(pending.map(async (id) => [id, ((await (await call(node!, `/api/docs/${id}`, key)).json()) as { status?: string }).status] as const));
      for (const [id, status] of statuses) expect(status, `acknowledged document ${id} is missing`).toBeDefined();
      pending = statuses.filter(([, s]) => s !== 'indexed').map(([id]) => id);
      if (pending.length) await new Promise((r) => setTimeout(r, 250));
    }
    expect(pending).toEqual([]);
    crashes.push(`- bulk ingest: killed after ${acknowledged.length} of ${sent} sent documents were acknowledged; after restart all ${acknowledged.length} exist and are indexed`);
    if (process.env.PANYA_RELIABILITY_REPORT) {
      const { recordFigures } = await import('../../adapter-express/test/security/harness.js');
      recordFigures('crashes', crashes);
    }
  }, 180_000);
});
