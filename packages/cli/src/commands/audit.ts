import type { Engine } from '@panya/core';
import type { Io } from '../runtime.js';
import { CommandError } from './tenant.js';

async function tenantContext(engine: Engine, tenant: string) {
  const ctx = await engine.access.system(tenant);
  if (ctx.isErr()) throw new CommandError(`Tenant "${tenant}" not found.`);
  return ctx.value;
}

/** `panya audit verify`: walks the tenant's chain; a broken one fails naming its first bad entry. */
export async function auditVerifyCommand(engine: Engine, io: Io, opts: { tenant: string; json?: boolean }) {
  const ctx = await tenantContext(engine, opts.tenant);
  const result = await engine.audit.verify(ctx.tenant.id);
  if (opts.json) io.out(JSON.stringify(result, null, 2));
  if (!result.ok) {
    const b = result.broken!;
    const why = { hash_mismatch: 'its content does not match its hash', previous_hash_mismatch: 'it does not carry the hash of the entry before it', sequence_gap: 'the entry before it is missing' }[b.reason];
    throw new CommandError(`Audit chain of tenant "${opts.tenant}" is broken at entry #${b.seq} (${b.id}): ${why}. ${result.checked - 1} entries before it verified.`);
  }
  if (!opts.json) io.out(result.checked === 0 ? `Audit chain of tenant "${opts.tenant}": no entries.` : `Audit chain of tenant "${opts.tenant}" verified: ${result.checked} entries, #${result.firstSeq} to #${result.lastSeq}.`);
}

/** `panya audit export`: the tenant's log oldest first, one JSON object per line. */
export async function auditExportCommand(engine: Engine, io: Io, opts: { tenant: string }) {
  const ctx = await tenantContext(engine, opts.tenant);
  const lines = await engine.audit.export(ctx);
  if (lines.isErr()) throw new CommandError(lines.error.message);
  for await (const line of lines.value) io.out(line.trimEnd());
}
