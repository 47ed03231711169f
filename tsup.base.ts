import { defineConfig } from 'tsup';

/** The one build setup of every package: ESM + type declarations for Node 20. */
export function packageConfig(entry: string[] = ['src/index.ts']) {
  return defineConfig({ entry, format: ['esm'], dts: true, clean: true, sourcemap: true, target: 'node20' });
}
