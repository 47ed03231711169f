import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { BACKGROUND_NICE } from '@panya/core';
import { afterEach, describe, expect, it } from 'vitest';
import { openPostgresStore, type PostgresStore } from '../src/index.js';
import { withPostgres } from './fixtures/with-postgres.js';

/** A process's nice value (field 19 of /proc/<pid>/stat, after the parenthesised command). */
const niceOf = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);

withPostgres('background priority of a store’s server processes (PostgreSQL)', (url) => {
  describe('background priority of a store’s server processes (PostgreSQL)', () => {
    const stores: PostgresStore[] = [];
    afterEach(async () => {
      for (const s of stores.splice(0)) await s.close();
    });
    const backendOf = async (background: boolean) => {
      const store = await openPostgresStore({ connectionString: url, schema: `panya_nice_${randomBytes(6).toString('hex')}`, max: 1, background });
      stores.push(store);
      const { rows } = await store.pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      return rows[0]!.pid;
    };

    it('runs a background store’s backend at background priority, a serving store’s as it was', async (context) => {
      const serving = await backendOf(false);
      const background = await backendOf(true);
      // Only where the server runs here and this process may renice its processes (root, or the same user).
      const mayRenice = existsSync(`/proc/${background}`) && (process.getuid?.() === 0 || statSync(`/proc/${background}`).uid === process.getuid?.());
      if (!mayRenice) context.skip();
      expect(niceOf(background)).toBe(BACKGROUND_NICE);
      expect(niceOf(serving)).toBeLessThan(BACKGROUND_NICE);
    });
  });
});
