/**
 * Turns text into vectors. Implementations: the built-in `hash` embedder (no model),
 * `local` (ONNX via transformers.js, package @panya/embedder-local) and `openai`
 * (any OpenAI-compatible `/v1/embeddings`, package @panya/provider-openai).
 *
 * Vectors are L2-normalised Float32Arrays of length `dimension`. Methods throw on
 * failure; the ingest service turns a throw into a `failed` document with a readable error.
 */
export interface Embedder {
  /** Stable identifier persisted with the index, e.g. `hash-v1` or `local:Xenova/multilingual-e5-small:q8`. */
  readonly id: string;
  readonly dimension: number;
  /** Embeds passages (document chunks); models with passage/query prefixes add the passage one. */
  embedDocuments(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]>;
  /** Embeds a search query; models with passage/query prefixes add the query one. */
  embedQuery(text: string, options?: EmbedOptions): Promise<Float32Array>;
}

export interface EmbedOptions {
  signal?: AbortSignal;
}
