import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { isMainThread } from 'node:worker_threads';

/** Nice value of background threads (conversion, ingest, document and vector-index writers): the serving thread outweighs each about ninefold. */
export const BACKGROUND_NICE = 10;

/**
 * Lowers the CPU priority of the calling worker thread (and only it), so that on a busy machine
 * the serving thread gets a core before background work does: it uses what serving leaves and
 * keeps its full speed on an idle machine. Native threads the caller starts afterwards (a vector
 * index's build threads) inherit the priority. Linux names a thread by its id under
 * `/proc/thread-self`; elsewhere, and on a main thread, this does nothing.
 */
export function runAsBackgroundThread(): void {
  if (isMainThread) return;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, BACKGROUND_NICE);
  } catch {
    // No /proc (macOS, Windows) or not permitted: the thread keeps the process's priority.
  }
}
