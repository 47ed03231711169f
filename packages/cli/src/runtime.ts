import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { createEngine, type Engine, type Logger } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import pino from 'pino';

/** Where CLI commands write: injectable so commands are testable in-process. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
}

export const processIo: Io = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
};

/** Structured JSON logs (pino) on stderr, so stdout stays for command output. */
export function createLogger(level: string): Logger {
  const log = pino({ level, base: undefined }, pino.destination(2));
  return {
    debug: (msg, data) => log.debug(data ?? {}, msg),
    info: (msg, data) => log.info(data ?? {}, msg),
    warn: (msg, data) => log.warn(data ?? {}, msg),
    error: (msg, data) => log.error(data ?? {}, msg),
  };
}

export interface OpenEngineOptions {
  db: string;
  logger?: Logger;
}

/** Opens the store behind `--db` and wires the engine. */
export async function openEngine({ db, logger }: OpenEngineOptions): Promise<Engine> {
  if (db !== ':memory:') mkdirSync(dirname(db), { recursive: true });
  const store = openSqliteStore({ path: db });
  return createEngine({ store, ...(logger ? { logger } : {}) });
}
