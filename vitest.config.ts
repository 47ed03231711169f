import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Tests that start built programs or other heavy processes: the CLI killed with SIGKILL, packed
 * packages, clusters, browsers, PostgreSQL-only suites, the README run through `pnpm start`. They
 * run in project `process` (`pnpm test:all`, after `pnpm build`); every other test runs in project
 * `unit` (`pnpm test`), against the TypeScript sources.
 */
export const PROCESS_TESTS = [
  'packages/cli/test/kill9.test.ts',
  'packages/cli/test/pack.test.ts',
  'packages/cli/test/cluster.test.ts',
  'packages/cli/test/two-nodes.test.ts',
  'packages/cli/test/log-secrets.test.ts',
  'packages/cli/test/built-cli.test.ts',
  'packages/cli/test/readme.test.ts',
  'packages/adapter-express/test/admin-app.test.ts',
  'packages/adapter-express/test/widget-browser.test.ts',
  'packages/adapter-express/test/sso-browser.test.ts',
  'packages/store-postgres/test/conformance.test.ts',
  'packages/store-postgres/test/base-schema.test.ts',
  'packages/store-sqlite/test/segment-kill9.test.ts',
  'packages/store-postgres/test/segment-kill9.test.ts',
  'packages/client/test/third-party.test.ts',
];

// Workspace packages resolve to their TypeScript sources through the `@panya/source`
// export condition, so tests never run against stale builds.
export default defineConfig({
  resolve: { conditions: ['@panya/source'] },
  ssr: { resolve: { conditions: ['@panya/source'] } },
  test: {
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        // Unit files wait on I/O between bursts of CPU: two at a time even on two cores, where the
        // default (one fewer than the cores) would run them one by one. Process tests keep the
        // default and run after them (their own group: a group shares one worker count).
        // Files share their worker's modules (no isolation): importing the sources again for each
        // file was most of the run's time. A test that reads process-wide state (the index cache,
        // metrics) measures what it changed, not totals.
        test: { name: 'unit', sequence: { groupOrder: 0 }, isolate: false, maxWorkers: Math.max(2, availableParallelism() - 1), include: ['packages/*/test/**/*.test.ts'], exclude: ['**/node_modules/**', ...PROCESS_TESTS] },
      },
      { extends: true, test: { name: 'process', sequence: { groupOrder: 1 }, include: PROCESS_TESTS } },
    ],
  },
});
