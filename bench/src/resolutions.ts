/**
 * The resolution detector's cost (it runs every 15 minutes): a tenant with `historic` conversations already counted
 * in earlier months and `recent` new ones last month. Times the first run (records the recent
 * ones) and then the steady-state scan every later run makes: the detector's window (this month
 * and the previous one) against the same scan over the whole history, same database, same process.
 * argv: [historic] [recent]
 */
import { createIds, detectResolutions } from '@panya/core';
import { makeTenant, makeWorkspace } from '@panya/core/testing';
import { openSqliteStore } from '@panya/store-sqlite';
import { emit, log } from './lib/child.js';
import { median } from './lib/stats.js';

const historic = Number(process.argv[2] ?? 200_000);
const recent = Number(process.argv[3] ?? 2_000);
const RUNS = 9;

const store = openSqliteStore({ path: ':memory:' });
const tenant = makeTenant('bench');
const ws = makeWorkspace(tenant.id, 'default');
await store.tenants.insert(tenant);
await store.workspaces.insert(ws);
const db = store.db;
const conv = db.prepare('INSERT INTO conversations (id, tenant_id, workspace_id, locale, has_grounded_answer, has_thumbs_down, handed_off, created_at, last_message_at) VALUES (?, ?, ?, ?, 1, 0, 0, ?, ?)');
const res = db.prepare('INSERT INTO resolutions (id, tenant_id, workspace_id, conversation_id, billing_period, created_at, reported_period) VALUES (?, ?, ?, ?, ?, ?, ?)');
db.transaction(() => {
  for (let i = 0; i < historic; i++) {
    const at = new Date(Date.UTC(2029, i % 11, 1 + (i % 27), 10)).toISOString();
    conv.run(`conv_h${i}`, tenant.id, ws.id, 'en', at, at);
    res.run(`res_h${i}`, tenant.id, ws.id, `conv_h${i}`, at.slice(0, 7), at, at.slice(0, 7));
  }
  for (let i = 0; i < recent; i++) {
    const at = new Date(Date.UTC(2030, 0, 2 + (i % 27), 10)).toISOString();
    conv.run(`conv_r${i}`, tenant.id, ws.id, 'en', at, at);
  }
})();
log(`seeded ${historic} counted + ${recent} new conversations`);

const now = new Date('2030-02-01T00:40:00Z');
const t0 = performance.now();
const first = await detectResolutions(store, createIds(), now);
const firstRunMs = performance.now() - t0;

const idleBefore = new Date(now.getTime() - 30 * 60_000).toISOString();
const scan = async (from: string) => {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await store.resolutions.candidates({ from, idleBefore }, 200);
    times.push(performance.now() - t);
  }
  return median(times);
};
const windowMs = await scan('2030-01-01T00:00:00.000Z');
const wholeHistoryMs = await scan('1970-01-01T00:00:00.000Z');
await store.close();
emit({ historic, recent, runs: RUNS, firstRun: { ...first, ms: firstRunMs }, steady: { windowMs, wholeHistoryMs, ratio: wholeHistoryMs / windowMs } });
