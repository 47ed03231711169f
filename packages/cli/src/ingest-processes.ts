import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BACKGROUND_PROCESS_SPAWN, type IngestRunner, type Logger } from '@panya/core';
import { INGEST_ARG, type FromIngest, type IngestProcessData, type ToIngest } from './ingest-process.js';

/** The process entry: built JavaScript beside this module, or (in the repository) its TypeScript source run through tsx. */
function processEntry(): { path: string; execArgv: string[] } {
  const fromSource = import.meta.url.endsWith('.ts');
  const path = fileURLToPath(new URL(fromSource ? './ingest-process.ts' : './ingest-process.js', import.meta.url));
  if (!fromSource) return { path, execArgv: [] };
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { path, execArgv: ['--conditions=@panya/source', '--import', tsx] };
}

/** How long a stopping ingest process may finish its round before it is killed. */
const STOP_MS = 5_000;

/**
 * The ingest queue in `count` background processes (`ingest-process.ts`), each with its own store
 * connection: claims are leased in the database, so they (and other nodes) share the queue. One
 * that dies is replaced; its documents return to the queue when their lease expires.
 */
export function startIngestProcesses(data: IngestProcessData, count: number, logger: Logger): IngestRunner {
  const listeners: (() => void)[] = [];
  const children = new Set<ChildProcess>();
  let stopping = false;
  const { path, execArgv } = processEntry();
  const send = (child: ChildProcess, message: ToIngest) => child.connected && child.send(message);

  let spawned = 0;
  function spawn(): void {
    const child = fork(path, [`${INGEST_ARG}${JSON.stringify({ ...data, number: spawned++ } satisfies IngestProcessData)}`], {
      execArgv,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      ...BACKGROUND_PROCESS_SPAWN,
    });
    children.add(child);
    child.on('message', (m: FromIngest) => {
      if (m === 'progress') for (const l of listeners) l();
    });
    child.on('error', (error) => logger.error('ingest process failed', { error: error.stack ?? error.message }));
    child.on('exit', (code, signal) => {
      children.delete(child);
      if (!stopping) {
        logger.warn('ingest process exited; starting another', { code, signal });
        setTimeout(spawn, 1_000).unref();
      }
    });
  }
  // A server ending without stop() (process.exit): its children see their channel close and end.
  const killAll = () => {
    for (const child of children) child.kill('SIGKILL');
  };

  return {
    start() {
      process.once('exit', killAll);
      for (let i = 0; i < count; i++) spawn();
    },
    async stop() {
      stopping = true;
      process.off('exit', killAll);
      await Promise.all(
        [...children].map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve();
              const timer = setTimeout(() => child.kill('SIGKILL'), STOP_MS);
              child.once('exit', () => (clearTimeout(timer), resolve()));
              if (!send(child, 'stop')) child.kill('SIGKILL');
            }),
        ),
      );
    },
    wake() {
      for (const child of children) send(child, 'wake');
    },
    onProgress(listener) {
      listeners.push(listener);
    },
  };
}
