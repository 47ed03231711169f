/**
 * `panya serve --workers 2` on one SQLite file: each worker's ingest thread runs the queue on a
 * connection of its own while the serving connection's document writer inserts uploads. Here two
 * ingest engines and one serving engine share a file, as those threads do, while two uploads of
 * 1 MB markdown are in flight. On a crowded machine a background thread holding the write lock
 * (a commit of thousands of chunks, at low CPU priority) keeps it for seconds, longer than a
 * store's lock wait; here a third connection holds it four times the ingest stores' lock wait,
 * again and again, so that shows on any machine. No round may fail on the lock, no document may
 * fail, and every acknowledged upload must end indexed.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine, type Engine, type IngestRunner, type Logger } from '@panya/core';
import { engineInternals } from '@panya/core/testing';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestRoundPermit, openSqliteStore } from '../src/index.js';

/** This package's folder, where `better-sqlite3` resolves. */
const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

/** About 1 MB of markdown in headed sections (deterministic), as the tenants bench uploads. */
function megabyte(seed: number): string {
  const words = ['refund', 'warranty', 'shipping', 'invoice', 'account', 'password', 'delivery', 'return', 'payment', 'support', 'order', 'parcel'];
  const parts: string[] = [];
  let size = 0;
  for (let s = 0; size < 1 << 20; s++) {
    const section = `## Section ${s}\n\n${Array.from({ length: 120 }, (_, i) => words[(s * 7 + i * 5 + seed) % words.length]).join(' ')}.\n\n`;
    parts.push(section);
    size += section.length;
  }
  return parts.join('');
}

/** Records what a logger was told at warn and error. */
function recordingLogger() {
  const lines: string[] = [];
  const logger: Logger = { debug: () => {}, info: () => {}, warn: (msg, data) => lines.push(`warn ${msg} ${JSON.stringify(data ?? {})}`), error: (msg, data) => lines.push(`error ${msg} ${JSON.stringify(data ?? {})}`) };
  return { logger, lines };
}

describe('two ingest workers over one SQLite file during large uploads', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'panya-concurrent-ingest-'));
    path = join(dir, 'panya.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('index every acknowledged upload without a round failing on the lock', async () => {
    const log = recordingLogger();
    // Rounds running now (from a claim that took documents to the end of the round), and the most at once.
    let running = 0;
    let mostAtOnce = 0;
    // The ingest threads of two `serve` workers: each its own connection, lease holder and round permit (one round at a time on the file).
    const ingesters: Engine[] = [1, 2].map((slot) => {
      const store = openSqliteStore({ path, busyTimeoutMs: 100 });
      const claim = store.documents.claimForIndexing.bind(store.documents);
      let inRound = false;
      store.documents.claimForIndexing = async (options) => {
        const claims = await claim(options);
        if (claims.length > 0 && !inRound) (inRound = true), (mostAtOnce = Math.max(mostAtOnce, ++running));
        return claims;
      };
      const onRound = () => void (inRound && ((inRound = false), running--));
      return createEngine({
        store,
        logger: log.logger,
        ingest: { pollMs: 50, onRound, permit: ingestRoundPermit(path, 1), holder: { node: `test/w${slot}`, incarnation: 'run', worker: 't0' } },
      });
    });
    // The serving connection: uploads go through its document writer thread, and it wakes both ingest threads.
    const runner: IngestRunner = { start: () => {}, stop: async () => {}, wake: () => ingesters.forEach((e) => e.wakeIngest()), onProgress: () => {} };
    const serving = createEngine({ store: openSqliteStore({ path, offThreadDocumentWrites: true, autoCheckpoint: false }), logger: log.logger, ingestRunner: runner });
    try {
      (await serving.tenancy.createTenant({ slug: 'acme', plan: 'business' }))._unsafeUnwrap();
      const ctx = (await serving.access.system('acme'))._unsafeUnwrap();
      for (const engine of ingesters) await engine.start();

      // Another writer holding the lock for 400 ms out of every 600 while the uploads are indexed.
      const other = new Database(path);
      other.pragma('busy_timeout = 0');
      const holding = setInterval(() => {
        try {
          other.exec('BEGIN IMMEDIATE');
          setTimeout(() => other.exec('COMMIT'), 400);
        } catch {
          // Someone else holds it now.
        }
      }, 600);
      const acknowledged: string[] = [];
      const uploads = [0, 1].map(async (client) => {
        for (let u = 0; u < 3; u++) {
          const docs = (await serving.documents.upload(ctx, { files: [{ title: `Upload ${client}-${u}`, contentMd: megabyte(client * 3 + u) }] }))._unsafeUnwrap();
          acknowledged.push(...docs.map((d) => d.id));
        }
      });
      await Promise.all(uploads);
      expect(acknowledged).toHaveLength(6);

      const statuses = await Promise.all(acknowledged.map((id) => engineInternals(serving).worker.waitFor(ctx.scope, id, 120_000)));
      clearInterval(holding);
      await new Promise((resolve) => setTimeout(resolve, 450));
      other.close();
      expect(statuses).toEqual(acknowledged.map(() => 'indexed'));
      expect(log.lines.filter((line) => /locked|round failed|ingest failed|renewal failed/.test(line))).toEqual([]);
      expect(mostAtOnce).toBe(1);
      const listed = (await serving.documents.browse(ctx, { limit: 100 }))._unsafeUnwrap();
      expect(listed.items.map((d) => d.id).sort()).toEqual([...acknowledged].sort());
    } finally {
      for (const engine of ingesters) await engine.close();
      await serving.close();
    }
  }, 300_000);

  it('a round permit: one holder per slot among threads and processes, freed when its process dies', async () => {
    const [a, b] = [ingestRoundPermit(path, 1), ingestRoundPermit(path, 1)];
    const two = ingestRoundPermit(path, 2);
    try {
      expect(a.tryAcquire()).toBe(true);
      expect(b.tryAcquire()).toBe(false);
      // A second slot: one more round at a time.
      expect(two.tryAcquire()).toBe(true);
      two.release();
      a.release();
      expect(b.tryAcquire()).toBe(true);
      b.release();

      // A process holding the slot is killed: the system frees its lock, with no lease to wait out.
      const holder = spawn(process.execPath, ['-e', `const D = require('better-sqlite3'); new D(${JSON.stringify(`${path}.ingest-0`)}).exec('BEGIN IMMEDIATE'); console.log('held'); setInterval(() => {}, 1000);`], { cwd: packageDir });
      await new Promise<void>((resolve, reject) => {
        holder.stdout.on('data', (d: Buffer) => d.toString().includes('held') && resolve());
        holder.once('exit', (code) => reject(new Error(`holder exited with ${code}`)));
      });
      expect(a.tryAcquire()).toBe(false);
      const exited = new Promise((resolve) => holder.once('exit', resolve));
      holder.kill('SIGKILL');
      await exited;
      expect(a.tryAcquire()).toBe(true);
      a.release();
    } finally {
      for (const permit of [a, b, two]) permit.close();
    }
  });
});
