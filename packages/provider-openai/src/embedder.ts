import { UpstreamError, checkBatchSize, type Embedder, type EmbeddingUsage, type EmbedOptions, type EmbedResult } from '@panya/core';
import { apiErrorMessage, backoffMs, describeNetworkError, retryAfterMs, sleep } from './http.js';

export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';

export interface OpenAIEmbedderOptions {
  /** Sent as a bearer token; optional for local OpenAI-compatible servers that need none. */
  apiKey?: string;
  /** Default `https://api.openai.com/v1`. */
  baseUrl?: string;
  model: string;
  /** Output width to request (`dimensions`); needed for models not listed in KNOWN_DIMENSIONS unless built with `create`. */
  dimension?: number;
  /** Inputs per request (`maxBatch`: core sends no more per call). Default 96. */
  maxBatch?: number;
  /** @deprecated The former name of `maxBatch`. */
  batchSize?: number;
  /** Retries after a 429, a 5xx, a timeout or a network error. Default 3. */
  maxRetries?: number;
  /** Per-request timeout. Default 60 000 ms. */
  timeoutMs?: number;
}

/** Native widths of OpenAI's embedding models, so they need no probe request. */
export const KNOWN_DIMENSIONS: Readonly<Record<string, number>> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};


interface EmbeddingResponse {
  data?: { index?: unknown; embedding?: unknown }[];
  usage?: { prompt_tokens?: unknown; total_tokens?: unknown } | null;
}

class RetryableError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

export class OpenAIEmbedder implements Embedder {
  readonly specificationVersion = 'v1';
  readonly id: string;
  readonly dimension: number;
  readonly maxBatch: number;
  readonly model: string;
  private readonly url: string;
  private readonly apiKey: string | undefined;
  private readonly requestDimensions: number | undefined;
  private readonly maxRetries: number;
  private readonly timeoutMs: number;

  /**
   * Throws when the dimension is unknown (neither given nor a known OpenAI model);
   * use `OpenAIEmbedder.create` to measure it with one request instead.
   */
  constructor(options: OpenAIEmbedderOptions, measuredDimension?: number) {
    const dimension = options.dimension ?? measuredDimension ?? KNOWN_DIMENSIONS[options.model];
    const maxBatch = options.maxBatch ?? options.batchSize ?? 96;
    if (dimension === undefined) {
      throw new Error(
        `Unknown embedding dimension for model "${options.model}": pass \`dimension\` or use OpenAIEmbedder.create()`,
      );
    }
    for (const [name, value, min] of [
      ['dimension', dimension, 1],
      ['maxBatch', maxBatch, 1],
      ['maxRetries', options.maxRetries ?? 3, 0],
      ['timeoutMs', options.timeoutMs ?? 60_000, 1],
    ] as const) {
      if (!Number.isInteger(value) || value < min) throw new RangeError(`${name} must be an integer >= ${min}, got ${value}`);
    }
    this.model = options.model;
    this.dimension = dimension;
    this.id = `openai:${options.model}:${dimension}`;
    this.url = `${(options.baseUrl ?? DEFAULT_OPENAI_BASE_URL).replace(/\/+$/, '')}/embeddings`;
    this.apiKey = options.apiKey;
    this.requestDimensions = options.dimension;
    this.maxBatch = maxBatch;
    this.maxRetries = options.maxRetries ?? 3;
    this.timeoutMs = options.timeoutMs ?? 60_000;
  }

  /** Like the constructor, but measures the dimension with one request when it is not known. */
  static async create(options: OpenAIEmbedderOptions, embedOptions?: EmbedOptions): Promise<OpenAIEmbedder> {
    if (options.dimension !== undefined || KNOWN_DIMENSIONS[options.model] !== undefined) {
      return new OpenAIEmbedder(options);
    }
    const probe = new OpenAIEmbedder(options, 1);
    const { embeddings } = await probe.request(['dimension probe'], undefined, embedOptions?.signal);
    return new OpenAIEmbedder(options, embeddings[0]!.length);
  }

  /** One request for up to `maxBatch` texts (core batches longer lists); usage is the server's `prompt_tokens`. */
  async embedDocuments(texts: readonly string[], options?: EmbedOptions): Promise<EmbedResult> {
    checkBatchSize(this, texts.length);
    if (texts.length === 0) return { embeddings: [] };
    return this.request([...texts], this.dimension, options?.signal);
  }

  async embedQuery(text: string, options?: EmbedOptions): Promise<Float32Array> {
    const { embeddings } = await this.request([text], this.dimension, options?.signal);
    return embeddings[0]!;
  }

  /** One batch, with retries. `expected` undefined skips the width check (dimension probe). */
  private async request(input: string[], expected: number | undefined, signal?: AbortSignal): Promise<EmbedResult> {
    const body = JSON.stringify({
      model: this.model,
      // OpenAI rejects empty strings outright; a space embeds as "nothing" instead of failing the batch.
      input: input.map((t) => (t === '' ? ' ' : t)),
      encoding_format: 'float',
      ...(this.requestDimensions !== undefined ? { dimensions: this.requestDimensions } : {}),
    });
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;

    for (let attempt = 0; ; attempt++) {
      signal?.throwIfAborted();
      try {
        return await this.attempt(body, headers, input.length, expected, signal);
      } catch (err) {
        if (signal?.aborted) throw err;
        if (!(err instanceof RetryableError)) throw new UpstreamError(this.id, err instanceof Error ? err.message : String(err), false, { cause: err });
        if (attempt >= this.maxRetries) {
          throw new UpstreamError(this.id, `${err.message} (gave up after ${attempt + 1} attempts)`, true, { cause: err });
        }
        await sleep(backoffMs(attempt, err.retryAfterMs), signal);
      }
    }
  }

  private async attempt(
    body: string,
    headers: Record<string, string>,
    count: number,
    expected: number | undefined,
    signal?: AbortSignal,
  ): Promise<EmbedResult> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    let res: Response;
    try {
      res = await fetch(this.url, {
        method: 'POST',
        headers,
        body,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      if (timeout.aborted) throw new RetryableError(`Embeddings request to ${this.url} timed out after ${this.timeoutMs} ms`);
      throw new RetryableError(`Embeddings request to ${this.url} failed: ${describeNetworkError(err)}`);
    }

    if (!res.ok) {
      const message = `Embeddings request to ${this.url} failed: HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}${await apiErrorMessage(res)}`;
      if (res.status === 429 || res.status >= 500) throw new RetryableError(message, retryAfterMs(res.headers));
      throw new Error(message);
    }

    let json: EmbeddingResponse;
    try {
      json = (await res.json()) as EmbeddingResponse;
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      throw new RetryableError(`Embeddings response from ${this.url} was not valid JSON: ${describeNetworkError(err)}`);
    }
    const usage = parseUsage(json.usage);
    return usage ? { embeddings: this.parse(json, count, expected), usage } : { embeddings: this.parse(json, count, expected) };
  }

  private parse(json: EmbeddingResponse, count: number, expected: number | undefined): Float32Array[] {
    const fail = (why: string) => new Error(`Invalid embeddings response from ${this.url}: ${why}`);
    if (!Array.isArray(json.data)) throw fail('missing `data` array');
    if (json.data.length !== count) throw fail(`expected ${count} embeddings, got ${json.data.length}`);
    const out = new Array<Float32Array | undefined>(count);
    for (const [position, item] of json.data.entries()) {
      // Servers may omit `index`; the array order is then the input order.
      const index = item.index ?? position;
      if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= count || out[index]) {
        throw fail(`bad or duplicate index ${String(index)}`);
      }
      if (!Array.isArray(item.embedding) || !item.embedding.every((x) => typeof x === 'number')) {
        throw fail(`embedding ${index} is not an array of numbers`);
      }
      const width = expected ?? out.find(Boolean)?.length ?? item.embedding.length;
      if (item.embedding.length !== width) {
        throw fail(`embedding ${index} has ${item.embedding.length} dimensions, expected ${width}`);
      }
      out[index] = normalise(Float32Array.from(item.embedding as number[]));
    }
    return out as Float32Array[];
  }
}

/** `prompt_tokens` (or `total_tokens`, the same for embeddings) when the server reports it. */
function parseUsage(usage: EmbeddingResponse['usage']): EmbeddingUsage | undefined {
  const tokens = usage?.prompt_tokens ?? usage?.total_tokens;
  return typeof tokens === 'number' && Number.isFinite(tokens) && tokens >= 0 ? { tokens: Math.round(tokens) } : undefined;
}

function normalise(v: Float32Array): Float32Array {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i]! /= norm;
  return v;
}
