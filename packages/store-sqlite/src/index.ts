export { openSqliteStore, SqliteStore, type SqliteStoreOptions } from './store.js';
export { DEFAULT_LEXICAL_WEIGHTS, SqliteSearchIndex, type LexicalWeights } from './search-index.js';
export { migrations } from './migrations.js';
