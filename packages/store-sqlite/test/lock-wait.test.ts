import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isStoreBusy, type TenantRecord } from '@panya/core';
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

  const tenant = (n: number): TenantRecord => ({ id: `t${n}`, slug: `t${n}`, plan: 'free', quotas: {}, paymentCustomerId: null, createdAt: '2026-11-23T00:00:00.000Z', updatedAt: '2026-11-23T00:00:00.000Z' });

  it('opens a migrated database while another connection holds the write lock', async () => {
    // A second worker or process starting beside a long ingest write: nothing to migrate, so no lock to take.
    (await openSqliteStore({ path, busyTimeoutMs: 5_000 })).close();
    const other = new Database(path);
    try {
      other.exec('BEGIN IMMEDIATE');
      const store = openSqliteStore({ path, busyTimeoutMs: 50 });
      expect(await store.tenants.get('none')).toBeNull();
      other.exec('COMMIT');
      await store.close();
    } finally {
      other.close();
    }
  });

  it('a write and a transaction wait without blocking the event loop, then proceed', async () => {
    const store = openSqliteStore({ path, busyTimeoutMs: 5_000 });
    const other = new Database(path);
    try {
      other.exec('BEGIN IMMEDIATE');
      let ticks = 0;
      const ticker = setInterval(() => ticks++, 5);
      setTimeout(() => other.exec('COMMIT'), 200);
      await store.tenants.insert(tenant(1));
      expect(await store.tenants.get('t1')).toMatchObject({ slug: 't1' });
      clearInterval(ticker);
      expect(ticks).toBeGreaterThan(0);

      other.exec('BEGIN IMMEDIATE');
      setTimeout(() => other.exec('COMMIT'), 100);
      await store.transaction((tx) => tx.tenants.insert(tenant(2)));
      expect((await store.tenants.list()).map((t) => t.id)).toEqual(['t1', 't2']);
    } finally {
      other.close();
      await store.close();
    }
  });

  it("a transaction waiting for the lock holds no other request's statements; once it begins, they wait for its end", async () => {
    const store = openSqliteStore({ path, busyTimeoutMs: 3_000 });
    const other = new Database(path);
    let release = () => {};
    try {
      await store.tenants.insert(tenant(1));
      other.exec('BEGIN IMMEDIATE');
      let committed = false;
      const held = new Promise<void>((resolve) => (release = resolve));
      const writing = store
        .transaction(async (tx) => {
          await tx.tenants.insert(tenant(2));
          await held; // the transaction stays open here
          await tx.tenants.insert(tenant(3));
        })
        .then(() => (committed = true));
      // While the transaction waits for the lock, other requests' statements go through.
      expect((await store.tenants.list()).map((t) => t.id)).toEqual(['t1']);
      expect((await store.tenants.get('t1'))!.slug).toBe('t1');
      expect(committed).toBe(false);
      other.exec('COMMIT');
      await new Promise((resolve) => setTimeout(resolve, 50)); // it takes the lock and begins
      // Begun: another request's statement waits for the end, and never joins the transaction.
      const listing = store.tenants.list();
      release();
      expect((await listing).map((t) => t.id)).toEqual(['t1', 't2', 't3']);
      await writing;
    } finally {
      release();
      if (other.inTransaction) other.exec('ROLLBACK');
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

  it("gives up with the port's busy error (SQLITE_BUSY its cause) once its wait is over, having changed nothing", async () => {
    const store = openSqliteStore({ path, busyTimeoutMs: 150 });
    const other = new Database(path);
    try {
      other.exec('BEGIN IMMEDIATE');
      const failure = await store.tenants.insert(tenant(1)).then(() => null, (error: unknown) => error);
      expect(isStoreBusy(failure)).toBe(true);
      expect((failure as Error).cause).toMatchObject({ code: expect.stringMatching(/^SQLITE_BUSY/) });
      other.exec('COMMIT');
      expect(await store.tenants.list()).toEqual([]);
      await store.tenants.insert(tenant(1));
      expect((await store.tenants.list()).map((t) => t.id)).toEqual(['t1']);
    } finally {
      other.close();
      await store.close();
    }
  });
});
