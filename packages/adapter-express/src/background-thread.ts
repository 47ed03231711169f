import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { isMainThread } from 'node:worker_threads';

/** Nice value of conversion and ingest threads: the serving thread outweighs each about ninefold. */
export const BACKGROUND_NICE = 10;

/**
 * Lowers the CPU priority of the calling worker thread (and only it), so that on a busy machine
 * the serving thread gets a core before conversion and ingest do: they use what serving leaves
 * and keep their full speed on an idle machine. Linux names a thread by its id under
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
