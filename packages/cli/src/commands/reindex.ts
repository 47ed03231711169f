import type { Engine } from '@panya/core';
import { progress } from '../progress.js';
import type { Io } from '../runtime.js';
import { fail } from './tenant.js';

export interface ProgressIo {
  /** A person watches (a TTY): draw a bar; otherwise lines now and then. */
  tty: boolean;
  /** Least time between progress lines without a TTY. */
  everyMs?: number;
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/**
 * Indexes what is queued, showing progress, and waits until no document of `workspaces` is
 * pending or indexing (another process, e.g. a running server, may index some of them). Returns the
 * documents' statuses, counted in the store: what all workers did, not this process's share.
 */
export async function drainWithProgress(engine: Engine, io: Io, label: string, where: { tenantId: string; workspaceId?: string } | undefined, options: ProgressIo) {
  const count = () => engine.ingest.statusCounts(where);
  const start = await count();
  const total = start.pending + start.indexing;
  const bar = progress(io, label, total, { ...options, unit: 'documents' });
  for (let queued = total; queued > 0; ) {
    const batch = await engine.ingest.processBatch();
    const now = await count();
    queued = now.pending + now.indexing;
    bar.update(total - queued);
    // Another process holds the rest: wait for it rather than spin.
    if (batch.length === 0 && queued > 0) await new Promise((r) => setTimeout(r, 250));
  }
  bar.stop();
  return count();
}

export async function reindexCommand(engine: Engine, io: Io, opts: { all?: boolean; tenant?: string } & ProgressIo) {
  const progressIo = { tty: opts.tty, ...(opts.everyMs !== undefined ? { everyMs: opts.everyMs } : {}) };
  if (opts.tenant) {
    const tenant = await engine.tenancy.getTenantBySlug(opts.tenant);
    if (tenant.isErr()) fail(tenant.error);
    const queued = await engine.ingest.reindexTenant(tenant.value.id);
    const done = await drainWithProgress(engine, io, 'Re-indexing', { tenantId: tenant.value.id }, progressIo);
    io.out(`Re-indexed ${plural(queued, 'document')} of tenant ${opts.tenant} with embedder ${engine.embedder.id}: ${done.indexed} indexed${done.failed ? `, ${done.failed} failed (see GET /api/docs)` : ''}.`);
    return;
  }
  let bar: ReturnType<typeof progress> | null = null;
  const rebuilt = await engine.ingest.rebuildIndex((done, total) => {
    bar ??= progress(io, 'Re-embedding', total, { ...progressIo, unit: 'chunks' });
    bar.update(done, total);
  });
  (bar as ReturnType<typeof progress> | null)?.stop();
  const how = engine.embedder.queryTime ? 'its vectors are computed by the searches that weigh them, none stored' : 'search answered from the previous vectors until the new ones were complete';
  io.out(`Re-indexed ${plural(rebuilt.documents, 'document')} (${plural(rebuilt.chunks, 'chunk')}) of every tenant with embedder ${engine.embedder.id}; ${how}.`);
  if (rebuilt.requeued > 0) {
    const done = await drainWithProgress(engine, io, 'Re-chunking', undefined, progressIo);
    io.out(`Re-chunked ${plural(rebuilt.requeued, 'document')} (new tokenizer or context prefixes): ${done.indexed} indexed${done.failed ? `, ${done.failed} failed` : ''}.`);
  }
}
