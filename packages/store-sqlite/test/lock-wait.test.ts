import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../src/index.js';

/**
 * Another connection holding the write lock (an ingest thread, another process) must not freeze
 * this connection's event loop: the store waits for the lock asynchronously. Here the holder is
 * on the same thread, so it can only let go if the waiting store leaves the event loop free.
 */
describe('waiting for another connection’s write lock', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'panya-lock-'));
    path = join(dir, 'panya.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const bucket = { key: 'q:day:t1', window: '2026-11-23', limit: 10, resetAt: '2026-11-24T00:00:00.000Z' };

  it('a write and a transaction wait without blocking the event loop, then proceed', async () => {
    const store = openSqliteStore({ path, busyTimeoutMs: 5_000 });
    const other = new Database(path);
    try {
      other.exec('BEGIN IMMEDIATE');
      let ticks = 0;
      const ticker = setInterval(() => ticks++, 5);
      setTimeout(() => other.exec('COMMIT'), 200);
      const write = store.rateLimits.consume([bucket], 1);
      expect(await write).toMatchObject({ allowed: true, counts: [1] });
      clearInterval(ticker);
      expect(ticks).toBeGreaterThan(0);

      other.exec('BEGIN IMMEDIATE');
      setTimeout(() => other.exec('COMMIT'), 100);
      const counted = await store.transaction((tx) => tx.rateLimits.consume([bucket], 1));
      expect(counted.counts).toEqual([2]);
    } finally {
      other.close();
      await store.close();
    }
  });

  it('waits for the lock at most 1 ms synchronously once open (beyond it, asynchronously)', async () => {
    const store = openSqliteStore({ path, busyTimeoutMs: 5_000 });
    try {
      expect(store.db.pragma('busy_timeout', { simple: true })).toBe(1);
    } finally {
      await store.close();
    }
  });

  it('gives up with SQLITE_BUSY once its wait is over, having changed nothing', async () => {
    const store = openSqliteStore({ path, busyTimeoutMs: 150 });
    const other = new Database(path);
    try {
      other.exec('BEGIN IMMEDIATE');
      await expect(store.rateLimits.consume([bucket], 1)).rejects.toMatchObject({ code: expect.stringMatching(/^SQLITE_BUSY/) });
      other.exec('COMMIT');
      expect(await store.rateLimits.consume([bucket], 1)).toMatchObject({ counts: [1] });
    } finally {
      other.close();
      await store.close();
    }
  });
});
