import { packageConfig } from '../../tsup.base';

// The document writer and vector index builder threads are their own entries: worker threads load them by path.
export default packageConfig(['src/index.ts', 'src/document-writer-thread.ts', 'src/vector-index-builder.ts']);
