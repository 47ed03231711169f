/** Writes answer text from retrieved context, streamed. Implementations: extractive (default), OpenAI-compatible. */
export interface GeneratorContext {
  n: number;
  chunkId: string;
  documentId: string;
  title: string;
  text: string;
}

export interface GenerateRequest {
  query: string;
  locale: 'th' | 'en';
  context: GeneratorContext[];
  history?: { role: 'user' | 'assistant'; content: string }[];
  signal?: AbortSignal;
}

export type GeneratorEvent = { type: 'delta'; text: string } | { type: 'done'; usage: { inputTokens: number; outputTokens: number } };

export interface Generator {
  readonly id: string;
  generate(request: GenerateRequest): AsyncIterable<GeneratorEvent>;
}
