import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder of the built admin app (index.html and assets/), served at /admin. */
export const adminAssetsDir = join(dirname(fileURLToPath(import.meta.url)), 'dist');

/** Whether the app has been built (`pnpm --filter @panya/admin build`). */
export function adminAssetsBuilt() {
  return existsSync(join(adminAssetsDir, 'index.html'));
}
