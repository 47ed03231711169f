import { readlinkSync, writeFileSync } from 'node:fs';
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
 *
 * A thread's priority only weighs it against the other threads of its scheduling group. Where
 * Linux groups by session (autogroup, the default of desktop and many server kernels), a
 * process's threads share one group's share of the machine with every other session's, so CPU
 * its background threads take is taken from its serving thread first: heavy background work
 * belongs in a background process (`BACKGROUND_PROCESS_SPAWN`, `runAsBackgroundProcess`).
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

/**
 * Options for `fork`/`spawn` of a background process: a session of its own (outside Windows,
 * where detaching opens a console), so that on Linux it is a scheduling group of its own that
 * `runAsBackgroundProcess` can weigh down. A detached child outlives a parent that is killed, so
 * it must end when its IPC channel closes (`process.on('disconnect', …)`).
 */
export const BACKGROUND_PROCESS_SPAWN = { detached: process.platform !== 'win32' } as const;

/**
 * Lowers the CPU priority of the calling process, started with `BACKGROUND_PROCESS_SPAWN`: its
 * scheduling group's weight (Linux autogroup: a session's nice value, about a ninth of the
 * server's at `BACKGROUND_NICE`) and its main thread's nice value, which threads it starts
 * afterwards inherit. An unprivileged process may lower its own priority; where it may not, or
 * without autogroups, the process keeps what it can.
 */
export function runAsBackgroundProcess(): void {
  try {
    writeFileSync('/proc/self/autogroup', String(BACKGROUND_NICE));
  } catch {
    // Not Linux, autogroups compiled out, or not permitted.
  }
  try {
    setPriority(BACKGROUND_NICE);
  } catch {
    // Not permitted: the process keeps its priority.
  }
}
