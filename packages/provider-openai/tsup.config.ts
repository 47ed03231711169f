import { packageConfig } from '../../tsup.base';

export default packageConfig(['src/index.ts', 'src/testing/index.ts']);
