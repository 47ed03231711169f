import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { DocumentRecord } from '@panya/core';
import { busyError, isBusyCode, translateError } from './database.js';
import type { WriterData, WriterReply, WriterRequest } from './document-writer-thread.js';

/** Inserts batches of documents on a connection of its own in a worker thread. */
export interface DocumentWriter {
  /** All or none, in one transaction; unique violations reject with the port's conflict error, a lock wait that ran out with its busy error. */
  insertMany(docs: readonly DocumentRecord[]): Promise<void>;
  close(): Promise<void>;
}

/** Starts the thread: built JavaScript beside this module, or (in the repository) its TypeScript source, registering tsx in the thread first. */
function spawnThread(workerData: WriterData): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const url = new URL(fromSource ? './document-writer-thread.ts' : './document-writer-thread.js', import.meta.url);
  if (!fromSource) return new Worker(url, { workerData });
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/package.json').replace(/package\.json$/, 'dist/esm/api/index.mjs')).href;
  const loader = `import(${JSON.stringify(tsx)}).then((api) => api.register()).then(() => import(${JSON.stringify(url.href)}))`;
  return new Worker(loader, { eval: true, workerData, execArgv: ['--conditions=@panya/source'] });
}

/**
 * Started on first use. The thread never keeps the process alive; a thread that dies fails the
 * batches it held (their transactions rolled back with it) and the next batch starts another.
 */
export function documentWriter(data: WriterData): DocumentWriter {
  let thread: Worker | null = null;
  let next = 0;
  const pending = new Map<number, { resolve: () => void; reject: (error: unknown) => void }>();

  function start(): Worker {
    const worker = spawnThread(data);
    worker.unref();
    worker.on('message', (reply: WriterReply) => {
      const waiting = pending.get(reply.id);
      if (!waiting) return;
      pending.delete(reply.id);
      if (reply.ok) return waiting.resolve();
      if (isBusyCode(reply.code)) return waiting.reject(busyError(Object.assign(new Error(reply.message), { code: reply.code })));
      try {
        translateError(Object.assign(new Error(reply.message), { code: reply.code }));
      } catch (error) {
        waiting.reject(error);
      }
    });
    const fail = (error: unknown) => {
      if (thread === worker) thread = null;
      for (const waiting of pending.values()) waiting.reject(error);
      pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`The document writer thread exited (code ${code}).`)));
    return worker;
  }

  return {
    insertMany(docs) {
      if (docs.length === 0) return Promise.resolve();
      thread ??= start();
      const id = next++;
      const request: WriterRequest = { id, docs: [...docs] };
      return new Promise<void>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        thread!.postMessage(request);
      });
    },
    async close() {
      const open = thread;
      thread = null;
      await open?.terminate();
    },
  };
}
