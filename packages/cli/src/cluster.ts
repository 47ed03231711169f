import cluster, { type Worker } from 'node:cluster';
import { answerClusterMetrics } from '@panya/adapter-express';
import type { Logger } from '@panya/core';
import { CommandError } from './commands/tenant.js';

/** Set in the environment of each `panya serve` worker process: its slot, 1…N, kept by its replacements. */
export const WORKER_SLOT_ENV = 'PANYA_SERVE_SLOT';

/** What a worker tells the primary once its server listens. */
interface ListeningMessage {
  panya: 'listening';
  url: string;
}

/** This process's worker slot when it is a `panya serve` cluster worker, else null. */
export function workerSlot(env: NodeJS.ProcessEnv = process.env): number | null {
  if (!cluster.isWorker) return null;
  const slot = Number(env[WORKER_SLOT_ENV]);
  return Number.isInteger(slot) && slot > 0 ? slot : null;
}

/** A worker's report to its primary that it serves. */
export function reportListening(url: string): void {
  const message: ListeningMessage = { panya: 'listening', url };
  process.send?.(message);
}

export interface ClusterOptions {
  workers: number;
  /** The CLI entry each worker runs, with `args` (the `serve` command and its options). */
  exec: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  logger: Logger;
  /** How long a stopping worker may take before it is killed (its own grace period plus a margin). */
  stopDeadlineMs: number;
}

export interface RunningCluster {
  url: string;
  /** The process ids of the workers now running. */
  pids(): number[];
  /** Stops every worker (SIGTERM, then SIGKILL past the deadline). */
  stop(): Promise<void>;
}

/**
 * Node options of a worker process: the primary's, with garbage collection on each isolate's own
 * thread (`--single-threaded-gc`). V8's helper threads serve every isolate of a process at normal
 * priority, so the ingest and conversion threads' collections competed with serving at full
 * priority although those threads run at background priority; on their own threads they keep it.
 * Measured under upload load (`pnpm bench stall`, 2 workers, 5 runs each): /healthz p99 63 ms
 * against 75, search p99 69 against 77.
 */
export function workerExecArgv(primary: readonly string[]): string[] {
  return primary.includes(SINGLE_THREADED_GC) ? [...primary] : [...primary, SINGLE_THREADED_GC];
}
const SINGLE_THREADED_GC = '--single-threaded-gc';

/** A replaced worker that dies again within this long waits longer before the next try (up to 10 s). */
const STEADY_MS = 10_000;
const FIRST_RESTART_DELAY_MS = 250;
const MAX_RESTART_DELAY_MS = 10_000;

/**
 * `panya serve --workers N`: N processes serve HTTP on one port (the primary accepts and hands
 * connections round-robin) over the same database. A worker that dies is replaced in its slot,
 * so its lease holder name, and what it held, carry over. If a worker stops while the cluster
 * starts, the configuration is at fault: everything stops and the start fails.
 */
export function startCluster(options: ClusterOptions): Promise<RunningCluster> {
  cluster.setupPrimary({ exec: options.exec, args: options.args, execArgv: workerExecArgv(process.execArgv) });
  // Each worker's /metrics asks here for the sum over all workers.
  const stopAnsweringMetrics = answerClusterMetrics();
  const bySlot = new Map<number, Worker>();
  const restartDelay = new Map<number, number>();
  let stopping = false;
  let stopped: Promise<void> | null = null;
  let url = '';

  return new Promise<RunningCluster>((resolve, reject) => {
    let starting = true;
    const up = new Set<number>();

    function fork(slot: number): void {
      const worker = cluster.fork({ ...options.env, [WORKER_SLOT_ENV]: String(slot) });
      const forkedAt = Date.now();
      bySlot.set(slot, worker);
      worker.on('message', (message: ListeningMessage | undefined) => {
        if (message?.panya !== 'listening') return;
        url ||= message.url;
        up.add(slot);
        if (starting && up.size === options.workers) {
          starting = false;
          resolve(running);
        }
      });
      worker.on('exit', (code, signal) => {
        if (bySlot.get(slot) === worker) bySlot.delete(slot);
        if (stopping) return;
        const how = signal ? `signal ${signal}` : `exit code ${code}`;
        if (starting) {
          void stop().then(() => reject(new CommandError(`Worker ${slot} of ${options.workers} stopped while starting (${how}); see its message above. Pass --workers 1 to serve from one process.`)));
          return;
        }
        const delay = Date.now() - forkedAt < STEADY_MS ? Math.min((restartDelay.get(slot) ?? FIRST_RESTART_DELAY_MS / 2) * 2, MAX_RESTART_DELAY_MS) : FIRST_RESTART_DELAY_MS;
        restartDelay.set(slot, delay);
        options.logger.warn('worker exited; starting another', { worker: slot, pid: worker.process.pid, exit: how, inMs: delay });
        setTimeout(() => stopping || fork(slot), delay);
      });
    }

    function stop(): Promise<void> {
      stopping = true;
      stopAnsweringMetrics();
      return (stopped ??= Promise.all(
        [...bySlot.values()].map(
          (worker) =>
            new Promise<void>((done) => {
              if (worker.isDead()) return done();
              const kill = setTimeout(() => worker.process.kill('SIGKILL'), options.stopDeadlineMs);
              worker.once('exit', () => (clearTimeout(kill), done()));
              worker.process.kill('SIGTERM');
            }),
        ),
      ).then(() => undefined));
    }

    const running: RunningCluster = {
      get url() {
        return url;
      },
      pids: () => [...bySlot.values()].map((w) => w.process.pid).filter((pid): pid is number => pid !== undefined),
      stop,
    };
    for (let slot = 1; slot <= options.workers; slot++) fork(slot);
  });
}
