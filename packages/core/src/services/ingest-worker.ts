import type { Logger } from '../ports/system.js';
import type { DocumentStatus, Scope, Store } from '../ports/store.js';
import type { IndexingNotifier } from './documents.js';
import type { IngestService } from './ingest.js';

export interface IngestWorkerOptions {
  /** How often an idle worker looks for work written by other processes. */
  pollMs?: number;
  logger: Logger;
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
} {
  const pollMs = options.pollMs ?? 1000;
  let wake: AbortController = new AbortController();
  let running: Promise<void> | null = null;
  let stopped = false;
  const listeners = new Set<() => void>();

  async function loop() {
    while (!stopped) {
      let worked = false;
      try {
        worked = (await ingest.processBatch()).length > 0;
      } catch (error) {
        options.logger.error('ingest worker round failed', { error: error instanceof Error ? error.message : String(error) });
      }
      for (const notify of listeners) notify();
      if (!worked && !stopped) {
        await sleep(pollMs, wake.signal);
        wake = new AbortController();
      }
    }
  }

  return {
    start() {
      if (running) return;
      stopped = false;
      running = loop();
    },

    async stop() {
      stopped = true;
      wake.abort();
      await running;
      running = null;
    },

    documentsChanged() {
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
