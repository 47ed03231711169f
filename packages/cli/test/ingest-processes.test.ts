import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '@panya/core';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startIngestProcesses } from '../src/ingest-processes.js';
import { openEngine } from '../src/runtime.js';
import { engineInternals } from '@panya/core/testing';

const dir = mkdtempSync(join(tmpdir(), 'panya-ingest-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The fields of /proc/<pid>/stat after the command: [state, ppid, pgrp, session, …, nice at 16]. */
const stat = (pid: number) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1)!.split(' ');

/** This process's ingest processes (Linux), by their argument. */
function ingestChildren(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        return stat(Number(entry))[1] === String(process.pid) && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('--panya-ingest=');
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

const linux = existsSync('/proc/self/stat');
const autogroups = existsSync('/proc/sys/kernel/sched_autogroup_enabled') && readFileSync('/proc/sys/kernel/sched_autogroup_enabled', 'utf8').trim() === '1';

/** Polls until `done()` holds (at most 30 s); the assertions after it say what did not. */
async function until(done: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 30_000; !done() && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 50));
}

describe('ingest in background processes', () => {
  it('indexes documents off the serving process; ?wait=true waits for the ingest process', async () => {
    const db = join(dir, 'panya.db');
    const runner = startIngestProcesses({ db, embedder: 'hash', logLevel: 'silent' }, 1, { ...silentLogger, error: (m, d) => console.error(m, d), warn: (m, d) => console.error(m, d) });
    const engine = await openEngine({ db, ingestRunner: runner });
    const inProcess = vi.spyOn(engine.ingest, 'processBatch');
    try {
      await engine.start();
      const { tenant } = (await engine.tenancy.createTenant({ slug: 'acme', plan: 'business' }))._unsafeUnwrap();
      const ctx = (await engine.access.system(tenant.slug))._unsafeUnwrap();
      const waited = (await engine.documents.create(ctx, { title: 'Refunds', contentMd: 'Refunds take seven days to reach the card.' }, { wait: true }))._unsafeUnwrap();
      expect(waited.status).toBe('indexed');
      // Written without waiting: the ingest process is woken and indexes it too.
      const queued = (await engine.documents.create(ctx, { title: 'Shipping', contentMd: 'Parcels to Chiang Mai arrive in three days.' }))._unsafeUnwrap();
      expect(await engineInternals(engine).worker.waitFor(ctx.scope, queued.id, 20_000)).toBe('indexed');
      const found = (await engine.search.search(ctx, { query: 'parcels Chiang Mai' }))._unsafeUnwrap();
      expect(found.results[0]?.documentId).toBe(queued.id);
      expect(inProcess).not.toHaveBeenCalled();
    } finally {
      await engine.close();
    }
  }, 60_000);

  it.runIf(linux)('runs each ingest process in a session of its own at background priority, and stop() ends them', async () => {
    const runner = startIngestProcesses({ db: join(dir, 'priority.db'), embedder: 'hash', logLevel: 'silent' }, 2, silentLogger);
    runner.start();
    try {
      await until(() => ingestChildren().length === 2);
      const children = ingestChildren();
      const ours = stat(process.pid)[3];
      for (const pid of children) {
        // A session of its own: on Linux, a scheduling group (autogroup) the server's threads do not share.
        expect(stat(pid)[3]).toBe(String(pid));
        expect(stat(pid)[3]).not.toBe(ours);
        // Its priority is lowered once it runs: the main thread's nice value, and the group's where autogroups exist.
        await until(() => stat(pid)[16] === '10');
        if (autogroups) expect(readFileSync(`/proc/${pid}/autogroup`, 'utf8')).toMatch(/ nice 10$/m);
      }
    } finally {
      await runner.stop();
    }
    expect(ingestChildren()).toEqual([]);
  }, 60_000);
});
