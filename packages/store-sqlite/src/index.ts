export { openSqliteStore, SqliteStore, type SqliteStoreOptions } from './store.js';
export { DEFAULT_LEXICAL_WEIGHTS, SqliteSearchIndex, type LexicalWeights } from './search-index.js';
export { migrations } from './migrations.js';
/** A chunk's text in SQL for chunk alias `c`, for statements of your own on `store.db` (the column alone may hold a packed text or point to the document's source). */
export { chunkText, chunkTitle } from './chunk-text.js';
export { WORKSPACE_CASCADE, workspaceScopedTables, type CascadeStep } from './workspace-cascade.js';
export { DEFAULT_VECTOR_INDEX_THRESHOLD, type VectorIndexOptions } from './vector-index.js';
export { ingestRoundPermit } from './round-permit.js';
