import { readFileSync } from 'node:fs';
import os from 'node:os';

export function machineInfo() {
  let cpu = os.cpus()[0]?.model ?? 'unknown';
  try {
    cpu = /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? cpu;
  } catch {}
  return {
    cpu,
    nproc: os.availableParallelism?.() ?? os.cpus().length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    icu: process.versions.icu,
    sqlite: null as string | null,
    platform: `${os.platform()} ${os.release()}`,
    loadAverage: os.loadavg().map((x) => Math.round(x * 100) / 100),
    /** What `panya serve` ran from, for the benchmarks that start it. */
    server: process.env.BENCH_SERVER === 'dist' ? 'built (dist)' : 'sources (tsx)',
  };
}
