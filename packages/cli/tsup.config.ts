import { packageConfig } from '../../tsup.base';

// The ingest thread is its own entry: worker threads load it by path.
export default packageConfig(['src/index.ts', 'src/bin.ts', 'src/ingest-process.ts']);
