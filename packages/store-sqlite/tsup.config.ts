import { packageConfig } from '../../tsup.base';

// The document writer thread is its own entry: worker threads load it by path.
export default packageConfig(['src/index.ts', 'src/document-writer-thread.ts']);
