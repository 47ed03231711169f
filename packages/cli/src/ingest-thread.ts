/**
 * One ingest thread of `panya serve`: its own store connection and embedder, running the ingest
 * queue (chunking, tokenizing, embedding, index writes) so the request thread never does.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runAsBackgroundThread } from '@panya/core';
import { loadEnv, type EnvConfig } from './config.js';
import { createLogger, openEngine } from './runtime.js';

export interface IngestThreadData {
  db: string;
  embedder: EnvConfig['PANYA_EMBEDDER'];
  logLevel: string;
  /** This process's lease holder; each thread adds its own number. */
  holder?: { node: string; incarnation: string };
  thread?: number;
  /**
   * Rounds at a time on a SQLite file, whichever process or thread runs them: a cluster's
   * workers each start their threads, yet together run as many rounds as one process would.
   */
  roundsPerFile?: number;
}

runAsBackgroundThread();
const data = workerData as IngestThreadData;
const env = loadEnv(process.env);
const logger = createLogger(data.logLevel);
// Logged here, whole: what crosses to the parent thread keeps only an Error's built-in fields.
process.on('uncaughtException', (error) => {
  logger.error('ingest thread failed', { error: error.stack ?? String(error) });
  process.exit(1);
});
const engine = await openEngine({
  db: data.db,
  logger,
  notice: () => {},
  env,
  embedder: data.embedder,
  // The serving connections of this file checkpoint neither WAL: this background thread does.
  checkpoints: true,
  onRound: () => parentPort!.postMessage('progress'),
  ...(data.roundsPerFile ? { ingestRoundsPerFile: data.roundsPerFile } : {}),
  ...(data.holder ? { ingestHolder: { ...data.holder, worker: `t${data.thread ?? 0}` } } : {}),
});
await engine.start();
parentPort!.on('message', async (message: string) => {
  if (message === 'wake') engine.wakeIngest();
  if (message === 'stop') {
    await engine.close();
    parentPort!.postMessage('stopped');
    parentPort!.close();
  }
});
parentPort!.postMessage('ready');
