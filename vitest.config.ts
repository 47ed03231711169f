import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources through the `@panya/source`
// export condition, so tests never run against stale builds.
export default defineConfig({
  resolve: { conditions: ['@panya/source'] },
  ssr: { resolve: { conditions: ['@panya/source'] } },
  test: {
    include: ['packages/*/test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
