import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HashEmbedder } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import { loadEnv } from '../src/config.js';
import { selectEmbedder } from '../src/embedder.js';

const models = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared/models');

function recordingLogger() {
  const warnings: string[] = [];
  return { warnings, logger: { debug() {}, info() {}, warn: (msg: string) => warnings.push(msg), error() {} } };
}

describe('PANYA_EMBEDDER', () => {
  it('auto loads the local model when it is available', async () => {
    expect(existsSync(`${models}/tiny-random-bert/config.json`), `model fixture missing at ${models}`).toBe(true);
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
