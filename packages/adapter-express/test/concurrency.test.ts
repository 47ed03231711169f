/**
 * Limits under concurrency, on two nodes sharing one database (two engines, two connections or
 * pools): 200 simultaneous searches against an hourly limit of 60 admit exactly 60, and 60
 * simultaneous wrong passwords for one account are checked exactly as often as the throttle allows.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine, LOGIN_THROTTLE, type Store } from '@panya/core';
import { openPostgresStore } from '@panya/store-postgres';
import { openSqliteStore } from '@panya/store-sqlite';
import { createPanyaApp } from '@panya/adapter-express';
import { makeTenant } from './helpers.js';
import { recordFigures } from './security/harness.js';
import { engineInternals } from '@panya/core/testing';

const pgUrl = process.env.PANYA_TEST_PG;
if (!pgUrl) console.warn('Limits under concurrency on PostgreSQL skipped: set PANYA_TEST_PG=postgres://… to run them.');
const dir = mkdtempSync(join(tmpdir(), 'panya-concurrency-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Opened = { open(): Promise<Store>; drop(): Promise<void> };
const stores: { name: string; make(): Opened }[] = [
  {
    name: 'SQLite (one file, two connections)',
    make() {
      const path = join(dir, `${randomBytes(4).toString('hex')}.db`);
      return { open: async () => openSqliteStore({ path }), drop: async () => {} };
    },
  },
  ...(pgUrl
    ? [
        {
          name: 'PostgreSQL (one schema, two pools)',
          make(): Opened {
            const schema = `panya_conc_${randomBytes(6).toString('hex')}`;
            let first: Awaited<ReturnType<typeof openPostgresStore>> | undefined;
            return {
              open: async () => {
                const store = await openPostgresStore({ connectionString: pgUrl, schema });
                first ??= store;
                return store;
              },
              drop: async () => {
                const cleanup = await openPostgresStore({ connectionString: pgUrl, schema });
                await cleanup.pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
                await cleanup.close();
              },
            };
          },
        },
      ]
    : []),
];

const figures: string[] = [];

describe.each(stores)('limits under concurrency: $name', ({ name, make }) => {
  it('200 concurrent searches over two nodes against a limit of 60 admit exactly 60; 60 concurrent wrong passwords are checked exactly 5 times', async () => {
    const db = make();
    const a = createEngine({ store: await db.open() });
    const b = createEngine({ store: await db.open() });
    try {
      const acme = await makeTenant(a, 'acme');
      await engineInternals(a).store.tenants.update(acme.tenant.id, { quotas: { perKeyPerHour: 60 }, updatedAt: new Date().toISOString() });
      (await a.users.createUser({ email: 'owner@acme.test', password: 'correct horse battery', tenantSlug: 'acme', role: 'owner' }))._unsafeUnwrap();
      const apps = [createPanyaApp(a), createPanyaApp(b)];
      // Stay clear of an hour boundary, where the key's bucket turns over.
      const msToHour = 3_600_000 - (Date.now() % 3_600_000);
      if (msToHour < 15_000) await new Promise((r) => setTimeout(r, msToHour + 100));
      const searches = await Promise.all(Array.from({ length: 200 }, (_, i) => request(apps[i % 2]!).post('/api/search').set(acme.auth).send({ query: 'refund' }).then((r) => r.status)));
      expect(searches.filter((s) => s === 200), searches.join(',')).toHaveLength(60);
      expect(searches.filter((s) => s === 429)).toHaveLength(140);

      const guesses = await Promise.all(
        Array.from({ length: 60 }, (_, i) => request(apps[i % 2]!).post('/api/auth/login').send({ email: 'owner@acme.test', password: `guess ${i}` }).then((r) => r.status)),
      );
      expect(guesses.filter((s) => s === 401)).toHaveLength(LOGIN_THROTTLE.account[0].failures);
      expect(guesses.filter((s) => s === 429)).toHaveLength(60 - LOGIN_THROTTLE.account[0].failures);
      figures.push(`- ${name}: 200 concurrent searches, limit 60 → **${searches.filter((s) => s === 200).length} admitted**; 60 concurrent wrong passwords → **${guesses.filter((s) => s === 401).length} checked** (limit ${LOGIN_THROTTLE.account[0].failures})`);
      recordFigures('concurrency', figures);
    } finally {
      await a.close();
      await b.close();
      await db.drop();
    }
  }, 120_000);
});
