/**
 * How core calls providers: it checks that an implementation speaks this version of the port
 * contract, and it splits document embedding into batches of at most the embedder's `maxBatch`
 * (providers send each call as one request), checking each answer before the next batch.
 */
import type { Embedder, EmbedOptions, EmbedResult } from './ports/embedder.js';
import type { Generator } from '../answers/ports/generator.js';

/** The port contract version this core speaks (`Embedder` and `Generator`). */
export const PROVIDER_SPECIFICATION_VERSION = 'v1';

/** Refuses, with a message naming the fault, an embedder written for another contract or with impossible sizes. */
export function checkEmbedder(embedder: Embedder): void {
  const name = `Embedder ${JSON.stringify((embedder as Partial<Embedder>).id ?? '(no id)')}`;
  if (embedder.specificationVersion !== PROVIDER_SPECIFICATION_VERSION) {
    throw new TypeError(`${name} implements specification ${String(embedder.specificationVersion)}; this version of Panya needs specificationVersion '${PROVIDER_SPECIFICATION_VERSION}' (embedDocuments returns { embeddings, usage? } and the embedder declares maxBatch).`);
  }
  if (!Number.isInteger(embedder.dimension) || embedder.dimension < 1) throw new TypeError(`${name}: dimension must be a positive integer, got ${String(embedder.dimension)}.`);
  if (!Number.isInteger(embedder.maxBatch) || embedder.maxBatch < 1) throw new TypeError(`${name}: maxBatch must be a positive integer, got ${String(embedder.maxBatch)}.`);
}

/** Refuses a generator written for another contract. */
export function checkGenerator(generator: Generator): void {
  if (generator.specificationVersion !== PROVIDER_SPECIFICATION_VERSION) {
    throw new TypeError(`Generator ${JSON.stringify((generator as Partial<Generator>).id ?? '(no id)')} implements specification ${String(generator.specificationVersion)}; this version of Panya needs specificationVersion '${PROVIDER_SPECIFICATION_VERSION}'.`);
  }
}

/**
 * Embeds any number of documents in batches of at most `embedder.maxBatch`, in order. Usage is
 * the sum of what the batches report, absent when none reports any.
 */
export async function embedInBatches(embedder: Embedder, texts: readonly string[], options?: EmbedOptions): Promise<EmbedResult> {
  const embeddings: Float32Array[] = [];
  let tokens: number | undefined;
  const size = Math.max(1, Math.floor(embedder.maxBatch));
  for (let start = 0; start < texts.length; start += size) {
    options?.signal?.throwIfAborted();
    const batch = texts.slice(start, start + size);
    const result = await embedder.embedDocuments(batch, options);
    if (result.embeddings.length !== batch.length) throw new Error(`Embedder ${embedder.id} returned ${result.embeddings.length} vectors for ${batch.length} texts.`);
    for (const vector of result.embeddings) {
      if (vector.length !== embedder.dimension) throw new Error(`Embedder ${embedder.id} returned a ${vector.length}-dimensional vector; it declares ${embedder.dimension}.`);
      embeddings.push(vector);
    }
    if (result.usage) tokens = (tokens ?? 0) + result.usage.tokens;
  }
  return tokens === undefined ? { embeddings } : { embeddings, usage: { tokens } };
}

/** The refusal of an implementation given more texts than its `maxBatch`. */
export function checkBatchSize(embedder: Pick<Embedder, 'id' | 'maxBatch'>, count: number): void {
  if (count > embedder.maxBatch) throw new RangeError(`Embedder ${embedder.id} takes at most ${embedder.maxBatch} texts per call (maxBatch), got ${count}; embed through embedInBatches().`);
}
