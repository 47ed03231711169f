export { LocalEmbedder, DEFAULT_LOCAL_MODEL, type LocalEmbedderOptions } from './embedder.js';
