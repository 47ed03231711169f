/**
 * `panya serve --workers N` started as `pnpm panya` starts it (sources through tsx, hash embedder),
 * in its own process group so the primary, its workers and helpers all stop together.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** How long a server may take to listen: loading the sources through tsx takes minutes on a crowded machine. */
const START_SECONDS = Number(process.env.BENCH_SERVER_START_SECONDS ?? 240);

export interface Server {
  child: ChildProcess;
  url: string;
  /** SIGTERM, then SIGKILL to the whole process group (primary, workers, helpers). */
  kill(): Promise<{ exitedMs: number | null }>;
}

/** `BENCH_SERVER=dist`: the built server (`pnpm build`), as users run it; otherwise the sources through tsx. */
export const SERVER_FROM_DIST = process.env.BENCH_SERVER === 'dist';

export function startServer(db: string, workers: number, nodeFlags: string[] = [], env: Record<string, string> = {}): Promise<Server> {
  const entry = SERVER_FROM_DIST ? ['packages/cli/dist/bin.js'] : ['--conditions=@panya/source', '--import', 'tsx', 'packages/cli/src/bin.ts'];
  const child = spawn(process.execPath, [...nodeFlags, ...entry, 'serve', '--workers', String(workers), '--port', '0', '--db', db, '--embedder', 'hash'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PANYA_LOG_LEVEL: 'warn', PANYA_SESSION_SECRET: 'bench-serve-session-secret-0123456789', ...env },
  });
  const killGroup = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // Already gone.
    }
  };
  process.once('exit', killGroup);
  const kill = async () => {
    const started = Date.now();
    const exited = new Promise<boolean>((ok) => (child.exitCode !== null ? ok(true) : child.once('exit', () => ok(true))));
    child.kill('SIGTERM');
    const inTime = await Promise.race([exited, new Promise<boolean>((ok) => setTimeout(() => ok(false), 20_000))]);
    const exitedMs = inTime ? Date.now() - started : null;
    killGroup();
    process.off('exit', killGroup);
    return { exitedMs };
  };
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (killGroup(), reject(new Error(`server not listening within ${START_SECONDS} s:\n${output}`))), START_SECONDS * 1000);
    const onData = (d: Buffer) => {
      output = (output + d.toString()).slice(-4000);
      const url = /listening on (\S+)/.exec(output)?.[1];
      if (url) (clearTimeout(timer), resolve({ child, url, kill }));
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d: Buffer) => {
      onData(d);
      process.stderr.write(d);
    });
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`server exited with ${code}:\n${output}`))));
  });
}

