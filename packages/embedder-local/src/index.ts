export { LocalEmbedder, DEFAULT_LOCAL_MODEL, defaultModelCache, type LocalEmbedderOptions } from './embedder.js';
