export { openSqliteStore, SqliteStore, type SqliteStoreOptions } from './store.js';
export { SqliteSearchIndex, type LexicalWeights } from './search-index.js';
export { migrations } from './migrations.js';
