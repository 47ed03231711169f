import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { IngestRunner, Logger } from '@panya/core';
import type { IngestThreadData } from './ingest-thread.js';

/** The thread entry: built JavaScript beside this module, or (in the repository) its TypeScript source run through tsx. */
function threadEntry(): { url: URL; tsx: string | null } {
  const fromSource = import.meta.url.endsWith('.ts');
  const url = new URL(fromSource ? './ingest-thread.ts' : './ingest-thread.js', import.meta.url);
  if (!fromSource) return { url, tsx: null };
  const api = createRequire(import.meta.url).resolve('tsx/package.json').replace(/package\.json$/, 'dist/esm/api/index.mjs');
  return { url, tsx: pathToFileURL(api).href };
}

/**
 * The ingest queue in `count` worker threads, each with its own store connection: claims are
 * leased in the database, so threads (and other processes) share the queue as nodes do. A thread
 * that dies is replaced; its documents return to the queue when their lease expires.
 */
export function startIngestThreads(data: IngestThreadData, count: number, logger: Logger): IngestRunner {
  const listeners: (() => void)[] = [];
  const threads = new Set<Worker>();
  let stopping = false;
  const { url, tsx } = threadEntry();

  let spawned = 0;
  function spawn(): void {
    const workerData: IngestThreadData = { ...data, thread: spawned++ };
    // From source, a one-line loader registers tsx in the thread, then imports the entry.
    const thread = tsx
      ? new Worker(`import(${JSON.stringify(tsx)}).then((api) => api.register()).then(() => import(${JSON.stringify(url.href)}))`, { eval: true, workerData, execArgv: ['--conditions=@panya/source'] })
      : new Worker(url, { workerData });
    threads.add(thread);
    thread.on('message', (m: string) => {
      if (m === 'progress') for (const l of listeners) l();
    });
    // An error of a class of its own (SQLite's) arrives as a plain object of its own fields (its code);
    // the thread logs its stack before it ends (ingest-thread.ts).
    thread.on('error', (error: unknown) => logger.error('ingest thread failed', { error: error instanceof Error ? (error.stack ?? error.message) : JSON.stringify(error) }));
    thread.on('exit', (code) => {
      threads.delete(thread);
      if (!stopping) {
        logger.warn('ingest thread exited; starting another', { code });
        setTimeout(spawn, 1_000).unref();
      }
    });
  }

  return {
    start() {
      for (let i = 0; i < count; i++) spawn();
    },
    async stop() {
      stopping = true;
      await Promise.all(
        [...threads].map(
          (t) =>
            new Promise<void>((resolve) => {
              const timer = setTimeout(() => void t.terminate().then(() => resolve()), 5_000);
              t.once('exit', () => (clearTimeout(timer), resolve()));
              t.postMessage('stop');
            }),
        ),
      );
    },
    wake() {
      for (const t of threads) t.postMessage('wake');
    },
    onProgress(listener) {
      listeners.push(listener);
    },
  };
}
