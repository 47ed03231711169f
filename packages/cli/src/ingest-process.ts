/**
 * One ingest process of `panya serve`: its own store connection and embedder, running the ingest
 * queue (chunking, tokenizing, embedding, index writes) so the serving process never does. A
 * process rather than a thread: on Linux it is then a scheduling group of its own, weighed down
 * against the server's (`runAsBackgroundProcess`), where a thread's lower priority only counted
 * against the server's own threads (`docs/decisions.md`).
 */
import { runAsBackgroundProcess } from '@panya/core';
import { loadEnv, type EnvConfig } from './config.js';
import { createLogger, openEngine } from './runtime.js';

export interface IngestProcessData {
  db: string;
  embedder: EnvConfig['PANYA_EMBEDDER'];
  logLevel: string;
  /** The serving process's lease holder; each ingest process adds its own number. */
  holder?: { node: string; incarnation: string };
  number?: number;
  /**
   * Rounds at a time on a SQLite file, whichever process runs them: a cluster's workers each
   * start their ingest processes, yet together run as many rounds as one process would.
   */
  roundsPerFile?: number;
}

/** The argument that carries IngestProcessData to the process. */
export const INGEST_ARG = '--panya-ingest=';

/** Messages between the serving process and an ingest process. */
export type ToIngest = 'wake' | 'stop';
export type FromIngest = 'progress';

const arg = process.argv.find((a) => a.startsWith(INGEST_ARG));
if (arg && process.send) await run(JSON.parse(arg.slice(INGEST_ARG.length)) as IngestProcessData);

async function run(data: IngestProcessData): Promise<void> {
  runAsBackgroundProcess();
  const send = (message: FromIngest) => process.connected && process.send!(message);
  const env = loadEnv(process.env);
  const logger = createLogger(data.logLevel);
  process.on('uncaughtException', (error) => {
    logger.error('ingest process failed', { error: error.stack ?? String(error) });
    process.exit(1);
  });
  // Detached from the server's session: it ends with the server, whatever ended that. A document
  // it was indexing returns to the queue when its lease expires.
  process.on('disconnect', () => process.exit(0));
  const engine = await openEngine({
    db: data.db,
    logger,
    notice: () => {},
    env,
    embedder: data.embedder,
    // The serving connections of this file checkpoint neither WAL: this background process does.
    checkpoints: true,
    onRound: () => send('progress'),
    ...(data.roundsPerFile ? { ingestRoundsPerFile: data.roundsPerFile } : {}),
    ...(data.holder ? { ingestHolder: { ...data.holder, worker: `p${data.number ?? 0}` } } : {}),
  });
  await engine.start();
  process.on('message', async (message: ToIngest) => {
    if (message === 'wake') engine.wakeIngest();
    if (message === 'stop') {
      await engine.close();
      process.disconnect();
    }
  });
}
