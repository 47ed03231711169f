import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../src/index.js';

/**
 * A serving connection that leaves WAL checkpoints to others (`autoCheckpoint: false`) never copies
 * the log into the database on its own commits; by default, a commit past 1,000 pages does.
 */
describe('autoCheckpoint', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'panya-ckpt-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Commits 8 transactions of 1 MB each on the store's connection; returns the WAL's size in MB. */
  async function walAfterWrites(autoCheckpoint: boolean | undefined): Promise<number> {
    const path = join(dir, `${String(autoCheckpoint)}.db`);
    const store = openSqliteStore({ path, ...(autoCheckpoint === undefined ? {} : { autoCheckpoint }) });
    try {
      store.db.exec('CREATE TABLE scratch (body BLOB)');
      for (let i = 0; i < 8; i++) store.db.prepare('INSERT INTO scratch VALUES (?)').run(Buffer.alloc(1024 * 1024, i));
      return statSync(`${path}-wal`).size / 1024 / 1024;
    } finally {
      await store.close();
    }
  }

  it('by default commits checkpoint the WAL (it is reused, staying near 1,000 pages)', async () => {
    expect(await walAfterWrites(undefined)).toBeLessThan(6);
  });

  it('turned off, the connection leaves the WAL to grow until another connection checkpoints', async () => {
    expect(await walAfterWrites(false)).toBeGreaterThan(8);
  });
});

/**
 * The counters' file is written by serving connections only (query events, rate counters): a serving
 * connection leaves its checkpoints too, and a background connection opened with `checkpointEveryMs`
 * (`panya serve`'s ingest threads) copies both logs into their files on a timer.
 */
describe('checkpointEveryMs', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'panya-ckpt-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Commits 8 transactions of 1 MB each on the serving connection's counters file. */
  function writeCounters(store: ReturnType<typeof openSqliteStore>) {
    store.countersDb.exec('CREATE TABLE IF NOT EXISTS scratch (body BLOB)');
    for (let i = 0; i < 8; i++) store.countersDb.prepare('INSERT INTO scratch VALUES (?)').run(Buffer.alloc(1024 * 1024, i));
  }
  const mb = (file: string) => statSync(file).size / 1024 / 1024;

  it('a serving connection does not checkpoint the counters file; the background one does, on its timer', async () => {
    const path = join(dir, 'panya.db');
    const serving = openSqliteStore({ path, autoCheckpoint: false });
    try {
      writeCounters(serving);
      expect(mb(`${path}.counters-wal`)).toBeGreaterThan(8);
      expect(mb(`${path}.counters`)).toBeLessThan(1); // nothing copied into the file yet
      serving.db.exec('CREATE TABLE scratch (body BLOB)');
      serving.db.prepare('INSERT INTO scratch VALUES (?)').run(Buffer.alloc(1024 * 1024, 1));
      const mainBefore = mb(path);

      const background = openSqliteStore({ path, checkpointEveryMs: 20 });
      try {
        await expect.poll(() => mb(`${path}.counters`), { timeout: 5_000 }).toBeGreaterThan(8);
        await expect.poll(() => mb(path), { timeout: 5_000 }).toBeGreaterThan(mainBefore + 0.9);
      } finally {
        await background.close();
      }
      // Closed, its timer is gone: new pages stay in the log.
      const counters = mb(`${path}.counters`);
      writeCounters(serving);
      await new Promise((r) => setTimeout(r, 100));
      expect(mb(`${path}.counters`)).toBe(counters);
    } finally {
      await serving.close();
    }
  });

  it('a connection left at the default checkpoints the counters file on its own commits', async () => {
    const path = join(dir, 'panya.db');
    const store = openSqliteStore({ path });
    try {
      writeCounters(store);
      expect(mb(`${path}.counters`)).toBeGreaterThan(5);
    } finally {
      await store.close();
    }
  });
});
