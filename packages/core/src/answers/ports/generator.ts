/**
 * Writes answer text from retrieved context, streamed. Implementations: `extractive` (default,
 * no model; in core) and OpenAI-compatible chat completions (@panya/provider-openai).
 *
 * Grounding contract: the text cites context passages as `[n]` (their `n`); an answer that cites
 * nothing is treated as "no grounded answer". When the context does not answer the question, a
 * generator says so plainly in the requested locale and cites nothing.
 * `describeGeneratorConformance` (`@panya/core/testing`) checks an implementation against this contract.
 */
import type { Locale } from '../../messages.js';

export interface GeneratorContext {
  /** Citation number, from 1. */
  n: number;
  chunkId: string;
  documentId: string;
  title: string;
  headingPath: string[];
  text: string;
}

export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
}

export interface PersonaInstructions {
  name: string;
  tone: string;
  instructions: string;
}

export interface GenerateRequest {
  query: string;
  locale: Locale;
  /** Ranked passages, best first. */
  context: GeneratorContext[];
  /** Earlier turns of the conversation, oldest first. */
  history?: ChatTurn[];
  /** The standalone form of a follow-up `query` (see `condense`), which retrieved `context`. */
  searchQuery?: string;
  /** How the answer should sound (a workspace persona); never overrides the grounding contract. */
  persona?: PersonaInstructions;
  signal?: AbortSignal;
}

export type GeneratorUsage = {
  inputTokens: number;
  outputTokens: number;
};

export type GeneratorEvent = { type: 'delta'; text: string } | { type: 'done'; usage: GeneratorUsage };

export interface Generator {
  /** The version of this contract the implementation speaks; core refuses any other. */
  readonly specificationVersion: 'v1';
  /** e.g. `extractive-v1`, `openai:gpt-4o-mini`. */
  readonly id: string;
  /**
   * Streams the answer: `delta` pieces of text, then one `done` with the usage, last. Stops promptly
   * (without throwing past the abort, and without a `done`) when `signal` aborts.
   */
  generate(request: GenerateRequest): AsyncIterable<GeneratorEvent>;
  /**
   * Rewrites a follow-up question into a standalone search query using the conversation so far
   * ("and for provinces?" → "shipping time for provinces"). Optional: core falls back to a
   * model-free rewrite.
   */
  condense?(query: string, history: ChatTurn[], signal?: AbortSignal): Promise<string>;
}

/**
 * Writes a short context prefix for a chunk ("This section of the refund policy covers…") that
 * is embedded with it. Optional, billable: each call is recorded as a usage event.
 */
export interface Contextualizer {
  readonly id: string;
  contextualize(input: { documentTitle: string; documentText: string; chunkText: string }, signal?: AbortSignal): Promise<{ prefix: string; usage: GeneratorUsage }>;
}
