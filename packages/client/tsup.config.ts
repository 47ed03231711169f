import { defineConfig } from 'tsup';

/** ESM for browsers and Node alike: no Node built-ins, a platform-neutral build. */
export default defineConfig({ entry: ['src/index.ts'], format: ['esm'], dts: true, clean: true, sourcemap: true, target: 'es2022', platform: 'neutral' });
