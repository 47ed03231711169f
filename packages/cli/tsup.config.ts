import { packageConfig } from '../../tsup.base';

export default packageConfig(['src/index.ts', 'src/bin.ts']);
