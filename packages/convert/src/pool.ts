import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { MAX_CONVERSION_HEAP_MB } from '@panya/core';
import { Piscina } from 'piscina';
import { isDocumentFormat, type UploadedFile } from './convert.js';
import type { ConversionOutcome } from './convert-worker.js';

/** Where the worker entry is: built JavaScript beside this module, or (in the repository) its TypeScript source run through tsx. */
function workerEntry(): { filename: string; execArgv: string[] } {
  const fromSource = import.meta.url.endsWith('.ts');
  const filename = new URL(fromSource ? './convert-worker.ts' : './convert-worker.js', import.meta.url).href;
  if (!fromSource) return { filename, execArgv: [] };
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { filename, execArgv: ['--conditions=@panya/source', '--import', tsx] };
}

const pools: { documents: Piscina | null; text: Piscina | null } = { documents: null, text: null };

/**
 * File conversion (PDF, HTML, text decoding) off the request thread, in two small pools of worker
 * threads with a bounded heap each: documents (PDF, HTML) in one, markdown and plain text in the
 * other, so a long PDF never holds up other uploads' text. Aborting (time budget, client gone)
 * terminates the thread doing the work, so nothing keeps running for a request nobody waits for.
 */
export function conversionPool(kind: keyof typeof pools = 'documents'): Piscina {
  return (pools[kind] ??= new Piscina({
    ...workerEntry(),
    minThreads: 0,
    maxThreads: kind === 'text' ? 1 : Math.max(1, Math.min(2, availableParallelism() - 1)),
    idleTimeout: 30_000,
    resourceLimits: { maxOldGenerationSizeMb: MAX_CONVERSION_HEAP_MB },
  }));
}

/** Converts in a worker. The file's bytes move to the thread (no copy) when they fill their own buffer; the caller must not read them after. */
export async function convertInWorker(file: UploadedFile, signal: AbortSignal): Promise<ConversionOutcome> {
  const { buffer, byteOffset, byteLength } = file.bytes;
  const owned = buffer instanceof ArrayBuffer && byteOffset === 0 && byteLength === buffer.byteLength;
  return conversionPool(isDocumentFormat(file) ? 'documents' : 'text').run(file, { signal, ...(owned ? { transferList: [buffer] } : {}) }) as Promise<ConversionOutcome>;
}

/** Stops the conversion threads (tests, shutdown). */
export async function closeConversionPool(): Promise<void> {
  const open = [pools.documents, pools.text];
  pools.documents = pools.text = null;
  await Promise.all(open.map((p) => p?.close({ force: true })));
}
