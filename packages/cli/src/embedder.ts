import type { Embedder, Logger, Store } from '@panya/core';
import { HashEmbedder } from '@panya/core';
import type { EnvConfig } from './config.js';

type Choice = EnvConfig['PANYA_EMBEDDER'];

async function loadLocal(env: EnvConfig): Promise<Embedder> {
  const { LocalEmbedder } = await import('@panya/embedder-local');
  return LocalEmbedder.create({
    ...(env.PANYA_LOCAL_MODEL ? { model: env.PANYA_LOCAL_MODEL } : {}),
    ...(env.PANYA_LOCAL_MODEL_PATH ? { localModelPath: env.PANYA_LOCAL_MODEL_PATH } : {}),
    ...(env.PANYA_LOCAL_MODEL_DTYPE ? { dtype: env.PANYA_LOCAL_MODEL_DTYPE } : {}),
    ...(env.PANYA_MODEL_CACHE ? { cacheDir: env.PANYA_MODEL_CACHE } : {}),
  });
}

async function loadOpenAI(env: EnvConfig): Promise<Embedder> {
  const { OpenAIEmbedder } = await import('@panya/provider-openai');
  return OpenAIEmbedder.create({
    model: env.PANYA_EMBEDDING_MODEL,
    ...(env.PANYA_OPENAI_BASE_URL ? { baseUrl: env.PANYA_OPENAI_BASE_URL } : {}),
    ...(env.PANYA_OPENAI_API_KEY ? { apiKey: env.PANYA_OPENAI_API_KEY } : {}),
    ...(env.PANYA_EMBEDDING_DIMENSIONS ? { dimension: env.PANYA_EMBEDDING_DIMENSIONS } : {}),
  });
}

/**
 * `PANYA_EMBEDDER`: `hash` (built in), `local` (ONNX model), `openai` (HTTP), or `auto`:
 * keep the embedder an existing index was built with when that is `hash`, otherwise try the local
 * model and fall back to `hash` with one warning.
 */
export async function selectEmbedder(choice: Choice, env: EnvConfig, store: Store, logger: Logger): Promise<Embedder> {
  if (choice === 'hash') return new HashEmbedder();
  if (choice === 'local') return loadLocal(env);
  if (choice === 'openai') return loadOpenAI(env);
  const indexed = await store.search.getIndexInfo();
  if (indexed?.embedderId.startsWith('hash-')) return new HashEmbedder();
  try {
    return await loadLocal(env);
  } catch (error) {
    logger.warn('local embedding model unavailable; using the built-in hash embedder (set PANYA_EMBEDDER=hash to silence)', {
      reason: error instanceof Error ? error.message.split('\n')[0] : String(error),
    });
    return new HashEmbedder();
  }
}
