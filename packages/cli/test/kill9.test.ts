import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKSPACE_KEPT } from '@panya/core/rows';
import { makeTenant, makeWorkspace } from '@panya/core/testing';
import { startFakeStripe } from '@panya/payment-stripe/testing';
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

function start(extraEnv: Record<string, string> = {}): Promise<Node> {
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--db', db], { env: { ...env, ...extraEnv } });
  let output = '';
  return new Promise((ok, fail) => {
    // Waits for the "listening" line, however busy the machine; the test's own timeout bounds it.
    const timer = setTimeout(() => fail(new Error(`serve did not start:\n${output}`)), 120_000);
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

/** Polls until `done()` holds; fails naming the state that never came. */
async function until(what: string, done: () => boolean | Promise<boolean>, pollMs = 50, timeoutMs = 150_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

function kill9(node: Node): Promise<void> {
  if (node.child.exitCode !== null || node.child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    node.child.once('exit', () => done());
    node.child.kill('SIGKILL');
  });
}

/** A process and its descendants (`serve`'s worker processes), from /proc. */
function processTree(pid: number): number[] {
  const children = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        // The parent's pid is the second field after the command's closing parenthesis.
        return readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ').at(-1)!.split(' ')[1] === String(pid);
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
  return [pid, ...children.flatMap(processTree)];
}

/** Freezes the server and its workers where they are (SIGSTOP), then kills them all. */
async function freezeAndKill(node: Node): Promise<void> {
  const tree = processTree(node.child.pid!);
  for (const pid of tree) process.kill(pid, 'SIGSTOP');
  for (const pid of tree.slice(1)) process.kill(pid, 'SIGKILL');
  await kill9(node);
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
    await until('200 acknowledged documents', () => acknowledged.length >= 200, 20);
    await kill9(node);
    await Promise.all(writers);
    expect(acknowledged.length).toBeGreaterThanOrEqual(200);

    node = await start();
    let pending = [...acknowledged];
    await until('every acknowledged document indexed', async () => {
      // A request the busy machine drops (a reset connection) is asked again next round; only an answer counts.
      const statuses = await Promise.all(
        pending.map(async (id) => {
          const res = await call(node!, `/api/docs/${id}`, key).catch(() => null);
          return [id, res ? (((await res.json()) as { status?: string }).status ?? 'missing') : 'unanswered'] as const;
        }),
      );
      for (const [id, status] of statuses) expect(status, `acknowledged document ${id} is missing`).not.toBe('missing');
      pending = statuses.filter(([, s]) => s !== 'indexed').map(([id]) => id);
      return pending.length === 0;
    }, 250);
    crashes.push(`- bulk ingest: killed after ${acknowledged.length} of ${sent} sent documents were acknowledged; after restart all ${acknowledged.length} exist and are indexed`);
  }, 300_000);

  it('the ingest processes, in sessions of their own, end with the server that started them', async () => {
    const current = (node ??= await start());
    const server = current.child.pid!;
    // A process that is gone meanwhile reads as empty.
    const read = (path: string) => {
      try {
        return readFileSync(path, 'utf8');
      } catch {
        return '';
      }
    };
    const isIngest = (pid: number) => pid !== server && read(`/proc/${pid}/cmdline`).includes('--panya-ingest=');
    // Running, at the background priority it sets itself once started.
    const nice = (pid: number) => read(`/proc/${pid}/stat`).split(') ').at(-1)!.split(' ')[16];
    let ingest: number[] = [];
    await until('the ingest process at background priority', () => (ingest = processTree(server).filter(isIngest)).length > 0 && ingest.every((pid) => nice(pid) === '10'));
    // Every `serve` process at once (the primary and its workers, the ingest processes' parents), so none can stop them.
    for (const pid of processTree(server).filter((pid) => pid !== server && !ingest.includes(pid))) process.kill(pid, 'SIGKILL');
    await kill9(current);
    // Gone, or a zombie awaiting its reaper: no longer running either way.
    const running = (pid: number) => !['', 'Z'].includes(read(`/proc/${pid}/stat`).split(') ').at(-1)![0] ?? '');
    await until('the ingest processes to end', () => !ingest.some(running), 50, 20_000);
    node = await start();
  }, 120_000);

  it('workspace cleanup: a hard delete killed mid-run is finished by the next run after restart, and touches no other workspace', async () => {
    node ??= await start();
    const workspace = async (slug: string, docs: number) => {
      const created = (await (await call(node!, '/api/workspaces', key, 'POST', { slug, name: slug })).json()) as { id: string };
      for (let i = 0; i < docs; i += 250) {
        const items = Array.from({ length: Math.min(250, docs - i) }, (_, j) => ({ title: `${slug} ${i + j}`, contentMd: `# ${slug} ${i + j}\n\nArticle ${i + j} about returns and refunds.` }));
        expect((await call(node!, `/c/acme/_w/${slug}/api/docs/bulk`, key, 'POST', { create: items })).status).toBeLessThan(300);
      }
      return created.id;
    };
    const doomed = await workspace('old-brand', 3000);
    const kept = await workspace('new-brand', 100);
    expect((await call(node, `/api/workspaces/${doomed}`, key, 'DELETE')).status).toBe(200);
    // Thirty-one days later: past the recovery window.
    const store: SqliteStore = openSqliteStore({ path: db });
    // This test writes raw SQL beside the running server, as any SQLite client would: let those statements wait
    // for the server's write lock (the store's own calls retry asynchronously and need no such wait).
    store.db.pragma('busy_timeout = 10000');
    store.db.prepare('UPDATE workspaces SET deleted_at = ? WHERE id = ?').run(new Date(Date.now() - 31 * 86_400_000).toISOString(), doomed);
    const tables = (store.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE '%VIRTUAL%'").all() as { name: string }[])
      .map((t) => t.name)
      .filter((t) => (store.db.prepare('SELECT name FROM pragma_table_info(?)').all(t) as { name: string }[]).some((c) => c.name === 'workspace_id'));
    /** Rows per table of one workspace, in every table with `workspace_id`. */
    const rowsOf = (id: string) => Object.fromEntries(tables.map((t) => [t, (store.db.prepare(`SELECT COUNT(*) AS n FROM "${t}" WHERE workspace_id = ?`).get(id) as { n: number }).n]));
    const total = (rows: Record<string, number>) => Object.values(rows).reduce((a, b) => a + b, 0);
    // Progress is counted in content rows: a chunk's removal records a lexical deletion mask, which
    // the same run purges after the chunks.
    const content = (rows: Record<string, number>) => total(Object.fromEntries(Object.entries(rows).filter(([t]) => !t.startsWith('lexical_'))));
    // Bulk writes are queued: wait until every document is indexed (its chunks written).
    await until('every document indexed', () => (store.db.prepare("SELECT COUNT(*) AS n FROM documents WHERE status IN ('pending', 'indexing')").get() as { n: number }).n === 0, 100);
    const keptBefore = rowsOf(kept);
    const before = content(rowsOf(doomed));
    expect(before).toBeGreaterThanOrEqual(3000);

    const cron = (n: Node) => fetch(`${n.url}/api/cron/workspace-cleanup`, { headers: { Authorization: `Bearer ${CRON_SECRET}` } });
    const cleanup = cron(node).catch(() => null);
    // As soon as the first rows are gone, freeze the server and its workers there (SIGSTOP: the run takes
    // no further step, however loaded the machine) and kill them: mid-run, whatever the machine's speed.
    const chunksOf = store.db.prepare('SELECT COUNT(*) AS n FROM chunks WHERE workspace_id = ?');
    const chunksBefore = (chunksOf.get(doomed) as { n: number }).n;
    await until('the first deleted rows', () => (chunksOf.get(doomed) as { n: number }).n !== chunksBefore, 1);
    await freezeAndKill(node);
    expect(await cleanup, 'the first run finished before the kill').toBeNull();
    const left = content(rowsOf(doomed));
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(before);
    // The workspace row goes last: while any of its rows remain, it is still there to be resumed.
    expect(store.db.prepare('SELECT id FROM workspaces WHERE id = ?').get(doomed)).toBeDefined();

    node = await start();
    const restarted = Date.now();
    const rerun = await cron(node);
    const summary = (await rerun.json()) as { ran: boolean; done?: boolean; hardDeleted?: number; reason?: string };
    expect(rerun.status).toBe(200);
    // The killed run's job lease must not hold the next run back.
    expect(summary).toMatchObject({ ran: true, done: true, hardDeleted: 1 });
    const finishedMs = Date.now() - restarted;
    // Every row of the workspace is gone but the tenant's audit chain, which outlives its workspaces.
    expect(rowsOf(doomed)).toEqual(Object.fromEntries(tables.map((t) => [t, WORKSPACE_KEPT.includes(t) ? rowsOf(doomed)[t] : 0])));
    for (const t of WORKSPACE_KEPT) expect(rowsOf(doomed)[t], t).toBeGreaterThan(0);
    expect(store.db.prepare('SELECT id FROM workspaces WHERE id = ?').get(doomed)).toBeUndefined();
    expect(rowsOf(kept)).toEqual(keptBefore);
    await store.close();
    crashes.push(`- workspace cleanup: killed mid-run with ${left} of ${before} workspace rows left; after restart the next run deleted the rest (${(finishedMs / 1000).toFixed(1)} s) and left the other workspace's ${total(keptBefore)} rows untouched`);
  }, 300_000);

  it('usage reporter: killed while deciding and again while sending, the run after restart sends every meter event exactly once', async () => {
    await stop(node);
    const STRIPE_KEY = 'sk_test_kill9_0123456789';
    const fake = await startFakeStripe({ secretKey: STRIPE_KEY });
    const stripeEnv = {
      PANYA_STRIPE_SECRET_KEY: STRIPE_KEY,
      PANYA_STRIPE_API_URL: fake.url,
      PANYA_STRIPE_WEBHOOK_SECRET: 'whsec_kill9',
      PANYA_METER_RESOLUTIONS: 'svc_resolutions',
      PANYA_METER_API_QUERIES: 'svc_api_queries',
      PANYA_METER_SEATS: 'svc_seat_addon_team',
      PANYA_METER_GUIDED_FLOWS: 'svc_guided_flow',
    };
    const store: SqliteStore = openSqliteStore({ path: db });
    try {
      // Last month's usage of 60 Team tenants with a subscription: guided flows and add-on seats.
      const now = new Date();
      const period = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
      const expected = new Map<string, { eventName: string; customer: string; value: number }>();
      for (let i = 0; i < 60; i++) {
        const customer = `cus_kill9_${i}`;
        const tenant = makeTenant(`billed-${i}`, { plan: 'team', quotas: { includedResolutions: 10 }, paymentCustomerId: customer });
        await store.tenants.insert(tenant);
        const ws = makeWorkspace(tenant.id, 'default', { isDefault: true });
        await store.workspaces.insert(ws);
        const flows = 1 + (i % 7);
        for (let k = 0; k < flows; k++) {
          await store.usage.recordUsage({ id: `evt_kill9_${i}_${k}`, tenantId: tenant.id, workspaceId: ws.id, meter: 'guided_flow', quantity: 1, billingPeriod: period, createdAt: `${period}-15T10:00:00.000Z`, data: {} });
        }
        const seats = 1 + (i % 4);
        await store.billing.putTenantBilling({ tenantId: tenant.id, subscriptionId: null, subscriptionStatus: 'active', interval: 'month', lockedRates: null, lockedUntil: null, addonSeats: seats, updatedAt: `${period}-01T00:00:00.000Z` });
        fake.addSubscription({ customer, status: 'active', metadata: { tenantId: tenant.id }, items: [] });
        expected.set(`${tenant.id}:${period}:svc_guided_flow`, { eventName: 'svc_guided_flow', customer, value: flows });
        expected.set(`${tenant.id}:${period}:svc_seat_addon_team`, { eventName: 'svc_seat_addon_team', customer, value: seats });
      }
      const cron = (n: Node) => fetch(`${n.url}/api/cron/usage-reporter`, { headers: { Authorization: `Bearer ${CRON_SECRET}` } });
      const subscriptionChecks = () => fake.requests.filter((r) => r.path === '/v1/subscriptions').length;
      const meterPosts = () => fake.requests.filter((r) => r.path === '/v1/billing/meter_events');

      // First run: killed while it checks subscriptions (Stripe holds the 31st answer), before anything is sent.
      fake.holdResponses('/v1/subscriptions', 30);
      node = await start(stripeEnv);
      let run = cron(node).catch(() => null);
      await until('the 31st subscription check', () => subscriptionChecks() > 30);
      await kill9(node);
      expect(await run).toBeNull();
      expect(fake.meterEvents).toHaveLength(0);

      // Second run: killed while it sends; Stripe took the 71st event, but its answer never came.
      fake.holdResponses('/v1/subscriptions', Number.POSITIVE_INFINITY);
      fake.holdResponses('/v1/billing/meter_events', 70);
      node = await start(stripeEnv);
      run = cron(node).catch(() => null);
      await until('the 71st meter event', () => fake.meterEvents.length > 70);
      await kill9(node);
      expect(await run).toBeNull();
      const acceptedBeforeKill = fake.meterEvents.length;
      const unanswered = fake.meterEvents.at(-1)!.identifier;
      const postsBefore = meterPosts().length;

      // After restart the next run finishes: no lease of the killed runs holds it back.
      fake.holdResponses('/v1/billing/meter_events', Number.POSITIVE_INFINITY);
      node = await start(stripeEnv);
      const finished = await cron(node);
      expect(finished.status).toBe(200);
      const summary = (await finished.json()) as { ran: boolean; sent?: number; unsent?: number };
      expect(summary).toMatchObject({ ran: true, sent: expected.size - acceptedBeforeKill + 1, unsent: 0 });

      // Stripe accepted each identifier exactly once, with the period total; nothing more, nothing less.
      const accepted = new Map<string, number>();
      for (const e of fake.meterEvents) accepted.set(e.identifier, (accepted.get(e.identifier) ?? 0) + 1);
      expect([...accepted.values()].every((n) => n === 1)).toBe(true);
      expect([...accepted.keys()].sort()).toEqual([...expected.keys()].sort());
      for (const e of fake.meterEvents) {
        const want = expected.get(e.identifier)!;
        expect({ event: e.event_name, customer: e.payload.stripe_customer_id, value: Number(e.payload.value) }).toEqual({ event: want.eventName, customer: want.customer, value: want.value });
      }
      const totals = (events: { eventName: string; value: number }[]) => events.reduce<Record<string, number>>((t, e) => ({ ...t, [e.eventName]: (t[e.eventName] ?? 0) + e.value }), {});
      expect(totals(fake.meterEvents.map((e) => ({ eventName: e.event_name, value: Number(e.payload.value) })))).toEqual(totals([...expected.values()]));
      // Only the event whose answer the kill cut off went out again (and Stripe knew it already).
      const resent = meterPosts().slice(postsBefore).map((r) => String(r.params.identifier)).filter((id) => meterPosts().slice(0, postsBefore).some((r) => r.params.identifier === id));
      expect(resent).toEqual([unanswered]);
      expect(await store.billing.pendingMeterEvents({ limit: 1000 })).toEqual([]);
      crashes.push(
        `- usage reporter: killed while checking subscriptions (30 of 60 tenants answered, nothing sent), then while sending (${acceptedBeforeKill} of ${expected.size} meter events accepted, the last unanswered); after restart the next run sent the other ${expected.size - acceptedBeforeKill} and resent only the unanswered one: each of ${expected.size} identifiers accepted once, totals equal to the usage`,
      );
    } finally {
      await stop(node);
      await store.close();
      await fake.close();
    }
    if (process.env.PANYA_RELIABILITY_REPORT) {
      const { recordFigures } = await import('../../adapter-express/test/security/harness.js');
      recordFigures('crashes', crashes);
    }
  }, 240_000);
});
