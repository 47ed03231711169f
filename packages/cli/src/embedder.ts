import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Embedder, Logger, Store } from '@panya/core';
import { HashEmbedder } from '@panya/core';
import { ConfigError, OPENAI_KEY_NEEDED, openAIKeyOptional, type EnvConfig } from './config.js';

type Choice = EnvConfig['PANYA_EMBEDDER'];

/** The local model `auto` and `local` use unless `PANYA_LOCAL_MODEL` names another. */
export const DEFAULT_LOCAL_MODEL = 'Xenova/multilingual-e5-small';

/** Where local models are cached: `PANYA_MODEL_CACHE`, else one folder per user (not per working directory). */
export function modelCacheDir(env: Pick<EnvConfig, 'PANYA_MODEL_CACHE'>, processEnv: NodeJS.ProcessEnv = process.env): string {
  return env.PANYA_MODEL_CACHE ?? join(processEnv.XDG_CACHE_HOME || join(homedir(), '.cache'), 'panya', 'models');
}

async function loadLocal(env: EnvConfig, options: { allowRemoteModels?: boolean } = {}): Promise<Embedder> {
  const { LocalEmbedder } = await import('@panya/embedder-local');
  return LocalEmbedder.create({
    ...(env.PANYA_LOCAL_MODEL ? { model: env.PANYA_LOCAL_MODEL } : {}),
    ...(env.PANYA_LOCAL_MODEL_PATH ? { localModelPath: env.PANYA_LOCAL_MODEL_PATH } : {}),
    ...(env.PANYA_LOCAL_MODEL_DTYPE ? { dtype: env.PANYA_LOCAL_MODEL_DTYPE } : {}),
    cacheDir: modelCacheDir(env),
    ...options,
  });
}

async function loadOpenAI(env: EnvConfig): Promise<Embedder> {
  if (!openAIKeyOptional(env)) throw new ConfigError(`Invalid environment configuration:\n  PANYA_OPENAI_API_KEY: ${OPENAI_KEY_NEEDED('PANYA_EMBEDDER=openai')} (not set)`);
  const { OpenAIEmbedder } = await import('@panya/provider-openai');
  return OpenAIEmbedder.create({
    model: env.PANYA_EMBEDDING_MODEL,
    ...(env.PANYA_OPENAI_BASE_URL ? { baseUrl: env.PANYA_OPENAI_BASE_URL } : {}),
    ...(env.PANYA_OPENAI_API_KEY ? { apiKey: env.PANYA_OPENAI_API_KEY } : {}),
    ...(env.PANYA_EMBEDDING_DIMENSIONS ? { dimension: env.PANYA_EMBEDDING_DIMENSIONS } : {}),
  });
}

/** The local model's files are already on this machine (configured folder or the user cache). */
function localModelAtHand(env: EnvConfig): boolean {
  const model = env.PANYA_LOCAL_MODEL ?? DEFAULT_LOCAL_MODEL;
  return [env.PANYA_LOCAL_MODEL_PATH, modelCacheDir(env)].some((dir) => dir !== undefined && existsSync(join(dir, model, 'config.json')));
}

/**
 * `PANYA_EMBEDDER`: `hash` (built in), `local` (ONNX model, downloaded once if missing), `openai`
 * (HTTP), or `auto`, which never reaches the network on its own: the embedder an existing index was
 * built with when that is `hash`; the local model when one is configured or already on this machine;
 * otherwise `hash`, with one line saying how to turn the local model on.
 */
export async function selectEmbedder(choice: Choice, env: EnvConfig, store: Store, logger: Logger): Promise<Embedder> {
  if (choice === 'hash') return new HashEmbedder({ queryTime: true });
  if (choice === 'local') return loadLocal(env);
  if (choice === 'openai') return loadOpenAI(env);
  const indexed = await store.search.getIndexInfo();
  if (indexed?.embedderId.startsWith('hash-')) return new HashEmbedder({ queryTime: true });
  const configured = Boolean(env.PANYA_LOCAL_MODEL || env.PANYA_LOCAL_MODEL_PATH) || indexed?.embedderId.startsWith('local:');
  if (!configured && !localModelAtHand(env)) {
    logger.info(
      `Using the built-in hash embedder (offline, keyword search). For semantic search set PANYA_EMBEDDER=local ` +
        `(downloads ${DEFAULT_LOCAL_MODEL} once into ${modelCacheDir(env)}) or PANYA_EMBEDDER=openai.`,
    );
    return new HashEmbedder({ queryTime: true });
  }
  try {
    return await loadLocal(env, configured ? {} : { allowRemoteModels: false });
  } catch (error) {
    logger.warn('local embedding model unavailable; using the built-in hash embedder (set PANYA_EMBEDDER=hash to silence)', {
      reason: error instanceof Error ? error.message.split('\n')[0] : String(error),
    });
    return new HashEmbedder({ queryTime: true });
  }
}
