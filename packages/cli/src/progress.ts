import cliProgress from 'cli-progress';
import type { Io } from './runtime.js';

/** Reports progress of long work: a bar when a person watches (a TTY), else a line now and then. */
export interface Progress {
  update(done: number, total?: number): void;
  stop(): void;
}

export interface ProgressOptions {
  /** Draw a bar on stderr (a TTY); otherwise write lines through `io.err`. */
  tty: boolean;
  /** Least time between two lines when there is no TTY. Default 5 s. */
  everyMs?: number;
  /** e.g. "documents", "chunks". */
  unit: string;
}

export function progress(io: Io, label: string, total: number, options: ProgressOptions): Progress {
  if (options.tty) {
    const bar = new cliProgress.SingleBar({ format: `${label} [{bar}] {value}/{total} ${options.unit}`, stream: process.stderr, clearOnComplete: false }, cliProgress.Presets.shades_classic);
    bar.start(total, 0);
    return {
      update: (done, newTotal) => {
        if (newTotal !== undefined) bar.setTotal(newTotal);
        bar.update(done);
      },
      stop: () => bar.stop(),
    };
  }
  const everyMs = options.everyMs ?? 5_000;
  let last = Date.now();
  let current = 0;
  let of = total;
  const line = () => io.err(`${label}: ${current}/${of} ${options.unit}${of > 0 ? ` (${Math.floor((current / of) * 100)}%)` : ''}`);
  return {
    update: (done, newTotal) => {
      current = done;
      if (newTotal !== undefined) of = newTotal;
      if (Date.now() - last < everyMs) return;
      last = Date.now();
      line();
    },
    stop: () => line(),
  };
}
