import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { MAX_CONVERSION_HEAP_MB } from '@panya/core';
import { Piscina } from 'piscina';
import type { UploadedFile } from './convert.js';
import type { ConversionOutcome } from './convert-worker.js';

/** Where the worker entry is: built JavaScript beside this module, or (in the repository) its TypeScript source run through tsx. */
function workerEntry(): { filename: string; execArgv: string[] } {
  const fromSource = import.meta.url.endsWith('.ts');
  const filename = new URL(fromSource ? './convert-worker.ts' : './upload/convert-worker.js', import.meta.url).href;
  if (!fromSource) return { filename, execArgv: [] };
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { filename, execArgv: ['--conditions=@panya/source', '--import', tsx] };
}

let pool: Piscina | null = null;

/**
 * File conversion (PDF, HTML, text decoding) off the request thread: a small pool of worker
 * threads, each with a bounded heap. Aborting (time budget, client gone) terminates the thread
 * doing the work, so nothing keeps running for a request nobody waits for.
 */
export function conversionPool(): Piscina {
  pool ??= new Piscina({
    ...workerEntry(),
    minThreads: 0,
    maxThreads: Math.max(1, Math.min(2, availableParallelism() - 1)),
    idleTimeout: 30_000,
    resourceLimits: { maxOldGenerationSizeMb: MAX_CONVERSION_HEAP_MB },
  });
  return pool;
}

export async function convertInWorker(file: UploadedFile, signal: AbortSignal): Promise<ConversionOutcome> {
  return conversionPool().run(file, { signal }) as Promise<ConversionOutcome>;
}

/** Stops the conversion threads (tests, shutdown). */
export async function closeConversionPool(): Promise<void> {
  const p = pool;
  pool = null;
  await p?.close({ force: true });
}
