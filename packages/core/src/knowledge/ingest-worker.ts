import { isStoreBusy } from '../errors.js';
import type { Logger } from '../ports/system.js';
import type { DocumentStatus, Scope, Store } from '../ports/store.js';
import type { IngestService } from './ingest.js';

/** Told when documents need (re)indexing, so a worker can pick them up without polling delay. */
export interface IndexingNotifier {
  documentsChanged(scope: Scope, ids: readonly string[]): void;
}

export interface IngestWorkerOptions {
  /** How often an idle worker looks for work written by other processes. */
  pollMs?: number;
  logger: Logger;
  /** Called after every round (e.g. to tell another thread that documents may have settled). */
  onRound?: () => void;
  /** Runs the queue elsewhere (worker threads): this worker then only wakes it and hears its progress. */
  runner?: IngestRunner;
  /** Shared with the other workers on the database: a round runs only while holding it. */
  permit?: RoundPermit;
}

/**
 * Lets only so many ingest rounds run at a time among workers that share a database (e.g. one
 * SQLite file's processes). Taking it never waits: a worker without it waits for its next poll.
 */
export interface RoundPermit {
  tryAcquire(): boolean;
  release(): void;
  close(): void;
}

/**
 * Where the ingest queue runs when not on this thread, e.g. worker threads with their own store
 * connections: the request thread only enqueues, wakes the runner and waits for outcomes.
 */
export interface IngestRunner {
  start(): void;
  stop(): Promise<void>;
  /** New work is queued. */
  wake(): void;
  /** Called whenever the runner finished a round (documents may have settled). */
  onProgress(listener: () => void): void;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/**
 * Runs the ingest queue in-process: woken at once by local writes, polling for writes made by
 * other processes (the CLI, other nodes). Several workers may share one database: claims are leased.
 */
export function createIngestWorker(ingest: IngestService, store: Store, options: IngestWorkerOptions): IndexingNotifier & {
  start(): void;
  stop(): Promise<void>;
  waitFor(scope: Scope, id: string, timeoutMs?: number): Promise<DocumentStatus | null>;
  /** Whether the worker is started and not stopped: documents written now will be indexed. */
  alive(): boolean;
} {
  const pollMs = options.pollMs ?? 1000;
  let wake: AbortController = new AbortController();
  let running: Promise<void> | null = null;
  let stopped = false;
  let runnerStarted = false;
  const listeners = new Set<() => void>();
  const settled = () => {
    for (const notify of listeners) notify();
  };
  const runner = options.runner;
  runner?.onProgress(settled);

  async function loop() {
    while (!stopped) {
      let worked = false;
      let turn = false;
      try {
        // Another worker runs a round: it drains the queue, this one looks again at its next poll.
        turn = options.permit ? options.permit.tryAcquire() : true;
        if (turn) worked = (await ingest.processBatch()).length > 0;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        // A lock held past a whole lease (another process's long write) is load, not a fault: the next round tries again.
        if (isStoreBusy(error)) options.logger.warn('ingest worker round waited a whole lease for the write lock; trying again', { error: message });
        else options.logger.error('ingest worker round failed', { error: message });
      } finally {
        if (turn) options.permit?.release();
      }
      settled();
      options.onRound?.();
      if (!worked && !stopped) {
        await sleep(pollMs, wake.signal);
        wake = new AbortController();
      }
    }
  }

  return {
    start() {
      if (runner) {
        runnerStarted = true;
        return runner.start();
      }
      if (running) return;
      stopped = false;
      running = loop();
    },

    async stop() {
      if (runner) {
        runnerStarted = false;
        return runner.stop();
      }
      stopped = true;
      wake.abort();
      await running;
      running = null;
      options.permit?.close();
    },

    alive() {
      // A runner restarts threads that exit: it serves the queue from start() to stop().
      if (runner) return runnerStarted;
      return running !== null && !stopped;
    },

    documentsChanged() {
      if (runner) return runner.wake();
      wake.abort();
    },

    /** Resolves with the document's final status (`indexed`/`failed`), or null if it vanished or time ran out. */
    async waitFor(scope: Scope, id: string, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const doc = await store.documents.get(scope, id);
        if (!doc) return null;
        if (doc.status === 'indexed' || doc.status === 'failed') return doc.status;
        if (Date.now() >= deadline) return doc.status;
        await new Promise<void>((resolve) => {
          const done = () => (listeners.delete(done), clearTimeout(timer), resolve());
          const timer = setTimeout(done, Math.min(250, Math.max(0, deadline - Date.now())));
          listeners.add(done);
        });
      }
    },
  };
}

export type IngestWorker = ReturnType<typeof createIngestWorker>;
