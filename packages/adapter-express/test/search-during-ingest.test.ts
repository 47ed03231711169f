/**
 * Never stall: a tenant's search never waits for its own ingest. Two engines share one database,
 * as a serving process and an ingest thread (or another node) do; the ingest engine's commit of a
 * document's chunks is held open mid-transaction (it holds the write lock and row locks), and the
 * tenant's searches over HTTP must answer meanwhile from what is committed. Had a search waited for
 * the ingest transaction, its request could only answer after the release, which comes after it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine, type Store } from '@panya/core';
import { openPostgresStore } from '@panya/store-postgres';
import { openSqliteStore } from '@panya/store-sqlite';
import { createPanyaApp } from '@panya/adapter-express';
import { makeTenant } from './helpers.js';

const pgUrl = process.env.PANYA_TEST_PG;
if (!pgUrl) console.warn('Search during ingest on PostgreSQL skipped: set PANYA_TEST_PG=postgres://… to run it.');
const dir = mkdtempSync(join(tmpdir(), 'panya-search-ingest-'));
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
            const schema = `panya_ingest_${randomBytes(6).toString('hex')}`;
            return {
              open: async () => openPostgresStore({ connectionString: pgUrl, schema }),
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

/**
 * The store with its chunk-writing transactions held open once `hold()` is called: the first one
 * that writes a document's chunks stops before its commit until `release()`.
 */
function holdingChunkCommits(store: Store) {
  const original = store.transaction.bind(store);
  let holding = false;
  let entered!: () => void;
  const inside = new Promise<void>((resolve) => (entered = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  store.transaction = <T>(fn: (tx: Store) => Promise<T>) =>
    original(async (tx) => {
      let wrote = false;
      const search = new Proxy(tx.search, {
        get(target, prop) {
          const value = Reflect.get(target, prop) as unknown;
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => {
            if (prop === 'replaceDocumentChunks') wrote = true;
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      });
      const result = await fn(new Proxy(tx, { get: (target, prop) => (prop === 'search' ? search : Reflect.get(target, prop)) }));
      if (holding && wrote) {
        holding = false;
        entered();
        await released;
      }
      return result;
    });
  return { hold: () => (holding = true), inside, release };
}

describe.each(stores)('a search during its tenant’s ingest: $name', ({ make }) => {
  it('answers from what is committed while the ingest transaction is open, and sees the document once it commits', async () => {
    const db = make();
    const serving = createEngine({ store: await db.open() });
    const ingestStore = await db.open();
    const held = holdingChunkCommits(ingestStore);
    const ingesting = createEngine({ store: ingestStore });
    try {
      const acme = await makeTenant(serving, 'acme');
      const app = createPanyaApp(serving);
      const create = (title: string, contentMd: string) => request(app).post('/api/docs').set(acme.auth).send({ title, contentMd }).expect(201);
      const hits = async (query: string) => {
        const res = await request(app).post('/api/search').set(acme.auth).send({ query, topK: 5 });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return (res.body.results as { title: string }[]).map((r) => r.title);
      };
      await create('Refund policy', 'Refunds are paid within fourteen days of a return.');
      await ingesting.ingest.drain();
      expect(await hits('refund')).toContain('Refund policy');

      await create('Warranty terms', 'The warranty covers manufacturing defects for two years.');
      held.hold();
      const draining = ingesting.ingest.drain();
      await held.inside;
      // The ingest transaction is open now, its chunks written but not committed.
      expect(await hits('refund')).toContain('Refund policy');
      expect(await hits('warranty defects')).not.toContain('Warranty terms');

      held.release();
      await draining;
      expect(await hits('warranty defects')).toContain('Warranty terms');
    } finally {
      held.release();
      await ingesting.close();
      await serving.close();
      await db.drop();
    }
  });
});
