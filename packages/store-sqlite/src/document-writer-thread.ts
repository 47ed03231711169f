/**
 * The document writer thread: its own connection, inserting batches of documents (uploads of up to
 * 32 MB) in one transaction each, so the serving thread never copies their content into SQLite.
 * Failures come back as data (errors do not survive the thread boundary).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runAsBackgroundThread, type DocumentRecord } from '@panya/core';
import { tables } from '@panya/core/rows';
import { openDatabase, Statements } from './database.js';
import { Table } from './rows.js';

export interface WriterData {
  path: string;
  busyTimeoutMs: number;
}

export type WriterRequest = { id: number; docs: DocumentRecord[] };
export type WriterReply = { id: number; ok: true } | { id: number; ok: false; code: string | undefined; message: string };

const { path, busyTimeoutMs } = workerData as WriterData;
// Copying an upload's 32 MB into SQLite is background work; no request waits for this connection's
// write lock (counted requests write to the counters' file), so its low priority holds no one up.
runAsBackgroundThread();
// Off the serving thread, waiting for the write lock may block: SQLite's own busy handler does it.
const db = openDatabase({ path, busyTimeoutMs });
const rows = new Table<DocumentRecord>(new Statements(db), tables.DOCUMENTS);
const insertAll = db.transaction((docs: DocumentRecord[]) => {
  for (const doc of docs) rows.insert(doc);
});

parentPort!.on('message', ({ id, docs }: WriterRequest) => {
  let reply: WriterReply;
  try {
    insertAll.immediate(docs);
    reply = { id, ok: true };
  } catch (error) {
    reply = { id, ok: false, code: (error as { code?: string }).code, message: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply);
});
