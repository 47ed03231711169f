import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createEngine } from '@panya/core';
import { openPostgresStore, type PostgresStore } from '../src/index.js';
import { withPostgres } from './fixtures/with-postgres.js';

/** Keys' last uses are written in batches, one transaction a second per process: two processes touch the same keys. */
withPostgres('PostgreSQL api key last uses', (url) => {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const schema = `panya_touches_${randomBytes(6).toString('hex')}`;
  const stores: PostgresStore[] = [];
  afterAll(async () => {
    for (const store of stores) await store.close();
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  });

  describe('PostgreSQL api key last uses', () => {
    it("two processes' batches over the same keys, touched in opposite orders, both land (no deadlock)", async () => {
      for (let i = 0; i < 2; i++) stores.push(await openPostgresStore({ connectionString: url, schema, max: 2 }));
      const [a, b] = stores as [PostgresStore, PostgresStore];
      const engine = createEngine({ store: a });
      const { tenant } = (await engine.tenancy.createTenant({ slug: 'acme' }))._unsafeUnwrap();
      const ids: string[] = [];
      for (let k = 0; k < 6; k++) ids.push((await engine.apiKeys.create(tenant.id, { scopes: ['read'] }))._unsafeUnwrap().record.id);
      type Touching = { touch(id: string, at: string): Promise<void>; flushTouches(): Promise<void> };
      for (let round = 0; round < 5; round++) {
        const at = new Date(Date.UTC(2026, 0, 1, 0, round)).toISOString();
        for (const id of ids) await (a.apiKeys as unknown as Touching).touch(id, at);
        for (const id of [...ids].reverse()) await (b.apiKeys as unknown as Touching).touch(id, at);
        await Promise.all([(a.apiKeys as unknown as Touching).flushTouches(), (b.apiKeys as unknown as Touching).flushTouches()]);
        const { rows } = await pool.query<{ last_used_at: Date }>(`SELECT last_used_at FROM "${schema}".api_keys WHERE id = ANY($1)`, [ids]);
        expect(rows.map((r) => r.last_used_at.toISOString())).toEqual(ids.map(() => at));
      }
    });
  });
});
