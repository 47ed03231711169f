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

/** What one run of the load generator measured. */
export interface LoadSummary {
  reqPerSec: number;
  requests: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMaxMs: number;
  non2xx: number;
  errors: number;
}

export interface LoadResult extends LoadSummary {
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
 * Runs the load for `seconds` in a child process; `serverPgid` is the server's process group.
 * `sequence`: requests sent once each, in order, whichever connection is free (autocannon's
 * `requests` is sent whole by every connection). `pace`: the sequence sent open loop at that many
 * requests a second (each when due, latency from when it was due) instead of autocannon's closed
 * loop of `connections`.
 */
export async function runLoad(opts: Partial<autocannon.Options> & { sequence?: autocannon.Request[]; pace?: number }, seconds: number, serverPgid?: number): Promise<LoadResult> {
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
    const r = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) as { result: LoadSummary; cpuMs: number };
    return {
      ...r.result,
      loadCpuMs: r.cpuMs,
      serverCpuMs: before === null || after === null ? null : after - before,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
