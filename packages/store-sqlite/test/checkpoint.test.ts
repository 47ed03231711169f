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
