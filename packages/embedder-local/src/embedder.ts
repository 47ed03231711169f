import os from 'node:os';
import {
  env,
  pipeline,
  type DataType,
  type FeatureExtractionPipeline,
} from '@huggingface/transformers';
import path from 'node:path';
import { checkBatchSize, type Embedder, type EmbedOptions, type EmbedResult } from '@panya/core';

export const DEFAULT_LOCAL_MODEL = 'Xenova/multilingual-e5-small';

/** The per-user model cache: `$XDG_CACHE_HOME/panya/models`, else `~/.cache/panya/models`. */
export function defaultModelCache(): string {
  return path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'panya', 'models');
}

export interface LocalEmbedderOptions {
  /** Hugging Face model id, or a folder name under `localModelPath`. Default `Xenova/multilingual-e5-small`. */
  model?: string;
  /** ONNX weights variant: `q8` → `onnx/model_quantized.onnx`, `fp32` → `onnx/model.onnx`, … Default `q8`. */
  dtype?: DataType;
  /** Prepended to queries. Default `query: ` for E5 models, otherwise none. */
  queryPrefix?: string;
  /** Prepended to passages. Default `passage: ` for E5 models, otherwise none. */
  passagePrefix?: string;
  /** Texts per inference call (`maxBatch`: core sends no more per call). Default 16. */
  maxBatch?: number;
  /** @deprecated The former name of `maxBatch`. */
  batchSize?: number;
  /** Where downloaded models are cached. Default `$PANYA_MODEL_CACHE` or `~/.cache/panya/models` (one cache per user, whatever the working directory). */
  cacheDir?: string;
  /** Folder holding model folders (`<localModelPath>/<model>/config.json`, `onnx/…`), checked before any download. Default: `cacheDir`, which uses the same layout. */
  localModelPath?: string;
  /** Whether models may be downloaded from the Hugging Face hub. Default true. */
  allowRemoteModels?: boolean;
}

/** E5 models were trained with these prefixes; retrieval quality drops without them. */
function usesE5Prefixes(model: string): boolean {
  return /(^|[/_-])(multilingual-)?e5([-_]|$)/i.test(model);
}

// transformers.js keeps its model locations in one global `env`; loads that set it are
// serialised so two embedders with different settings cannot see each other's paths.
let loadLock: Promise<unknown> = Promise.resolve();

async function withEnv<T>(settings: Partial<typeof env>, fn: () => Promise<T>): Promise<T> {
  const run = loadLock.then(async () => {
    const saved = {
      localModelPath: env.localModelPath,
      allowRemoteModels: env.allowRemoteModels,
      allowLocalModels: env.allowLocalModels,
      cacheDir: env.cacheDir,
    };
    Object.assign(env, settings);
    try {
      return await fn();
    } finally {
      Object.assign(env, saved);
    }
  });
  loadLock = run.catch(() => undefined);
  return run;
}

export class LocalEmbedder implements Embedder {
  readonly specificationVersion = 'v1';
  readonly id: string;
  readonly dimension: number;
  readonly maxBatch: number;
  readonly model: string;
  private readonly queryPrefix: string;
  private readonly passagePrefix: string;

  private constructor(
    private readonly extractor: FeatureExtractionPipeline,
    settings: { model: string; dtype: string; dimension: number; queryPrefix: string; passagePrefix: string; maxBatch: number },
  ) {
    this.model = settings.model;
    this.id = `local:${settings.model}:${settings.dtype}`;
    this.dimension = settings.dimension;
    this.queryPrefix = settings.queryPrefix;
    this.passagePrefix = settings.passagePrefix;
    this.maxBatch = settings.maxBatch;
  }

  /** Loads the model (downloading it if allowed and not cached) and returns a ready embedder. */
  static async create(options: LocalEmbedderOptions = {}): Promise<LocalEmbedder> {
    const model = options.model ?? DEFAULT_LOCAL_MODEL;
    const dtype = options.dtype ?? 'q8';
    const e5 = usesE5Prefixes(model);
    const maxBatch = options.maxBatch ?? options.batchSize ?? 16;
    if (!Number.isInteger(maxBatch) || maxBatch < 1) {
      throw new RangeError(`maxBatch (batchSize) must be a positive integer, got ${maxBatch}`);
    }
    const cacheDir = path.resolve(options.cacheDir ?? process.env.PANYA_MODEL_CACHE ?? defaultModelCache());
    const localModelPath = path.resolve(options.localModelPath ?? cacheDir);
    const allowRemoteModels = options.allowRemoteModels ?? true;

    let extractor: FeatureExtractionPipeline;
    try {
      extractor = await withEnv(
        {
          allowLocalModels: true,
          allowRemoteModels,
          cacheDir,
          localModelPath,
        },
        () =>
          pipeline('feature-extraction', model, {
            dtype,
            device: 'cpu',
            cache_dir: cacheDir,
            local_files_only: !allowRemoteModels,
          }) as Promise<FeatureExtractionPipeline>,
      );
    } catch (cause) {
      const where = [
        localModelPath === cacheDir ? `cache ${cacheDir}` : `local path ${localModelPath}, cache ${cacheDir}`,
        allowRemoteModels ? 'the Hugging Face hub' : undefined,
      ]
        .filter(Boolean)
        .join(', ');
      const reason = cause instanceof Error ? cause.message : String(cause);
      throw new Error(`Cannot load local embedding model "${model}" (dtype ${dtype}) from ${where}: ${reason}`, {
        cause,
      });
    }

    // The output width is what the index stores, so measure it rather than trust config field names.
    let dimension: number | undefined;
    try {
      const probe = await extractor(['probe'], { pooling: 'mean', normalize: true });
      dimension = probe.dims.at(-1);
    } catch (cause) {
      await extractor.dispose();
      const reason = cause instanceof Error ? cause.message : String(cause);
      throw new Error(`Local embedding model "${model}" (dtype ${dtype}) loaded but failed to run: ${reason}`, { cause });
    }
    if (!dimension) {
      await extractor.dispose();
      throw new Error(`Local embedding model "${model}" returned no embedding dimension`);
    }

    return new LocalEmbedder(extractor, {
      model,
      dtype,
      dimension,
      queryPrefix: options.queryPrefix ?? (e5 ? 'query: ' : ''),
      passagePrefix: options.passagePrefix ?? (e5 ? 'passage: ' : ''),
      maxBatch,
    });
  }

  /** One inference call for up to `maxBatch` texts (core batches longer lists). A local model reports no usage. */
  async embedDocuments(texts: readonly string[], options?: EmbedOptions): Promise<EmbedResult> {
    checkBatchSize(this, texts.length);
    return { embeddings: await this.embed(texts.map((t) => this.passagePrefix + t), options?.signal) };
  }

  async embedQuery(text: string, options?: EmbedOptions): Promise<Float32Array> {
    const [vector] = await this.embed([this.queryPrefix + text], options?.signal);
    return vector!;
  }

  /** Releases the ONNX session. */
  async dispose(): Promise<void> {
    await this.extractor.dispose();
  }

  /** One inference call. An ONNX run cannot be interrupted, so cancellation takes effect before and after it. */
  private async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    signal?.throwIfAborted();
    if (texts.length === 0) return [];
    const tensor = await this.extractor(texts, { pooling: 'mean', normalize: true });
    const data = tensor.data as Float32Array;
    const width = tensor.dims.at(-1);
    if (width !== this.dimension) {
      throw new Error(`Local embedding model "${this.model}" returned ${width}-dim vectors, expected ${this.dimension}`);
    }
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i++) out.push(Float32Array.from(data.subarray(i * width, (i + 1) * width)));
    signal?.throwIfAborted();
    return out;
  }
}
