import { API_KEY_SCOPES, hasMarker, type ApiKeyScope, type Engine, type PanyaError, type PlanName } from '@panya/core';
import type { Io } from '../runtime.js';

const COMMAND = Symbol.for('panya.error.command');

export class CommandError extends Error {
  override name = 'CommandError';
  readonly [COMMAND] = true;
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasMarker(value, COMMAND);
  }
}

export function isCommandError(error: unknown): error is CommandError {
  return hasMarker(error, COMMAND);
}

/** Fields whose command-line option is not simply their name in kebab case. */
const FIELD_OPTIONS: Record<string, string> = { tenantSlug: '--tenant', workspaceSlug: '--workspace', quotas: '--quota', allowedOrigins: '--set', surface: '--help-center' };

/**
 * The option a field of the service's input comes from: `brandAccent` → `--brand-accent`,
 * `scopes[0]` → `--scopes`, `quotas.queriesPerMinute` → `--quota queriesPerMinute`.
 */
export function optionOf(path: string): string {
  const [, field, key] = /^([A-Za-z]+)(?:\.([A-Za-z]+))?/.exec(path) ?? [];
  if (!field) return '(input)';
  const option = FIELD_OPTIONS[field] ?? `--${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
  return key ? `${option} ${key}` : option;
}

/**
 * Turns a domain error into a CLI failure. Invalid input speaks of the options the user typed
 * (`--password: at least 10 characters`), not of request bodies; `where` names the tenant or
 * workspace concerned.
 */
export function fail(error: PanyaError, where?: string): never {
  const prefix = where ? `${where}: ` : '';
  if ((error.code === 'invalid_request' || error.code === 'unprocessable') && error.issues?.length) {
    const options = error.issues.map((i) => `${prefix}${optionOf(i.path)}: ${i.message}`).join('\n');
    // "Invalid request body: x." only names the fields again; a sentence of its own is kept.
    const generic = /^Invalid (request body|query|body|input)\b/i.test(error.message);
    throw new CommandError(generic ? options : `${prefix}${error.message.replace(/,? ?\{"confirm": "[^"]*"\}/, '')}\n${options}`);
  }
  throw new CommandError(`${prefix}${error.message}`);
}

export async function createTenantCommand(engine: Engine, io: Io, opts: { slug: string; plan: string; name?: string; brandAccent?: string; json?: boolean }) {
  // Command-line text, validated by the service.
  const created = await engine.tenancy.createTenant({ slug: opts.slug, plan: opts.plan as PlanName, ...(opts.name ? { name: opts.name } : {}), ...(opts.brandAccent ? { brandAccent: opts.brandAccent } : {}) });
  if (created.isErr()) fail(created.error);
  const { tenant, defaultWorkspace } = created.value;
  const key = await engine.apiKeys.create(tenant.id, { name: 'owner', scopes: [...API_KEY_SCOPES] });
  if (key.isErr()) fail(key.error);
  if (opts.json) {
    io.out(JSON.stringify({ tenant, workspace: defaultWorkspace, apiKey: { key: key.value.key, ...key.value.record } }, null, 2));
    return;
  }
  io.out(`Tenant ${tenant.slug} (${tenant.id}) on plan ${tenant.plan}`);
  io.out(`Default workspace: ${defaultWorkspace.slug} (${defaultWorkspace.id}), brand "${defaultWorkspace.name}"${defaultWorkspace.brandAccent ? ` ${defaultWorkspace.brandAccent}` : ''}`);
  io.out(`API key (scopes ${key.value.record.scopes.join(',')}), shown once:\n  ${key.value.key}`);
}

export async function createKeyCommand(engine: Engine, io: Io, opts: { tenant: string; workspace?: string; scopes: string; name?: string; publishable?: boolean; helpCenter?: boolean; json?: boolean }) {
  const tenant = await engine.tenancy.getTenantBySlug(opts.tenant);
  if (tenant.isErr()) fail(tenant.error);
  // Command-line text: the service validates each scope and names any it does not know.
  const scopes = opts.scopes.split(',').map((s) => s.trim()).filter(Boolean) as ApiKeyScope[];
  const key = await engine.apiKeys.create(tenant.value.id, { scopes, ...(opts.name ? { name: opts.name } : {}), ...(opts.workspace ? { workspaceSlug: opts.workspace } : {}), ...(opts.publishable ? { kind: 'publishable' as const } : {}), ...(opts.helpCenter ? { surface: 'help_center' as const } : {}) });
  if (key.isErr()) fail(key.error);
  if (opts.json) {
    io.out(JSON.stringify({ key: key.value.key, ...key.value.record }, null, 2));
    return;
  }
  io.out(`${opts.publishable ? 'Publishable key' : 'API key'} ${key.value.record.id} (scopes ${key.value.record.scopes.join(',')}${opts.workspace ? `, workspace ${opts.workspace}` : ''}), shown once:\n  ${key.value.key}`);
}

export async function eraseTenantCommand(engine: Engine, io: Io, opts: { slug: string; confirm: string; json?: boolean }) {
  const erased = await engine.erasure.erase(opts.slug, { confirm: opts.confirm });
  if (erased.isErr()) fail(erased.error);
  const { slug, tenantId, hostnames, erasedAt, deleted } = erased.value;
  if (opts.json) {
    io.out(JSON.stringify(erased.value, null, 2));
    return;
  }
  const rows = Object.values(deleted).reduce((sum, n) => sum + n, 0);
  io.out(`Erased tenant ${slug} (${tenantId}) at ${erasedAt}: ${rows} rows removed.`);
  io.out(`Its help-center URLs${hostnames.length ? ` and ${hostnames.join(', ')}` : ''} now answer 410 Gone; the retention job (/api/cron/retention) purges their edge cache.`);
  if (hostnames.length) io.out('Edge registrations of those hostnames stay: remove them by hand after about 30 days (listed in /api/ops/hostnames).');
}
