import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildProgram } from '@panya/cli';
import { demoArticles } from '../src/demo/articles.js';

let dir: string;
let db: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'panya-cli-'));
  db = join(dir, 'data', 'panya.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  await buildProgram({ out: (s) => out.push(s), err: (s) => err.push(s) }, env).parseAsync(['node', 'panya', ...args]);
  return { out: out.join('\n'), err: err.join('\n') };
}

describe('panya tenant / key', () => {
  it('creates a tenant with its default workspace and an all-scope key, as JSON', async () => {
    const { out } = await run(['tenant', 'create', '--slug', 'acme', '--plan', 'Team', '--json', '--db', db]);
    const created = JSON.parse(out);
    expect(created.tenant).toMatchObject({ slug: 'acme', plan: 'team' });
    expect(created.workspace).toMatchObject({ slug: 'default', isDefault: true });
    expect(created.apiKey.key).toMatch(/^svc_live_[0-9A-Za-z]{32}$/);
    expect(created.apiKey.scopes).toEqual(['read', 'write', 'mcp', 'admin']);
  });

  it('reads the database path from PANYA_DB', async () => {
    await run(['tenant', 'create', '--slug', 'acme', '--json'], { PANYA_DB: db });
    expect(existsSync(db)).toBe(true);
  });

  it('fails clearly on a bad slug, a duplicate tenant and an unknown scope', async () => {
    await expect(run(['tenant', 'create', '--slug', 'Bad Slug', '--db', db])).rejects.toThrow(/slug/);
    await run(['tenant', 'create', '--slug', 'acme', '--db', db]);
    await expect(run(['tenant', 'create', '--slug', 'acme', '--db', db])).rejects.toThrow(/already exists/);
    await expect(run(['key', 'create', '--tenant', 'acme', '--scopes', 'read,root', '--db', db])).rejects.toThrow(/scopes\[1\]/);
  });

  it('creates a workspace-bound key with chosen scopes', async () => {
    await run(['tenant', 'create', '--slug', 'acme', '--db', db]);
    const key = JSON.parse((await run(['key', 'create', '--tenant', 'acme', '--workspace', 'default', '--scopes', 'read,mcp', '--json', '--db', db])).out);
    expect(key).toMatchObject({ scopes: ['read', 'mcp'] });
    expect(key.workspaceId).toMatch(/^ws_/);
    await expect(run(['key', 'create', '--tenant', 'nobody', '--scopes', 'read', '--db', db])).rejects.toThrow(/not found/);
  });

  it('rejects a bad environment value with a readable message', async () => {
    await expect(run(['tenant', 'create', '--slug', 'acme'], { PORT: 'eighty', PANYA_DB: db })).rejects.toThrow(/PORT/);
  });
});

describe('panya docs import', () => {
  it('imports every markdown file under a directory, titled by its first heading', async () => {
    await run(['tenant', 'create', '--slug', 'acme', '--db', db]);
    const docs = join(dir, 'docs');
    mkdirSync(join(docs, 'nested'), { recursive: true });
    writeFileSync(join(docs, 'a.md'), '# Alpha guide\n\nText');
    writeFileSync(join(docs, 'nested', 'b.markdown'), 'No heading here');
    writeFileSync(join(docs, 'ignored.txt'), 'not markdown');
    const { out } = await run(['docs', 'import', docs, '--tenant', 'acme', '--db', db]);
    expect(out).toContain('Imported 2 documents');
    const { openEngine } = await import('../src/runtime.js');
    const engine = await openEngine({ db });
    const ctx = (await engine.access.system('acme'))._unsafeUnwrap();
    const titles = (await engine.documents.list(ctx, {}))._unsafeUnwrap().items.map((d) => d.title).sort();
    await engine.close();
    expect(titles).toEqual(['Alpha guide', 'b']);
  });
});

describe('panya demo', () => {
  it('is idempotent: one demo tenant, each article once, one live demo key', async () => {
    const first = JSON.parse((await run(['demo', '--json', '--db', db])).out);
    const second = JSON.parse((await run(['demo', '--json', '--db', db])).out);
    expect(first).toMatchObject({ tenant: 'demo', plan: 'business', articlesAdded: demoArticles.length });
    expect(second.articlesAdded).toBe(0);
    expect(second.apiKey).not.toBe(first.apiKey);
    const { openEngine } = await import('../src/runtime.js');
    const engine = await openEngine({ db });
    expect((await engine.apiKeys.authenticate(first.apiKey)).isErr()).toBe(true);
    expect((await engine.apiKeys.authenticate(second.apiKey)).isOk()).toBe(true);
    const ctx = (await engine.access.system('demo'))._unsafeUnwrap();
    expect((await engine.documents.list(ctx, { limit: 100 }))._unsafeUnwrap().items).toHaveLength(demoArticles.length);
    await engine.close();
  });

  it('ships English and Thai help-center articles', () => {
    expect(demoArticles.length).toBeGreaterThanOrEqual(18);
    expect(demoArticles.some((a) => a.locale === 'th' && /[\u0E00-\u0E7F]/.test(a.contentMd))).toBe(true);
    expect(demoArticles.some((a) => a.locale === 'en')).toBe(true);
  });
});

describe('panya serve (built binary)', () => {
  const bin = resolve(dirname(fileURLToPath(import.meta.url)), '../dist/bin.js');

  it('starts with the demo tenant, serves the API with the printed key, and works while other commands write', async () => {
    expect(existsSync(bin), 'run `pnpm build` first: this test starts the built CLI').toBe(true);
    const child = spawn(process.execPath, [bin, 'serve', '--demo', '--port', '0', '--db', db], { env: { ...process.env, PANYA_LOG_LEVEL: 'warn' } });
    try {
      let output = '';
      const { url, key } = await new Promise<{ url: string; key: string }>((ok, fail) => {
        const timer = setTimeout(() => fail(new Error(`server did not start:\n${output}`)), 30_000);
        child.stdout.on('data', (d: Buffer) => {
          output += d.toString();
          const url = /listening on (\S+)/.exec(output)?.[1];
          const key = /(svc_live_[0-9A-Za-z]{32})/.exec(output)?.[1];
          if (url && key) (clearTimeout(timer), ok({ url, key }));
        });
        child.once('exit', (code) => fail(new Error(`server exited with ${code}:\n${output}`)));
      });
      const health = await fetch(`${url}/healthz`);
      expect(health.status).toBe(200);
      const docs = await fetch(`${url}/api/docs?limit=100`, { headers: { Authorization: `Bearer ${key}` } });
      expect(docs.status).toBe(200);
      expect(((await docs.json()) as { data: unknown[] }).data).toHaveLength(demoArticles.length);

      // A CLI command writing to the same database while the server runs.
      await run(['tenant', 'create', '--slug', 'second', '--db', db]);
      const again = await fetch(`${url}/api/docs`, { headers: { Authorization: `Bearer ${key}` } });
      expect(again.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
