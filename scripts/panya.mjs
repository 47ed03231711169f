#!/usr/bin/env node
/**
 * `pnpm panya …` and `pnpm start` from a clone: the built CLI (`pnpm build`) when its build is
 * newer than every source file it is made of, else the CLI from its TypeScript sources (slower to
 * start, but never stale). Ctrl-C reaches the CLI, which shuts down and exits 0.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const packages = join(root, 'packages');
const args = process.argv.slice(2);

/** Newest modification time below `dir` (0 when it does not exist). */
function newest(dir) {
  if (!existsSync(dir)) return 0;
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/** Every package with sources has a build at least as new as them (the CLI imports them built). */
function builtAndFresh() {
  for (const name of readdirSync(packages)) {
    const src = join(packages, name, 'src');
    const built = join(packages, name, 'dist', 'index.js');
    if (name === 'admin' || !existsSync(src)) continue;
    if (!existsSync(built) || statSync(built).mtimeMs < newest(src)) return false;
  }
  return existsSync(join(packages, 'cli', 'dist', 'bin.js'));
}

if (process.env.PANYA_FROM_SOURCE !== '1' && builtAndFresh()) {
  // Ctrl-C arrives twice under `pnpm` (from the terminal, then passed on by pnpm): the first one
  // starts the CLI's own shutdown (`serve`), which a second must not cut short. A command that
  // does not handle it stops at once.
  let stopping = false;
  process.on('SIGINT', () => {
    if (stopping) return;
    if (process.listenerCount('SIGINT') > 1) stopping = true;
    else process.exit(130);
  });
  process.argv = [process.argv[0], join(packages, 'cli', 'dist', 'bin.js'), ...args];
  await import(pathToFileURL(join(packages, 'cli', 'dist', 'bin.js')).href);
} else {
  const child = spawn(process.execPath, ['--conditions=@panya/source', '--import', 'tsx', join(packages, 'cli', 'src', 'bin.ts'), ...args], { stdio: 'inherit' });
  // A terminal's Ctrl-C reaches the whole process group, the CLI included (passing it on would be a
  // second one); SIGTERM, sent to this process alone, is passed on.
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1)));
}
