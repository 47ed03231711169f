import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '@panya/cli';

/**
 * `panya serve --workers 2`, started as `pnpm start` starts the CLI (from its sources): which
 * worker answers a connection is read from the kernel's socket table (/proc), so this runs on Linux.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const onLinux = existsSync('/proc/net/tcp');
if (!onLinux) console.warn('cluster test skipped: it reads worker sockets from /proc (Linux only).');

async function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  await buildProgram({ out: (s) => out.push(s), err: () => {} }, env).parseAsync(['node', 'panya', ...args]);
  return out.join('\n');
}

/** The `serve` worker processes whose parent is `ppid` (tsx also starts a helper, which is not one). */
function workerPids(ppid: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === ppid && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('serve')) pids.push(Number(entry));
    } catch {
      // The process ended while being read.
    }
  }
  return pids.sort();
}

/** Which of `pids` holds each established server-side connection of `port`. */
function connectionOwners(port: number, pids: number[]): number[] {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, 'utf8').trim().split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (parseInt(f[1]!.split(':')[1]!, 16) === port && f[3] === '01') inodes.add(f[9]!);
    }
  }
  const owners: number[] = [];
  for (const pid of pids) {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
        if (inode && inodes.has(inode)) owners.push(pid);
      } catch {
        // Closed meanwhile.
      }
    }
  }
  return owners;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until<T>(what: string, fn: () => T | undefined | false, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

interface Reply {
  status: number;
  body: string;
  cookie?: string;
}

/** One request on its own kept-alive connection (left open, so its owner can be looked up). */
function onNewConnection(agents: Agent[], url: string, path: string, headers: Record<string, string>, body?: string): Promise<Reply> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  agents.push(agent);
  return new Promise((ok, fail) => {
    const req = request(`${url}${path}`, { agent, method: body ? 'POST' : 'GET', headers: { ...headers, ...(body ? { 'Content-Type': 'application/json' } : {}) }, timeout: 20_000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, body: text, ...(res.headers['set-cookie'] ? { cookie: res.headers['set-cookie'][0]!.split(';')[0]! } : {}) }));
    });
    req.on('timeout', () => req.destroy(new Error(`${path}: no answer within 20 s`)));
    req.on('error', fail);
    req.end(body);
  });
}

describe.skipIf(!onLinux)('panya serve --workers 2', () => {
  let dir: string;
  let db: string;
  let child: ChildProcess;
  let url: string;
  let output = '';
  let key: string;
  const agents: Agent[] = [];
  const closeConnections = () => agents.splice(0).forEach((a) => a.destroy());

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'panya-cluster-'));
    db = join(dir, 'panya.db');
    key = (JSON.parse(await run(['tenant', 'create', '--slug', 'acme', '--plan', 'business', '--json', '--db', db])) as { apiKey: { key: string } }).apiKey.key;
    await run(['user', 'create', '--email', 'owner@acme.test', '--password', 'correct-horse-battery', '--tenant', 'acme', '--db', db]);
    // No PANYA_SESSION_SECRET: the workers must still accept each other's cookies.
    const env: NodeJS.ProcessEnv = { ...process.env, PANYA_LOG_LEVEL: 'warn', PANYA_EMBEDDER: 'hash' };
    delete env.PANYA_SESSION_SECRET;
    child = spawn(process.execPath, ['--conditions=@panya/source', '--import', 'tsx', 'packages/cli/src/bin.ts', 'serve', '--workers', '2', '--port', '0', '--db', db], { cwd: root, env });
    url = await new Promise<string>((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`not listening within 60 s:\n${output}`)), 60_000);
      const onData = (d: Buffer) => {
        output += d.toString();
        const listening = /listening on (\S+) \(2 workers\)/.exec(output)?.[1];
        if (listening) (clearTimeout(timer), ok(listening));
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', (code) => (clearTimeout(timer), fail(new Error(`server exited with ${code}:\n${output}`))));
    });
  }, 90_000);

  afterAll(() => {
    closeConnections();
    if (child?.exitCode === null) child.kill('SIGKILL');
    for (const pid of child?.pid ? workerPids(child.pid) : []) process.kill(pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves from both workers over one database, sessions included', async () => {
    const pids = await until('two workers', () => workerPids(child.pid!).length === 2 && workerPids(child.pid!));
    const port = Number(new URL(url).port);
    const auth = { Authorization: `Bearer ${key}` };

    const created = await onNewConnection(agents, url, '/api/docs?wait=true', auth, JSON.stringify({ title: 'Refunds', contentMd: 'Refunds reach the card within seven days.' }));
    expect(created.status).toBe(201);
    const login = await onNewConnection(agents, url, '/api/auth/login', {}, JSON.stringify({ email: 'owner@acme.test', password: 'correct-horse-battery' }));
    expect(login.status).toBe(200);
    for (let i = 0; i < 4; i++) {
      // Indexed by one worker, found by whichever answers.
      const found = await onNewConnection(agents, url, '/api/search', auth, JSON.stringify({ query: 'refunds card' }));
      expect(found.status).toBe(200);
      expect((JSON.parse(found.body) as { results: { title: string }[] }).results[0]?.title).toBe('Refunds');
    }
    expect(new Set(connectionOwners(port, pids))).toEqual(new Set(pids));
    closeConnections();
    // The next checks count connections: wait until the workers hold none of the closed ones.
    await until('the closed connections gone', () => connectionOwners(port, pids).length === 0);
    // A session cookie signed by one worker is good at the other.
    const bySession = [];
    for (let i = 0; i < 4; i++) bySession.push((await onNewConnection(agents, url, '/c/acme/api/docs', { Cookie: login.cookie! })).status);
    expect(bySession).toEqual([200, 200, 200, 200]);
    expect(new Set(connectionOwners(port, pids))).toEqual(new Set(pids));
    closeConnections();
  }, 60_000);

  it('runs each worker with garbage collection on its own threads (background threads keep their priority)', async () => {
    const pids = await until('two workers', () => workerPids(child.pid!).length === 2 && workerPids(child.pid!));
    for (const pid of pids) expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).toContain('--single-threaded-gc');
    // The primary only accepts connections and sums metrics: it keeps Node's defaults.
    expect(readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0')).not.toContain('--single-threaded-gc');
  });

  it('answers /metrics for the whole cluster, whichever worker is asked', async () => {
    const pids = workerPids(child.pid!);
    const port = Number(new URL(url).port);
    const sent = 12;
    for (let i = 0; i < sent; i++) expect((await onNewConnection(agents, url, '/api/me', { Authorization: `Bearer ${key}` })).status).toBe(200);
    closeConnections();
    // The next checks count connections: wait until the workers hold none of the closed ones.
    await until('the closed connections gone', () => connectionOwners(port, pids).length === 0);
    for (let i = 0; i < 6; i++) {
      const scrape = await onNewConnection(agents, url, '/metrics', {});
      expect(scrape.status).toBe(200);
      const families = parsePrometheusTextFormat(scrape.body);
      const requests = families.find((f) => f.name === 'panya_http_requests_total')!;
      expect(requests.type).toBe('COUNTER');
      // Each worker served half of them: only the sum over both workers gives every request.
      const me = requests.metrics.find((m) => m.labels?.route === '/api/me' && m.labels.method === 'GET' && m.labels.status === '200');
      expect(me?.value).toBe(String(sent));
      expect(scrape.body).toContain(`panya_http_request_duration_seconds_count{method="GET",route="/api/me",status="200"} ${sent}\n`);
      expect(families.find((f) => f.name === 'panya_ingest_queue_depth')?.type).toBe('GAUGE');
    }
    // The scrapes were answered by both workers.
    expect(new Set(connectionOwners(port, pids))).toEqual(new Set(pids));
    closeConnections();
  }, 60_000);

  it('replaces a worker that dies, and keeps answering', async () => {
    const before = workerPids(child.pid!);
    expect(before).toHaveLength(2);
    process.kill(before[0]!, 'SIGKILL');
    const after = await until('a replacement worker', () => {
      const now = workerPids(child.pid!);
      return now.length === 2 && !now.includes(before[0]!) && now;
    });
    expect(after).toContain(before[1]);
    const port = Number(new URL(url).port);
    const replies = [];
    for (let i = 0; i < 4; i++) replies.push(await onNewConnection(agents, url, '/api/docs', { Authorization: `Bearer ${key}` }));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    // The replacement serves too, once it listens.
    const fresh = after.find((pid) => pid !== before[1])!;
    let servedByFresh = false;
    for (const deadline = Date.now() + 30_000; !servedByFresh && Date.now() < deadline; ) {
      expect((await onNewConnection(agents, url, '/api/docs', { Authorization: `Bearer ${key}` })).status).toBe(200);
      servedByFresh = connectionOwners(port, [fresh]).length > 0;
    }
    expect(servedByFresh).toBe(true);
    closeConnections();
    expect(output).toMatch(/worker exited; starting another/);
  }, 60_000);

  it('stops the primary and every worker on SIGTERM', async () => {
    const workers = workerPids(child.pid!);
    expect(workers).toHaveLength(2);
    const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
    const started = Date.now();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(15_000);
    await until('workers gone', () => workers.every((pid) => !alive(pid)), 5_000);
  }, 30_000);

  it('refuses a bad worker count, naming the setting', async () => {
    await expect(run(['serve', '--workers', '0', '--db', db])).rejects.toThrow(/--workers.*must be a whole number from 1 to 64/);
    await expect(run(['serve', '--db', db], { PANYA_WORKERS: 'many' })).rejects.toThrow(/PANYA_WORKERS/);
    await expect(run(['serve', '--workers', '2', '--db', ':memory:'])).rejects.toThrow(/--workers 2: an in-memory database/);
  });
});
