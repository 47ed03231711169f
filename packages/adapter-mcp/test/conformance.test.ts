import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Engine } from '@panya/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authProxy, runConformance } from './conformance.js';
import { ARTICLES, makeEngine, makeTenant, seed, startApp } from './helpers.js';

/** The scenarios that exercise what Panya's server offers (see CONFORMANCE.md). */
const APPLICABLE = ['server-initialize', 'ping', 'tools-list', 'prompts-list', 'dns-rebinding-protection'];

describe('official MCP conformance suite (server scenarios)', () => {
  let engine: Engine;
  let app: Awaited<ReturnType<typeof startApp>>;
  let proxy: Awaited<ReturnType<typeof authProxy>>;
  let results: string;

  beforeAll(async () => {
    engine = makeEngine();
    const acme = await makeTenant(engine, 'acme', { scopes: ['mcp'] });
    await seed(engine, acme.ctx, ARTICLES);
    // A localhost deployment, protected against DNS rebinding as the SDK's own localhost apps are.
    app = await startApp(engine, { mcp: { allowedHosts: ['127.0.0.1', 'localhost', '[::1]'] } });
    proxy = await authProxy(`${app.url}/api/mcp`, acme.key);
    results = mkdtempSync(join(tmpdir(), 'panya-mcp-conformance-'));
  });

  afterAll(async () => {
    await proxy?.close();
    await app?.close();
    await engine?.close();
    if (results) rmSync(results, { recursive: true, force: true });
  });

  it('passes every scenario outside the baseline of expected failures, and the baseline is not stale', async () => {
    const run = await runConformance(['--url', proxy.url, '--expected-failures', 'conformance-baseline.yml', '-o', results]);
    expect(run.code, run.output).toBe(0);
    for (const scenario of APPLICABLE) expect(run.output).toMatch(new RegExp(`✓ ${scenario}: [1-9]\\d* passed, 0 failed`));
  }, 180_000);
});
