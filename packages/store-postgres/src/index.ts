export { openPostgresStore, isPostgresUrl, PostgresStore, type PostgresStoreOptions } from './store.js';
export { DEFAULT_LEXICAL_WEIGHTS, PgSearchIndex, type LexicalWeights, type VectorIndexOptions } from './search-index.js';
export { migrations } from './migrations.js';
export { WORKSPACE_CASCADE, type CascadeStep } from './workspace-cascade.js';
