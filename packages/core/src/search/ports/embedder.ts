/**
 * Turns text into vectors. Implementations: the built-in `hash` embedder (no model),
 * `local` (ONNX via transformers.js, package @panya/embedder-local) and `openai`
 * (any OpenAI-compatible `/v1/embeddings`, package @panya/provider-openai).
 *
 * Vectors are L2-normalised Float32Arrays of length `dimension`. Methods throw on
 * failure; the ingest service turns a throw into a `failed` document with a readable error.
 * `describeEmbedderConformance` (`@panya/core/testing`) checks an implementation against this contract.
 */
export interface Embedder {
  /** The version of this contract the implementation speaks; core refuses any other. */
  readonly specificationVersion: 'v1';
  /** Stable identifier persisted with the index, e.g. `hash-v1` or `local:Xenova/multilingual-e5-small:q8`. */
  readonly id: string;
  readonly dimension: number;
  /**
   * Most texts one `embedDocuments` call takes (a provider's request limit, a model's batch).
   * Core splits larger inputs into batches of at most this many (`embedInBatches`); an
   * implementation sends each call as one request or inference and refuses a longer list.
   */
  readonly maxBatch: number;
  /**
   * True for an embedder cheap enough to run over a search's candidates (the built-in `hash` one
   * with no model configured): its vectors are never stored, and a search that weighs its channel
   * embeds the lexical and trigram candidates at query time instead of scanning stored vectors.
   */
  readonly queryTime?: boolean;
  /** Embeds passages (document chunks), one vector per text in input order; models with passage/query prefixes add the passage one. */
  embedDocuments(texts: readonly string[], options?: EmbedOptions): Promise<EmbedResult>;
  /** Embeds a search query; models with passage/query prefixes add the query one. */
  embedQuery(text: string, options?: EmbedOptions): Promise<Float32Array>;
}

export interface EmbedOptions {
  signal?: AbortSignal;
}

export interface EmbedResult {
  /** One vector per input text, in input order. */
  embeddings: Float32Array[];
  /** What the provider reports having used; absent when it reports nothing (local models). */
  usage?: EmbeddingUsage;
}

export interface EmbeddingUsage {
  /** Input tokens, as the provider counts them. */
  tokens: number;
}
