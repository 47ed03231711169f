import { readlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { getPriority } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { BACKGROUND_NICE, runAsBackgroundThread } from '../src/background-priority.js';

const threadId = () => Number(readlinkSync('/proc/thread-self').split('/').pop());

describe.skipIf(process.platform !== 'linux')('runAsBackgroundThread', () => {
  it('lowers the priority of the worker thread that calls it, and of no other thread', async () => {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/package.json').replace(/package\.json$/, 'dist/esm/api/index.mjs')).href;
    const module = new URL('../src/background-priority.ts', import.meta.url).href;
    const worker = new Worker(
      `const { parentPort } = require('node:worker_threads'); const { readlinkSync } = require('node:fs'); const { getPriority } = require('node:os');
       import(${JSON.stringify(tsx)}).then((api) => api.register()).then(() => import(${JSON.stringify(module)})).then((m) => {
         const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
         const before = getPriority(tid);
         m.runAsBackgroundThread();
         parentPort.postMessage({ before, after: getPriority(tid) });
       });`,
      { eval: true },
    );
    const seen = await new Promise<{ before: number; after: number }>((resolve, reject) => (worker.once('message', resolve), worker.once('error', reject)));
    await worker.terminate();
    expect(seen).toEqual({ before: 0, after: BACKGROUND_NICE });
    // On the serving (main) thread it does nothing.
    runAsBackgroundThread();
    expect(getPriority(threadId())).toBe(0);
  });
});
