export {
  OpenAIEmbedder,
  DEFAULT_OPENAI_BASE_URL,
  KNOWN_DIMENSIONS,
  type OpenAIEmbedderOptions,
} from './embedder.js';
export { OpenAIGenerator, answerSystemPrompt, type OpenAIGeneratorOptions } from './generator.js';
