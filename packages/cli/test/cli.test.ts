import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildProgram } from '@panya/cli';
import { demoArticles } from '../src/demo/articles.js';
import { engineInternals } from '@panya/core/testing';

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
    await expect(run(['key', 'create', '--tenant', 'acme', '--scopes', 'read,root', '--db', db])).rejects.toThrow(/^--scopes: Invalid option: expected one of "read"/);
  });

  it('creates a workspace-bound key with chosen scopes', async () => {
    await run(['tenant', 'create', '--slug', 'acme', '--db', db]);
    const key = JSON.parse((await run(['key', 'create', '--tenant', 'acme', '--workspace', 'default', '--scopes', 'read,mcp', '--json', '--db', db])).out);
    expect(key).toMatchObject({ scopes: ['read', 'mcp'] });
    expect(key.workspaceId).toMatch(/^ws_/);
    await expect(run(['key', 'create', '--tenant', 'nobody', '--scopes', 'read', '--db', db])).rejects.toThrow(/not found/);
  });

  it('creates a publishable browser key: svc_pub_, read only, bound to a workspace', async () => {
    await run(['tenant', 'create', '--slug', 'acme', '--db', db]);
    const key = JSON.parse((await run(['key', 'create', '--tenant', 'acme', '--workspace', 'default', '--scopes', 'read', '--publishable', '--json', '--db', db])).out);
    expect(key).toMatchObject({ kind: 'publishable', scopes: ['read'], surface: null });
    expect(key.key).toMatch(/^svc_pub_[0-9A-Za-z]{32}$/);
    const widget = JSON.parse((await run(['key', 'create', '--tenant', 'acme', '--workspace', 'default', '--scopes', 'read', '--publishable', '--help-center', '--json', '--db', db])).out);
    expect(widget).toMatchObject({ kind: 'publishable', surface: 'help_center' });
    await expect(run(['key', 'create', '--tenant', 'acme', '--scopes', 'read', '--help-center', '--db', db])).rejects.toThrow(/--help-center: only for a publishable key/);
    expect(key.prefix).toMatch(/^svc_pub_/);
    await expect(run(['key', 'create', '--tenant', 'acme', '--scopes', 'read', '--publishable', '--db', db])).rejects.toThrow(/workspace/);
    await expect(run(['key', 'create', '--tenant', 'acme', '--workspace', 'default', '--scopes', 'read,write', '--publishable', '--db', db])).rejects.toThrow(/only reads/);
  });

  it('refuses a database URL of an unknown scheme, and says when it creates a new database and where', async () => {
    await expect(run(['tenant', 'create', '--slug', 'acme'], { PANYA_DB: 'mysql://u:p@db/panya' })).rejects.toThrow(/PANYA_DB.*unsupported database URL "mysql:\/\/…"/);
    expect(existsSync(join(process.cwd(), 'mysql:'))).toBe(false);
    const created = await run(['tenant', 'create', '--slug', 'acme', '--db', db]);
    expect(created.err).toContain(`Creating a new SQLite database at ${db}`);
    const again = await run(['tenant', 'create', '--slug', 'other', '--db', db]);
    expect(again.err).not.toContain('Creating a new SQLite database');
  });

  it('says that the port is in use instead of crashing', async () => {
    const { createServer } = await import('node:http');
    const busy = createServer();
    await new Promise<void>((ok) => busy.listen(0, '127.0.0.1', ok));
    const port = (busy.address() as { port: number }).port;
    try {
      await expect(run(['serve', '--port', String(port), '--db', db], { PANYA_LOG_LEVEL: 'silent' })).rejects.toThrow(`Port ${port} is in use on 127.0.0.1; pass --port or set PORT.`);
    } finally {
      busy.close();
    }
  });

  it('prints its version', async () => {
    const out: string[] = [];
    const program = buildProgram({ out: (s) => out.push(s), err: () => {} }, {});
    await expect(program.parseAsync(['node', 'panya', '--version'])).rejects.toMatchObject({ code: 'commander.version' });
    expect(out.join('')).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('rejects a bad environment value with a readable message', async () => {
    await expect(run(['tenant', 'create', '--slug', 'acme'], { PORT: 'eighty', PANYA_DB: db })).rejects.toThrow(/PORT/);
  });

  it('serve stops at an edge provider mistake, naming the variable', async () => {
    await expect(run(['serve', '--port', '0'], { PANYA_DB: db, PANYA_EDGE_PROVIDER: 'cloudflare', PANYA_EDGE_TARGET: 'edge.example.net' })).rejects.toThrow(
      /PANYA_CLOUDFLARE_ZONE_ID: is required/,
    );
    await expect(run(['serve', '--port', '0'], { PANYA_DB: db, PANYA_EDGE_PROVIDER: 'akamai' })).rejects.toThrow(/PANYA_EDGE_PROVIDER/);
  });

  it('serve stops at a Stripe setting mistake, naming the variable', async () => {
    await expect(run(['serve', '--port', '0'], { PANYA_DB: db, PANYA_METER_RESOLUTIONS: 'svc_resolutions' })).rejects.toThrow(/PANYA_STRIPE_SECRET_KEY: required when PANYA_METER_RESOLUTIONS is set/);
    await expect(run(['serve', '--port', '0'], { PANYA_DB: db, PANYA_STRIPE_SECRET_KEY: 'sk_test_1', PANYA_STRIPE_WEBHOOK_SECRET: 'whsec_1', PANYA_PRICE_TEAM_BASE: 'team' })).rejects.toThrow(/PANYA_PRICE_TEAM_BASE: expected a Stripe price id/);
  });
});

describe('panya docs import', () => {
  async function documents(workspace?: string) {
    const { openEngine } = await import('../src/runtime.js');
    const engine = await openEngine({ db });
    try {
      const ctx = (await engine.access.system('acme', workspace))._unsafeUnwrap();
      return (await engine.documents.list(ctx, { limit: 100 }))._unsafeUnwrap().items.sort((a, b) => (a.externalId! < b.externalId! ? -1 : 1));
    } finally {
      await engine.close();
    }
  }

  it('converts through @panya/convert, not the HTTP adapter', () => {
    const source = readFileSync(new URL('../src/commands/docs.ts', import.meta.url), 'utf8');
    const imported = [...source.matchAll(/^import [^;]*? from '([^']+)'/gm)].map((m) => m[1]);
    expect(imported).toContain('@panya/convert');
    expect(imported).not.toContain('@panya/adapter-express');
  });

  it('imports .md, .txt and .html files under a directory, keyed by relative path, with front matter as fields and metadata', async () => {
    await run(['tenant', 'create', '--slug', 'acme', '--db', db]);
    const docs = join(dir, 'docs');
    mkdirSync(join(docs, 'nested'), { recursive: true });
    writeFileSync(join(docs, 'a.md'), '# Alpha guide\n\nText');
    writeFileSync(join(docs, 'nested', 'b.markdown'), 'No heading here');
    writeFileSync(join(docs, 'notes.txt'), 'plain words about parcels');
    writeFileSync(join(docs, 'page.html'), '<html><head><title>Opening hours</title></head><body><p>Open <b>9 to 5</b>.</p></body></html>');
    writeFileSync(join(docs, 'fm.md'), '---\ntitle: Shipping rates\nurl: https://help.example.com/shipping\npublicSurfaces: help_center\nauthor: Nok\ntags: [shipping, rates]\n---\nSecretfrontmatterword is not here. Parcels cost 60 THB.\n');
    writeFileSync(join(docs, 'empty.md'), '---\ntitle: Only front matter\n---\n  \n');
    writeFileSync(join(docs, 'blank.txt'), '');
    writeFileSync(join(docs, 'image.png'), 'not imported');
    const { out } = await run(['docs', 'import', docs, '--tenant', 'acme', '--db', db]);
    expect(out).toContain('Synced 5 documents into acme/default: 5 created, 0 updated, 0 unchanged');
    expect(out).toContain('Skipped 2 empty files: blank.txt, empty.md');
    const list = await documents();
    expect(list.map((d) => [d.externalId, d.title])).toEqual([
      ['a.md', 'Alpha guide'],
      ['fm.md', 'Shipping rates'],
      ['nested/b.markdown', 'b'],
      ['notes.txt', 'notes'],
      ['page.html', 'Opening hours'],
    ]);
    const fm = list.find((d) => d.externalId === 'fm.md')!;
    expect(fm).toMatchObject({ url: 'https://help.example.com/shipping', publicSurfaces: ['help_center'], metadata: { author: 'Nok', tags: ['shipping', 'rates'] }, status: 'indexed' });
    expect(fm.contentMd).not.toContain('author');
    expect(list.find((d) => d.externalId === 'page.html')!.contentMd).toContain('**9 to 5**');

    // Front matter is not indexed: its words find nothing, the body's do.
    const { openEngine } = await import('../src/runtime.js');
    const engine = await openEngine({ db });
    const ctx = (await engine.access.system('acme'))._unsafeUnwrap();
    expect((await engine.search.search(ctx, { query: 'Nok' }))._unsafeUnwrap().results).toHaveLength(0);
    expect((await engine.search.search(ctx, { query: 'parcels cost' }))._unsafeUnwrap().results[0]?.documentId).toBe(fm.id);
    await engine.close();
  });

  it('is a sync: twice is a no-op, a changed file updates, --prune deletes what disappeared', async () => {
    await run(['tenant', 'create', '--slug', 'acme', '--db', db]);
    const docs = join(dir, 'docs');
    mkdirSync(docs, { recursive: true });
    writeFileSync(join(docs, 'keep.md'), '# Keep\n\nStays.');
    writeFileSync(join(docs, 'change.md'), '# Change\n\nFirst version.');
    writeFileSync(join(docs, 'gone.md'), '# Gone\n\nWill disappear.');
    await run(['docs', 'import', docs, '--tenant', 'acme', '--db', db]);
    const first = await documents();

    const again = await run(['docs', 'import', docs, '--tenant', 'acme', '--db', db]);
    expect(again.out).toContain('0 created, 0 updated, 3 unchanged');
    expect(await documents()).toEqual(first);

    writeFileSync(join(docs, 'change.md'), '# Change\n\nSecond version.');
    rmSync(join(docs, 'gone.md'));
    const changed = await run(['docs', 'import', docs, '--tenant', 'acme', '--db', db]);
    expect(changed.out).toContain('0 created, 1 updated, 1 unchanged');
    // Without --prune the vanished file's document stays.
    expect((await documents()).map((d) => d.externalId)).toEqual(['change.md', 'gone.md', 'keep.md']);
    const updated = (await documents()).find((d) => d.externalId === 'change.md')!;
    expect(updated).toMatchObject({ id: first.find((d) => d.externalId === 'change.md')!.id, contentMd: '# Change\n\nSecond version.', status: 'indexed' });
    expect((await documents()).find((d) => d.externalId === 'keep.md')).toEqual(first.find((d) => d.externalId === 'keep.md'));

    const pruned = await run(['docs', 'import', docs, '--tenant', 'acme', '--db', db, '--prune']);
    expect(pruned.out).toContain('0 created, 0 updated, 2 unchanged, 1 deleted');
    expect((await documents()).map((d) => d.externalId)).toEqual(['change.md', 'keep.md']);
  });

  it('writes nothing when a file cannot be imported, naming it', async () => {
    await run(['tenant', 'create', '--slug', 'acme', '--db', db]);
    const docs = join(dir, 'docs');
    mkdirSync(docs, { recursive: true });
    writeFileSync(join(docs, 'good.md'), '# Good\n\nFine.');
    writeFileSync(join(docs, 'bad.md'), '---\nurl: not a url\n---\nBody');
    writeFileSync(join(docs, 'broken.md'), '---\n: [unclosed\n---\nBody');
    await expect(run(['docs', 'import', docs, '--tenant', 'acme', '--db', db])).rejects.toThrow(/Nothing was imported: 2 files[\s\S]*bad\.md: url[\s\S]*broken\.md/);
    expect(await documents()).toEqual([]);
  });
});

describe('panya demo', () => {
  it('is idempotent: one demo tenant, each article once, the same demo key across runs', async () => {
    const first = JSON.parse((await run(['demo', '--json', '--db', db])).out);
    const second = JSON.parse((await run(['demo', '--json', '--db', db])).out);
    expect(first).toMatchObject({ tenant: 'demo', plan: 'business', articlesAdded: demoArticles.length, keyReused: false });
    expect(second).toMatchObject({ articlesAdded: 0, apiKey: first.apiKey, keyReused: true });
    // Once the kept key stops working (revoked), the next run issues a new one and keeps that.
    const { openEngine } = await import('../src/runtime.js');
    let engine = await openEngine({ db });
    const demoTenant = (await engine.tenancy.getTenantBySlug('demo'))._unsafeUnwrap()!;
    for (const k of await engine.apiKeys.list(demoTenant.id)) await engine.apiKeys.revoke(demoTenant.id, k.id);
    await engine.close();
    const third = JSON.parse((await run(['demo', '--json', '--db', db])).out);
    expect(third.keyReused).toBe(false);
    expect(third.apiKey).not.toBe(first.apiKey);
    expect(JSON.parse((await run(['demo', '--json', '--db', db])).out).apiKey).toBe(third.apiKey);
    engine = await openEngine({ db });
    expect((await engine.apiKeys.authenticate(first.apiKey)).isErr()).toBe(true);
    expect((await engine.apiKeys.authenticate(third.apiKey)).isOk()).toBe(true);
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

describe('panya user create', () => {
  it('creates a user with a tenant-wide or workspace-scoped membership', async () => {
    await run(['tenant', 'create', '--slug', 'acme', '--db', db]);
    const owner = JSON.parse((await run(['user', 'create', '--email', 'Owner@Acme.test', '--password', 'correct horse battery', '--tenant', 'acme', '--json', '--db', db])).out);
    expect(owner).toMatchObject({ email: 'owner@acme.test', role: 'owner', workspace: null });
    expect(owner).not.toHaveProperty('passwordHash');
    const viewer = JSON.parse((await run(['user', 'create', '--email', 'v@acme.test', '--tenant', 'acme', '--workspace', 'default', '--role', 'viewer', '--json', '--db', db], { PANYA_USER_PASSWORD: 'another long password' })).out);
    expect(viewer).toMatchObject({ role: 'viewer', workspace: 'default' });
    await expect(run(['user', 'create', '--email', 'x@acme.test', '--password', 'short', '--tenant', 'acme', '--db', db])).rejects.toThrow(/^--password: at least 10 characters$/);
    await expect(run(['user', 'create', '--email', 'x@acme.test', '--tenant', 'acme', '--db', db])).rejects.toThrow(/PANYA_USER_PASSWORD/);
  });
});

describe('in-process scheduler', () => {
  it('schedules every job on the spec’s UTC cron expressions and runs a firing under the lease', async () => {
    const { openEngine } = await import('../src/runtime.js');
    const { startScheduler } = await import('../src/scheduler.js');
    const engine = await openEngine({ db });
    const scheduler = startScheduler(engine, { logger: { debug() {}, info() {}, warn() {}, error() {} } });
    try {
      const patterns = Object.fromEntries(scheduler.crons.map((c) => [c.name, c.getPattern()]));
      expect(patterns).toMatchObject({
        'sla-breach': '* * * * *',
        resolutions: '*/15 * * * *',
        retention: '0 3 * * *',
        'workspace-cleanup': '30 3 * * *',
        'usage-reporter': '0 1 1 * *',
      });
      const usage = scheduler.crons.find((c) => c.name === 'usage-reporter')!;
      expect(usage.nextRun(new Date('2026-11-21T10:00:00Z'))?.toISOString()).toBe('2026-12-01T01:00:00.000Z');
      // Another node holds the retention lease: this node's firing does not run the job.
      await engineInternals(engine).store.jobs.acquireLease('retention', 'node-b', new Date().toISOString(), new Date(Date.now() + 60_000).toISOString());
      const ranBefore = await engineInternals(engine).store.rateLimits.consume([{ key: 'probe', window: 'w', limit: 5, resetAt: '2000-01-01T00:00:00.000Z' }], 1);
      expect(ranBefore.allowed).toBe(true);
      await scheduler.crons.find((c) => c.name === 'retention')!.trigger();
      // The expired probe counter survives because retention did not run here.
      expect((await engineInternals(engine).store.rateLimits.consume([{ key: 'probe', window: 'w', limit: 5, resetAt: '2000-01-01T00:00:00.000Z' }], 1)).counts).toEqual([2]);
      await engineInternals(engine).store.jobs.releaseLease('retention', 'node-b');
      await scheduler.crons.find((c) => c.name === 'retention')!.trigger();
      expect((await engineInternals(engine).store.rateLimits.consume([{ key: 'probe', window: 'w', limit: 5, resetAt: '2000-01-01T00:00:00.000Z' }], 1)).counts).toEqual([1]);
    } finally {
      scheduler.stop();
      await engine.close();
    }
  });
});

describe('panya tenant origins / connector-secret', () => {
  it('replaces the allowed origins (normalised) and prints a connector secret that signs webhooks', async () => {
    await run(['tenant', 'create', '--slug', 'acme', '--db', db]);
    const set = await run(['tenant', 'origins', '--slug', 'acme', '--set', 'https://Help.Example.com:443, http://localhost:8080', '--json', '--db', db]);
    expect(JSON.parse(set.out)).toEqual({ allowedOrigins: ['http://localhost:8080', 'https://help.example.com'] });
    await expect(run(['tenant', 'origins', '--slug', 'acme', '--set', 'https://help.example.com/path', '--db', db])).rejects.toThrow(/^--set: an origin such as/);
    const secret = JSON.parse((await run(['tenant', 'connector-secret', '--slug', 'acme', '--json', '--db', db])).out).secret as string;
    expect(secret).toMatch(/^pcs_[0-9A-Za-z]{40}$/);
    const { openEngine } = await import('../src/runtime.js');
    const { signWebhook } = await import('@panya/core');
    const engine = await openEngine({ db });
    const body = Buffer.from(JSON.stringify({ id: 'evt_1', type: 'document.delete', externalId: 'x' }));
    const received = await engine.connectors.receive({ tenantSlug: 'acme', signature: signWebhook(secret, body, Math.floor(Date.now() / 1000)), rawBody: body });
    await engine.close();
    expect(received._unsafeUnwrap()).toMatchObject({ duplicate: false, outcome: 'absent' });
  });
});
