import { packageConfig } from '../../tsup.base';

// The conversion worker is its own entry: worker threads load it by path.
export default packageConfig(['src/index.ts', 'src/convert-worker.ts']);
