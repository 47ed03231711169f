import type { Engine } from '@panya/core';
import type { Io } from '../runtime.js';
import { fail } from './tenant.js';

/** `panya tenant origins`: shows, or with `--set` replaces, the tenant's allowed browser origins. */
export async function tenantOriginsCommand(engine: Engine, io: Io, opts: { slug: string; set?: string; json?: boolean }) {
  const ctx = await engine.access.system(opts.slug);
  if (ctx.isErr()) fail(ctx.error);
  const result =
    opts.set === undefined
      ? await engine.settings.get(ctx.value)
      : await engine.settings.update(ctx.value, { allowedOrigins: opts.set.split(',').map((o) => o.trim()).filter(Boolean) });
  if (result.isErr()) fail(result.error);
  const origins = result.value.allowedOrigins;
  io.out(opts.json ? JSON.stringify({ allowedOrigins: origins }) : origins.length ? origins.join('\n') : `No allowed origins for ${opts.slug}: browsers cannot call its API.`);
}

/** `panya tenant connector-secret`: a new webhook signing secret for the tenant, printed once. */
export async function connectorSecretCommand(engine: Engine, io: Io, opts: { slug: string; json?: boolean }) {
  const ctx = await engine.access.system(opts.slug);
  if (ctx.isErr()) fail(ctx.error);
  const rotated = await engine.settings.rotateConnectorSecret(ctx.value);
  if (rotated.isErr()) fail(rotated.error);
  io.out(opts.json ? JSON.stringify(rotated.value) : `Connector webhook secret for ${opts.slug} (shown once; the previous one no longer works):\n${rotated.value.secret}`);
}
