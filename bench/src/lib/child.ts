/**
 * Each benchmark (and each memory-sensitive part) runs in its own Node process, so peak RSS,
 * heap deltas and JIT state of one never leak into another. Children get `--expose-gc` and
 * resolve workspace packages to their TypeScript sources (`@panya/source`, through tsx).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_DIR } from './panya.js';

export const NODE_FLAGS = ['--expose-gc', '--max-old-space-size=12288', '--conditions=@panya/source', '--import', 'tsx'];

export async function runChild<T>(script: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'panya-bench-out-'));
  const out = join(dir, 'result.json');
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, [...NODE_FLAGS, join(BENCH_DIR, 'src', script), ...args], {
        cwd: BENCH_DIR,
        stdio: ['ignore', 'inherit', 'inherit'],
        env: { ...process.env, ...env, BENCH_RESULT: out },
      });
      child.on('error', reject);
      child.on('exit', resolve);
    });
    if (code !== 0) throw new Error(`${script} ${args.join(' ')} exited with ${code}`);
    return JSON.parse(readFileSync(out, 'utf8')) as T;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** In a child: hands the result to the parent. */
export function emit(result: unknown): void {
  const path = process.env.BENCH_RESULT;
  if (path) writeFileSync(path, JSON.stringify(result));
  else console.log(JSON.stringify(result, null, 2));
}

export const log = (message: string) => process.stderr.write(message + '\n');
