import type { Engine } from '@panya/core';
import type { Io } from '../runtime.js';
import { fail } from './tenant.js';

export async function reindexCommand(engine: Engine, io: Io, opts: { all?: boolean; tenant?: string }) {
  let tenantId: string | undefined;
  if (opts.tenant) {
    const tenant = await engine.tenancy.getTenantBySlug(opts.tenant);
    if (tenant.isErr()) fail(tenant.error);
    tenantId = tenant.value.id;
  }
  const queued = await engine.ingest.reindexAll(tenantId);
  const done = await engine.ingest.drain();
  io.out(`Re-indexed ${done} of ${queued} documents with embedder ${engine.embedder.id}.`);
}
