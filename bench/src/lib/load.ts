/**
 * The load generator in a process of its own: autocannon beside the server rather than inside
 * the benchmark process, and the CPU both sides spent, so a req/s figure says what it cost.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type autocannon from 'autocannon';
import { BENCH_DIR } from './panya.js';

export interface LoadResult {
  reqPerSec: number;
  requests: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMaxMs: number;
  non2xx: number;
  errors: number;
  /** CPU the load generator spent (user + system), ms. */
  loadCpuMs: number;
  /** CPU the server's process group spent over the run (user + system), ms; null off Linux. */
  serverCpuMs: number | null;
}

const CHILD = fileURLToPath(new URL('./load-child.ts', import.meta.url));
const TICK_MS = 10; // USER_HZ = 100 on Linux

/** CPU time (ms) of every process in a process group, from /proc; null where /proc is absent. */
export function groupCpuMs(pgid: number): number | null {
  let ticks = 0;
  let dirs: string[];
  try {
    dirs = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  for (const pid of dirs) {
    try {
      // Fields after the command name (which may hold spaces): state ppid pgrp … utime(14) stime(15).
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid) ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process ended meanwhile.
    }
  }
  return ticks * TICK_MS;
}

/**
 * Runs autocannon for `seconds` in a child process; `serverPgid` is the server's process group.
 * `sequence`: requests sent once each, in order, whichever connection is free (autocannon's
 * `requests` is sent whole by every connection).
 */
export async function runLoad(opts: Partial<autocannon.Options> & { sequence?: autocannon.Request[] }, seconds: number, serverPgid?: number): Promise<LoadResult> {
  const dir = mkdtempSync(join(tmpdir(), 'panya-bench-load-'));
  try {
    writeFileSync(join(dir, 'options.json'), JSON.stringify({ ...opts, connections: opts.connections ?? 10, duration: seconds, pipelining: 1, timeout: 10 }));
    const before = serverPgid ? groupCpuMs(serverPgid) : null;
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dir], { cwd: BENCH_DIR, stdio: ['ignore', 'inherit', 'inherit'] });
      child.on('error', reject);
      child.on('exit', resolve);
    });
    const after = serverPgid ? groupCpuMs(serverPgid) : null;
    if (code !== 0) throw new Error(`load generator exited with ${code}`);
    const r = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) as { result: autocannon.Result; cpuMs: number };
    return {
      reqPerSec: r.result.requests.average,
      requests: r.result.requests.total,
      latencyP50Ms: r.result.latency.p50,
      latencyP99Ms: r.result.latency.p99,
      latencyMaxMs: r.result.latency.max,
      non2xx: r.result.non2xx,
      errors: r.result.errors + r.result.timeouts,
      loadCpuMs: r.cpuMs,
      serverCpuMs: before === null || after === null ? null : after - before,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
