/**
 * `createPanyaFromEnv`: the engine `panya serve` runs, built from the environment by a library
 * user. A configuration mistake stops it naming the setting, before any database is created.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger, type Engine, type RequestContext } from '@panya/core';
import { startFakeOpenAI, type FakeOpenAI } from '@panya/provider-openai/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, createPanyaFromEnv, panyaAppOptionsFromEnv } from '../src/index.js';

let dir: string;
let db: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'panya-from-env-'));
  db = join(dir, 'panya.db');
  return () => rmSync(dir, { recursive: true, force: true });
});

const quiet = { logger: silentLogger };

describe('createPanyaFromEnv: configuration mistakes name the setting', () => {
  it.each([
    [{ PANYA_EMBEDDER: 'bert' }, /PANYA_EMBEDDER: Invalid option: expected one of "auto"\|"hash"\|"local"\|"openai" \(got "bert"\)/],
    [{ PANYA_GENERATOR: 'openai' }, /PANYA_OPENAI_API_KEY: required by PANYA_GENERATOR=openai.*\(not set\)/],
    [{ PANYA_CONTEXTUALIZE: '1' }, /PANYA_CONTEXTUALIZE: needs PANYA_GENERATOR=openai/],
    [{ PANYA_OPENAI_BASE_URL: 'not a url' }, /PANYA_OPENAI_BASE_URL: .*\(got "not a url"\)/],
    [{ PANYA_EDGE_PROVIDER: 'akamai' }, /PANYA_EDGE_PROVIDER: "akamai" is not one of/],
    [{ PANYA_EDGE_PROVIDER: 'dns', PANYA_EDGE_TARGET: 'edge.example.net' }, /PANYA_BASE_URL: is required with PANYA_EDGE_PROVIDER=dns/],
    [{ PANYA_RESERVED_HOSTNAMES: 'status.example.com, not a name' }, /PANYA_RESERVED_HOSTNAMES: "not a name" is not a hostname/],
    [{ PANYA_PRICE_TEAM_BASE: 'price_1' }, /PANYA_STRIPE_SECRET_KEY: required when PANYA_PRICE_TEAM_BASE is set/],
    [{ PANYA_PRICE_TEAM_MONTHLY: 'price_1' }, /PANYA_PRICE_TEAM_MONTHLY: not a known setting/],
    [{ PANYA_TRIGRAM_INDEX: 'no' }, /PANYA_TRIGRAM_INDEX: Invalid option: expected one of "on"\|"off"/],
    [{ PANYA_SEARCH_CACHE_MB: '-1' }, /PANYA_SEARCH_CACHE_MB: .*\(got "-1"\)/],
    [{ PANYA_INDEX_CACHE_MB: 'lots' }, /PANYA_INDEX_CACHE_MB: .*\(got "lots"\)/],
    [{ PANYA_INDEX_CACHE_MB: '0' }, /PANYA_INDEX_CACHE_MB: .*\(got "0"\)/],
  ])('%o', async (env, message) => {
    const refused = createPanyaFromEnv({ PANYA_DB: db, ...env }, quiet);
    await expect(refused).rejects.toBeInstanceOf(ConfigError);
    await expect(refused).rejects.toThrow(message);
    expect(existsSync(db)).toBe(false);
  });

  it('refuses a database URL it cannot open, naming PANYA_DB', async () => {
    await expect(createPanyaFromEnv({ PANYA_DB: 'mysql://db/panya' }, quiet)).rejects.toThrow(/PANYA_DB \(or --db\): unsupported database URL "mysql:\/\/…"/);
  });

  it('refuses PANYA_EMBEDDER=openai without a key when it loads the embedder, and leaves the store closed', async () => {
    await expect(createPanyaFromEnv({ PANYA_DB: db, PANYA_EMBEDDER: 'openai' }, quiet)).rejects.toThrow(/PANYA_OPENAI_API_KEY: required by PANYA_EMBEDDER=openai/);
    // Closed: the file can be removed and opened again at once.
    const again = await createPanyaFromEnv({ PANYA_DB: db, PANYA_EMBEDDER: 'hash' }, quiet);
    await again.close();
  });
});

describe('createPanyaFromEnv: the configured engine', () => {
  let fake: FakeOpenAI;
  beforeAll(async () => {
    fake = await startFakeOpenAI({ dimension: 16 });
  });
  afterAll(async () => {
    await fake.close();
  });

  it('opens the SQLite file of PANYA_DB and answers with the OpenAI-compatible models it names', async () => {
    const env = { PANYA_DB: db, PANYA_EMBEDDER: 'openai', PANYA_EMBEDDING_MODEL: 'test-embed', PANYA_EMBEDDING_DIMENSIONS: '16', PANYA_GENERATOR: 'openai', PANYA_OPENAI_BASE_URL: fake.url };
    let engine: Engine = await createPanyaFromEnv(env, quiet);
    try {
      expect(existsSync(db)).toBe(true);
      const { tenant } = (await engine.tenancy.createTenant({ slug: 'acme', plan: 'business' }))._unsafeUnwrap();
      expect(tenant.slug).toBe('acme');
      const ctx = (await engine.access.system('acme'))._unsafeUnwrap();
      await engine.documents.create(ctx, { title: 'Refunds', contentMd: '# Refunds\n\nRefunds take 7 business days.' }, { wait: true });
      const { value: answer } = (await engine.answers.answer(ctx, { query: 'How long do refunds take?' }))._unsafeUnwrap();
      expect(answer).toMatchObject({ answer: 'Refunds take 7 business days [1].', grounded: true });
      const paths = fake.requests.map((r) => r.url);
      expect(paths).toContain('/v1/embeddings');
      expect(paths).toContain('/v1/chat/completions');
      expect(fake.requests.find((r) => r.url === '/v1/embeddings')!.body).toMatchObject({ model: 'test-embed', dimensions: 16 });
    } finally {
      await engine.close();
    }
    // The same environment opens the same database again.
    engine = await createPanyaFromEnv(env, quiet);
    try {
      expect((await engine.access.system('acme')).isOk()).toBe(true);
    } finally {
      await engine.close();
    }
  });

  /**
   * Opens the engine `env` configures on one file, once per setting of `name` (the first run, with
   * it unset, writes one document), and hands each the acme tenant's context.
   */
  async function eachSetting<T>(name: string, settings: readonly (readonly [string | undefined, T])[], contentMd: string, check: (engine: Engine, ctx: RequestContext, expected: T) => Promise<void>) {
    for (const [setting, expected] of settings) {
      const engine = await createPanyaFromEnv({ PANYA_DB: db, PANYA_EMBEDDER: 'hash', ...(setting ? { [name]: setting } : {}) }, quiet);
      try {
        if (setting === undefined) {
          await engine.tenancy.createTenant({ slug: 'acme', plan: 'business' });
          await engine.documents.create((await engine.access.system('acme'))._unsafeUnwrap(), { title: 'Orders', contentMd }, { wait: true });
        }
        await check(engine, (await engine.access.system('acme'))._unsafeUnwrap(), expected);
      } finally {
        await engine.close();
      }
    }
  }

  it('PANYA_TRIGRAM_INDEX=off opens the SQLite file without its trigram fallback; on (the default) brings it back', async () => {
    const trigramOnly = { lexical: 0, semantic: 0, trigram: 1 };
    await eachSetting('PANYA_TRIGRAM_INDEX', [[undefined, 1], ['off', 0], ['on', 1]], 'Order SKU-4471 ships in two days.', async (engine, ctx, finds) => {
      expect(await engine.search.retrieve(ctx.scope, 'ku-447', 10, trigramOnly)).toHaveLength(finds);
    });
  });

  it('PANYA_SEARCH_CACHE_MB sizes the cache of search answers; 0 runs every search', async () => {
    await eachSetting('PANYA_SEARCH_CACHE_MB', [[undefined, 1], ['0', 2], ['8', 1]], 'Orders ship in two days.', async (engine, ctx, runs) => {
      let retrievals = 0;
      engine.instruments.onSearch(() => retrievals++);
      for (let i = 0; i < 2; i++) expect((await engine.search.search(ctx, { query: 'orders' }))._unsafeUnwrap().results).toHaveLength(1);
      expect(retrievals).toBe(runs);
    });
  });

  it('gives the HTTP settings serve uses', () => {
    expect(panyaAppOptionsFromEnv({ PANYA_BASE_URL: 'https://api.example.com', PANYA_CRON_SECRET: 'c'.repeat(16), PANYA_SESSION_SECRET: 's'.repeat(16) })).toEqual({
      secureCookies: true,
      helpCenter: { apiHostname: 'api.example.com' },
      baseUrl: 'https://api.example.com',
      cronSecret: 'c'.repeat(16),
      sessionSecret: 's'.repeat(16),
    });
    expect(panyaAppOptionsFromEnv({})).toEqual({ secureCookies: false });
    expect(() => panyaAppOptionsFromEnv({ PANYA_CRON_SECRET: 'short' })).toThrow(/PANYA_CRON_SECRET: use at least 16 characters/);
    expect(panyaAppOptionsFromEnv({ PANYA_TRUST_PROXY: '1' })).toEqual({ secureCookies: false, trustProxy: 1 });
    expect(panyaAppOptionsFromEnv({ PANYA_TRUST_PROXY: '10.0.0.0/8,loopback' })).toEqual({ secureCookies: false, trustProxy: ['10.0.0.0/8', 'loopback'] });
    expect(() => panyaAppOptionsFromEnv({ PANYA_TRUST_PROXY: 'true' })).toThrow(/PANYA_TRUST_PROXY: "true" is neither a number of hops/);
  });
});
