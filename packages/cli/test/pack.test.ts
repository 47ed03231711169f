/**
 * The packages as npm would ship them. `pnpm pack` of every publishable package (each
 * `packages/*` not marked private), each tarball checked — ESM, `exports` and `bin` pointing at
 * files inside it, types, no `workspace:` range, a licence, publint clean — then all of them
 * installed into a scratch project outside the workspace, where the README's library snippet
 * serves, the README's client snippet talks to it, both typecheck against the installed types,
 * every entry point imports and the installed `panya --help` runs.
 *
 * Runs against the built packages (`pnpm test` builds first). The scratch project resolves what
 * the workspace's lockfile resolved, so it installs from the local store (the native build of
 * better-sqlite3 included) and needs no network beyond what `pnpm install` fetched.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const run = promisify(execFile);

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  type?: string;
  license?: string;
  files?: string[];
  exports?: Record<string, Record<string, string>>;
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const workspacePackages = readdirSync(join(root, 'packages'))
  .filter((dir) => existsSync(join(root, 'packages', dir, 'package.json')))
  .map((dir) => ({ dir: join(root, 'packages', dir), manifest: JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')) as Manifest }));
const publishable = workspacePackages.filter((p) => !p.manifest.private);

/** A fenced block of the README: the first ```ts block after `heading`. */
function readmeSnippet(heading: string): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf(`\n${heading}\n`));
  expect(section.length, `README has no "${heading}" section`).toBeGreaterThan(heading.length);
  return /```ts\n([\s\S]*?)```/.exec(section)![1]!;
}

/** The version of each package the lockfile resolves to exactly one version. */
function lockedVersions(): Record<string, string> {
  const lock = readFileSync(join(root, 'pnpm-lock.yaml'), 'utf8');
  const packages = lock.slice(lock.indexOf('\npackages:\n'), lock.indexOf('\nsnapshots:\n'));
  const versions = new Map<string, Set<string>>();
  for (const [, name, version] of packages.matchAll(/^ {2}'?((?:@[^/\s]+\/)?[^@\s']+)@([^(:'\s]+)/gm)) {
    if (!versions.has(name!)) versions.set(name!, new Set());
    versions.get(name!)!.add(version!);
  }
  return Object.fromEntries([...versions].filter(([name, v]) => v.size === 1 && !name.startsWith('@panya/')).map(([name, v]) => [name, [...v][0]!]));
}

/** The environment of a child pnpm or node, without what the pnpm running this test set for its script. */
function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm_(package|lifecycle|command|config_user_agent)|PNPM_|(npm|pnpm)_config_verify_deps)/i.test(k)));
  return { ...env, ...extra };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  await new Promise((ok) => server.close(ok));
  return port;
}

/** Every file path an `exports` map names (conditions nested or not). */
function exportTargets(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object') return Object.values(value).flatMap(exportTargets);
  return [];
}

const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const;

describe('published packages: pnpm pack, install into a scratch project, the README snippets', () => {
  let work: string;
  let scratch: string;
  const tarballs = new Map<string, { file: string; manifest: Manifest; files: string[] }>();
  let server: ChildProcess | undefined;

  beforeAll(async () => {
    for (const { dir, manifest } of publishable) {
      for (const target of exportTargets(manifest.exports).filter((t) => t.startsWith('./dist/')))
        if (!existsSync(join(dir, target))) throw new Error(`${manifest.name} is not built (${target} is missing): run \`pnpm build\` first.`);
    }
    work = mkdtempSync(join(tmpdir(), 'panya-pack-'));
    const packed = join(work, 'tarballs');
    const filters = publishable.flatMap((p) => ['--filter', p.manifest.name]);
    const { stdout } = await run('pnpm', ['-r', ...filters, 'pack', '--pack-destination', packed, '--json'], { cwd: root, env: childEnv(), maxBuffer: 64 << 20 });
    for (const { name, filename } of JSON.parse(stdout) as { name: string; filename: string }[]) {
      const listing = await run('tar', ['-tzf', filename]);
      const files = listing.stdout.trim().split('\n').map((f) => f.replace(/^package\//, ''));
      const manifest = JSON.parse((await run('tar', ['-xzOf', filename, 'package/package.json'], { maxBuffer: 1 << 20 })).stdout) as Manifest;
      tarballs.set(name, { file: filename, manifest, files });
    }
  }, 120_000);

  afterAll(() => {
    if (server?.exitCode === null) server.kill('SIGKILL');
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('packs every package that is not private, and every dependency of one is itself published', () => {
    expect([...tarballs.keys()].sort()).toEqual(publishable.map((p) => p.manifest.name).sort());
    const names = new Set(workspacePackages.map((p) => p.manifest.name));
    for (const { manifest } of publishable) {
      for (const dependency of Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }))
        if (names.has(dependency)) expect(tarballs.has(dependency), `${manifest.name} depends on ${dependency}, which is private`).toBe(true);
    }
  });

  it('ships ESM with types, exports and bin inside the tarball, real version ranges, a README and a licence', () => {
    for (const [name, { manifest, files }] of tarballs) {
      const where = `${name}: `;
      expect(manifest.type, `${where}type`).toBe('module');
      expect(manifest.files, `${where}files`).toBeDefined();
      expect(manifest.license, `${where}license`).toBe('MIT');
      expect(files, `${where}LICENSE`).toContain('LICENSE');
      expect(files, `${where}README.md`).toContain('README.md');
      expect(files.some((f) => f.startsWith('src/')), `${where}sources are not shipped`).toBe(false);
      for (const field of DEPENDENCY_FIELDS)
        for (const [dependency, range] of Object.entries(manifest[field] ?? {})) expect(range, `${where}${field}.${dependency}`).not.toMatch(/^(workspace|link|file):/);
      expect(Object.keys(manifest.exports ?? {}), `${where}exports`).toContain('.');
      // The published map (publishConfig.exports) is the workspace's, less the source condition: no entry point lost.
      const inWorkspace = publishable.find((p) => p.manifest.name === name)!.manifest.exports!;
      expect(manifest.exports, `${where}publishConfig.exports`).toEqual(Object.fromEntries(Object.entries(inWorkspace).map(([k, { '@panya/source': _, ...rest }]) => [k, rest])));
      for (const [subpath, conditions] of Object.entries(manifest.exports!)) {
        // Types first, then ESM; the workspace-only source condition stays out of the published map.
        expect(Object.keys(conditions), `${where}exports["${subpath}"]`).toEqual(['types', 'import']);
        for (const target of exportTargets(conditions)) expect(files, `${where}exports["${subpath}"] → ${target}`).toContain(target.replace(/^\.\//, ''));
      }
      for (const [command, target] of Object.entries(manifest.bin ?? {})) expect(files, `${where}bin.${command} → ${target}`).toContain(target.replace(/^\.\//, ''));
    }
  });

  it('passes publint (warnings count as errors)', async () => {
    const problems: string[] = [];
    for (const [name, { file }] of tarballs) {
      const bytes = readFileSync(file);
      const { messages, pkg } = await publint({ pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer }, level: 'warning', strict: true });
      for (const message of messages) problems.push(`${name}: ${formatMessage(message, pkg, { color: false })}`);
    }
    expect(problems).toEqual([]);
  });

  it('installs into a scratch project where the README snippets, every entry point and `panya --help` work', async () => {
    scratch = join(work, 'app');
    mkdirSync(scratch);
    const fromTarballs = Object.fromEntries([...tarballs].map(([name, { file }]) => [name, `file:${file}`]));
    const locked = lockedVersions();
    writeFileSync(
      join(scratch, 'package.json'),
      JSON.stringify({
        name: 'panya-scratch',
        private: true,
        type: 'module',
        // vitest for `@panya/core/testing` (its optional peer); typescript and Node's types to typecheck the snippets.
        dependencies: { ...fromTarballs, vitest: locked.vitest, typescript: locked.typescript, '@types/node': '^20' },
        pnpm: { overrides: { ...locked, ...fromTarballs }, onlyBuiltDependencies: ['better-sqlite3'] },
      }),
    );
    const { stdout: store } = await run('pnpm', ['store', 'path'], { cwd: root, env: childEnv() });
    await run('pnpm', ['install', '--prefer-offline', '--ignore-workspace', '--store-dir', store.trim(), '--reporter=append-only'], { cwd: scratch, env: childEnv({ CI: '1' }), maxBuffer: 64 << 20, timeout: 240_000 });

    // Every entry point of every package imports, as a consumer's code would.
    const entries = [...tarballs].flatMap(([name, { manifest }]) => Object.keys(manifest.exports!).map((subpath) => (subpath === '.' ? name : `${name}/${subpath.slice(2)}`)));
    writeFileSync(join(scratch, 'entries.mjs'), `${entries.map((e, i) => `import * as m${i} from '${e}';`).join('\n')}\nconsole.log([${entries.map((_, i) => `Object.keys(m${i}).length`).join(', ')}].join(' '));\n`);
    const { stdout: exportCounts } = await run(process.execPath, ['entries.mjs'], { cwd: scratch, env: childEnv() });
    expect(exportCounts.trim().split(' ').map(Number).every((n) => n > 0), `entry points without exports: ${entries.join(', ')} → ${exportCounts}`).toBe(true);

    const port = await freePort();
    const library = readmeSnippet('## Embedding the library');
    const client = readmeSnippet('## TypeScript client');
    expect(library).toContain('.listen(3000');
    expect(client).toContain("'http://127.0.0.1:3000'");
    // The library snippet serves on a free port and reports its key and what it found; the client snippet calls it there.
    const serving = `${library.replace('.listen(3000', `.listen(${port}`)}\nconsole.log('SNIPPET ' + JSON.stringify({ key, titles: found._unsafeUnwrap().results.map((r) => r.title) }));\n`;
    const calling = client.replace("'http://127.0.0.1:3000'", `'http://127.0.0.1:${port}'`);
    for (const [file, text] of [['library', serving], ['client', calling]] as const) {
      writeFileSync(join(scratch, `${file}.mjs`), text);
      writeFileSync(join(scratch, `${file}.ts`), text);
    }

    // The snippets typecheck against the installed types, as a TypeScript user compiles them.
    writeFileSync(join(scratch, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'nodenext', target: 'es2022', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] }, files: ['library.ts', 'client.ts'] }));
    const tsc = await run(process.execPath, [join(scratch, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: scratch, env: childEnv() }).catch((error: { stdout: string }) => error);
    expect('stdout' in tsc ? tsc.stdout : '').toBe('');

    server = spawn(process.execPath, ['library.mjs'], { cwd: scratch, env: childEnv({ PANYA_LOG_LEVEL: 'warn' }) });
    let output = '';
    const reported = await new Promise<{ key: string; titles: string[] }>((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`the library snippet reported nothing within 60 s:\n${output}`)), 60_000);
      server!.stdout!.on('data', (d: Buffer) => {
        output += d.toString();
        const line = /^SNIPPET (.*)$/m.exec(output)?.[1];
        if (line) (clearTimeout(timer), ok(JSON.parse(line) as { key: string; titles: string[] }));
      });
      server!.stderr!.on('data', (d: Buffer) => (output += d.toString()));
      server!.once('exit', (code) => (clearTimeout(timer), fail(new Error(`the library snippet exited with ${code}:\n${output}`))));
    });
    expect(reported.key).toMatch(/^svc_live_/);
    expect(reported.titles[0]).toBe('Refunds');
    // It keeps serving: the client snippet talks to it with the key it created.
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    const called = await run(process.execPath, ['client.mjs'], { cwd: scratch, env: childEnv({ PANYA_KEY: reported.key }), timeout: 60_000 });
    expect(called.stdout).toContain('7 days');
    expect(called.stdout).toContain('404 not_found');

    // The installed command runs.
    const help = await run(join(scratch, 'node_modules/.bin/panya'), ['--help'], { cwd: scratch, env: childEnv() });
    expect(help.stdout).toMatch(/Usage: panya/);
    expect(help.stdout).toContain('serve');
  }, 300_000);
});
