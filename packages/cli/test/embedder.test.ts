import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HashEmbedder } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { loadEnv } from '../src/config.js';
import { modelCacheDir, selectEmbedder } from '../src/embedder.js';

// shared/ sits beside the repository checkout, or PANYA_SHARED_DIR.
const models = resolve(process.env.PANYA_SHARED_DIR ?? resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared'), 'models');
const inCi = !!process.env.CI && process.env.CI !== 'false' && process.env.CI !== '0';
const hasModel = existsSync(`${models}/tiny-random-bert/config.json`);
if (!hasModel && !inCi) console.warn(`Local-model embedder test skipped: fixture not found at ${models}/tiny-random-bert (set PANYA_SHARED_DIR to run it).`);

function recordingLogger() {
  const warnings: string[] = [];
  return { warnings, logger: { debug() {}, info() {}, warn: (msg: string) => warnings.push(msg), error() {} } };
}

describe('PANYA_EMBEDDER', () => {
  it.skipIf(!hasModel && !inCi)('auto loads the local model when it is available', async () => {
    expect(hasModel, `model fixture missing at ${models}`).toBe(true);
    const env = loadEnv({ PANYA_LOCAL_MODEL: 'tiny-random-bert', PANYA_LOCAL_MODEL_PATH: models, PANYA_LOCAL_MODEL_DTYPE: 'fp32' });
    const { logger, warnings } = recordingLogger();
    const embedder = await selectEmbedder('auto', env, openSqliteStore({ path: ':memory:' }), logger);
    expect(embedder.id).toBe('local:tiny-random-bert:fp32');
    expect(warnings).toEqual([]);
  });

  it('auto falls back to the hash embedder with one warning when no model loads', async () => {
    const env = loadEnv({ PANYA_LOCAL_MODEL: 'no-such-model', PANYA_LOCAL_MODEL_PATH: models, PANYA_MODEL_CACHE: models });
    const { logger, warnings } = recordingLogger();
    const embedder = await selectEmbedder('auto', env, openSqliteStore({ path: ':memory:' }), logger);
    expect(embedder).toBeInstanceOf(HashEmbedder);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/hash embedder/);
  });

  it('auto keeps the hash embedder an existing index was built with', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    const hash = new HashEmbedder();
    await store.search.setIndexInfo({ embedderId: hash.id, dimension: hash.dimension });
    const env = loadEnv({ PANYA_LOCAL_MODEL: 'tiny-random-bert', PANYA_LOCAL_MODEL_PATH: models });
    expect((await selectEmbedder('auto', env, store, recordingLogger().logger)).id).toBe(hash.id);
  });

  it('local fails loudly when the model cannot load', async () => {
    const env = loadEnv({ PANYA_LOCAL_MODEL: 'no-such-model', PANYA_LOCAL_MODEL_PATH: models, PANYA_MODEL_CACHE: models });
    await expect(selectEmbedder('local', env, openSqliteStore({ path: ':memory:' }), recordingLogger().logger)).rejects.toThrow(/no-such-model/);
  });
});

describe('PANYA_EMBEDDER=auto offline', () => {
  it('uses the hash embedder without reaching out when no model is configured or cached, and says how to enable one', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'panya-models-'));
    try {
      const env = loadEnv({ PANYA_MODEL_CACHE: cache });
      const infos: string[] = [];
      const logger = { debug() {}, info: (m: string) => infos.push(m), warn: (m: string) => infos.push(`warn: ${m}`), error() {} };
      const embedder = await selectEmbedder('auto', env, openSqliteStore({ path: ':memory:' }), logger);
      expect(embedder).toBeInstanceOf(HashEmbedder);
      expect(infos).toHaveLength(1);
      expect(infos[0]).toContain('PANYA_EMBEDDER=local');
      expect(infos[0]).toContain(cache);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });

  it('keeps the model cache per user, not per working directory', () => {
    expect(modelCacheDir({}, { XDG_CACHE_HOME: '/home/u/.cache' })).toBe('/home/u/.cache/panya/models');
    expect(modelCacheDir({ PANYA_MODEL_CACHE: '/models' })).toBe('/models');
  });
});
