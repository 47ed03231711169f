import { packageConfig } from '../../tsup.base';

// The document writer thread and the vector index builder process are their own entries: they are loaded by path.
export default packageConfig(['src/index.ts', 'src/document-writer-thread.ts', 'src/vector-index-builder.ts']);
