import { PLAN_NAMES, QUOTA_KEYS, resolveLimits, type Engine, type PanyaError, type RequestContext, type TenantRecord, type UpdateTenantInput, type WorkspaceView } from '@panya/core';
import type { Io } from '../runtime.js';
import { CommandError, fail } from './tenant.js';

/** Prefixes a domain error with the tenant (and workspace) it concerns, then fails. */
function failFor(where: string, error: PanyaError): never {
  return fail(error, where);
}

/** The operator acts as the tenant itself: every scope, tenant-wide. */
async function operatorContext(engine: Engine, tenant: string): Promise<RequestContext> {
  const ctx = await engine.access.system(tenant);
  if (ctx.isErr()) throw new CommandError(`Tenant "${tenant}" not found.`);
  return ctx.value;
}

async function workspaceBySlug(engine: Engine, ctx: RequestContext, slug: string): Promise<WorkspaceView> {
  const all = await engine.workspaces.list(ctx);
  if (all.isErr()) failFor(`Tenant "${ctx.tenant.slug}"`, all.error);
  const ws = all.value.find((w) => w.slug === slug);
  if (!ws) throw new CommandError(`Workspace "${slug}" not found in tenant "${ctx.tenant.slug}".`);
  return ws;
}

function describeWorkspace(ws: WorkspaceView): string {
  const state = ws.deletedAt ? `deleted, ${ws.daysLeft} day${ws.daysLeft === 1 ? '' : 's'} left to restore (until ${ws.recoverUntil})` : 'active';
  return `${ws.slug}\t${ws.id}\t${ws.name}${ws.brandAccent ? ` ${ws.brandAccent}` : ''}${ws.isDefault ? ' (default)' : ''}\t${state}`;
}

export async function workspaceCreateCommand(engine: Engine, io: Io, opts: { tenant: string; slug: string; name?: string; brandAccent?: string; json?: boolean }) {
  const ctx = await operatorContext(engine, opts.tenant);
  const ws = await engine.workspaces.create(ctx, { slug: opts.slug, name: opts.name ?? opts.slug, ...(opts.brandAccent ? { brandAccent: opts.brandAccent } : {}) });
  if (ws.isErr()) failFor(`Tenant "${opts.tenant}", workspace "${opts.slug}"`, ws.error);
  io.out(opts.json ? JSON.stringify(ws.value, null, 2) : `Created workspace ${describeWorkspace(ws.value)}\nAddress: /c/${opts.tenant}/_w/${ws.value.slug}/api`);
}

export async function workspaceUpdateCommand(engine: Engine, io: Io, opts: { tenant: string; slug: string; name?: string; brandAccent?: string; json?: boolean }) {
  if (opts.name === undefined && opts.brandAccent === undefined) throw new CommandError('Nothing to change: give --name or --brand-accent (none: remove the accent).');
  const ctx = await operatorContext(engine, opts.tenant);
  const ws = await workspaceBySlug(engine, ctx, opts.slug);
  const accent = opts.brandAccent === undefined ? {} : { brandAccent: opts.brandAccent === 'none' ? null : opts.brandAccent };
  const updated = await engine.workspaces.update(ctx, ws.id, { ...(opts.name !== undefined ? { name: opts.name } : {}), ...accent });
  if (updated.isErr()) failFor(`Tenant "${opts.tenant}", workspace "${opts.slug}"`, updated.error);
  io.out(opts.json ? JSON.stringify(updated.value, null, 2) : `Updated workspace ${describeWorkspace(updated.value)}`);
}

export async function workspaceListCommand(engine: Engine, io: Io, opts: { tenant: string; json?: boolean }) {
  const ctx = await operatorContext(engine, opts.tenant);
  const list = await engine.workspaces.list(ctx);
  if (list.isErr()) failFor(`Tenant "${opts.tenant}"`, list.error);
  io.out(opts.json ? JSON.stringify(list.value, null, 2) : list.value.map(describeWorkspace).join('\n'));
}

export async function workspaceDeleteCommand(engine: Engine, io: Io, opts: { tenant: string; slug: string; json?: boolean }) {
  const ctx = await operatorContext(engine, opts.tenant);
  const ws = await workspaceBySlug(engine, ctx, opts.slug);
  const deleted = await engine.workspaces.delete(ctx, ws.id);
  if (deleted.isErr()) failFor(`Tenant "${opts.tenant}", workspace "${opts.slug}"`, deleted.error);
  io.out(opts.json ? JSON.stringify(deleted.value, null, 2) : `Deleted workspace ${describeWorkspace(deleted.value)}`);
}

export async function workspaceRestoreCommand(engine: Engine, io: Io, opts: { tenant: string; slug: string; json?: boolean }) {
  const ctx = await operatorContext(engine, opts.tenant);
  const ws = await workspaceBySlug(engine, ctx, opts.slug);
  const restored = await engine.workspaces.restore(ctx, ws.id);
  if (restored.isErr()) failFor(`Tenant "${opts.tenant}", workspace "${opts.slug}"`, restored.error);
  io.out(opts.json ? JSON.stringify(restored.value, null, 2) : `Restored workspace ${describeWorkspace(restored.value)}`);
}

/** `key=value` → a quota change: a number, `unlimited` (no limit) or `default` (the plan's value). */
export function parseQuota(pair: string): [string, number | null | 'default'] {
  const match = /^([A-Za-z]+)=(.+)$/.exec(pair.trim());
  if (!match) throw new CommandError(`--quota "${pair}" must be key=value (keys: ${QUOTA_KEYS.join(', ')}).`);
  const [, key, raw] = match as unknown as [string, string, string];
  if (raw === 'unlimited') return [key, null];
  if (raw === 'default') return [key, 'default'];
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new CommandError(`--quota ${key}: "${raw}" is not a whole number, "unlimited" or "default".`);
  return [key, n];
}

function onOff(value: string): boolean {
  if (value === 'on' || value === 'off') return value === 'on';
  throw new CommandError(`--cross-workspace-visitor-linking must be on or off, not "${value}".`);
}

function describeTenant(t: TenantRecord): string {
  const quotas = Object.entries(t.quotas).map(([k, v]) => `${k}=${v === null ? 'unlimited' : v}`);
  // Both numbers in force: the included pool bills, the cap only refuses chats.
  const limits = resolveLimits(t, new Date());
  const count = (n: number | null) => (n === null ? 'unlimited' : n.toLocaleString('en-US'));
  const pool = `included ${count(limits.includedResolutions)} resolutions, hard cap ${count(limits.chatHardCap)}`;
  return `${t.slug}\t${t.id}\t${PLAN_NAMES[t.plan]}\t${pool}${quotas.length ? `\t${quotas.join(' ')}` : ''}`;
}

export async function tenantUpdateCommand(
  engine: Engine,
  io: Io,
  opts: { slug: string; plan?: string; quota?: string[]; grandfatherUntil?: string; legacyPlan?: string; endGrandfathering?: boolean; crossWorkspaceVisitorLinking?: string; json?: boolean },
) {
  if ((opts.grandfatherUntil === undefined) !== (opts.legacyPlan === undefined)) throw new CommandError('--grandfather-until and --legacy-plan go together.');
  const input: UpdateTenantInput = {
    ...(opts.plan ? { plan: opts.plan as UpdateTenantInput['plan'] } : {}),
    ...(opts.quota?.length ? { quotas: Object.fromEntries(opts.quota.map(parseQuota)) } : {}),
    ...(opts.grandfatherUntil ? { grandfather: { until: opts.grandfatherUntil, legacyPlan: opts.legacyPlan as NonNullable<UpdateTenantInput['grandfather']>['legacyPlan'] } } : {}),
    ...(opts.endGrandfathering ? { grandfather: null } : {}),
    ...(opts.crossWorkspaceVisitorLinking !== undefined ? { crossWorkspaceVisitorLinking: onOff(opts.crossWorkspaceVisitorLinking) } : {}),
  };
  if (Object.keys(input).length === 0) throw new CommandError('Nothing to change: give --plan, --quota, --grandfather-until with --legacy-plan, or --end-grandfathering.');
  const updated = await engine.tenancy.update(opts.slug, input);
  if (updated.isErr()) failFor(`Tenant "${opts.slug}"`, updated.error);
  io.out(opts.json ? JSON.stringify(updated.value, null, 2) : `Updated ${describeTenant(updated.value)}`);
  // MCP tool calls have their own hourly limit: lifting the query limit leaves it where it was, so say so.
  const keys = new Set((opts.quota ?? []).map((pair) => parseQuota(pair)[0]));
  if ((keys.has('perKeyPerHour') || keys.has('queriesPerKeyPerHour')) && !keys.has('mcpToolsPerHour') && !keys.has('mcpToolCallsPerHour')) {
    const mcp = resolveLimits(updated.value, new Date()).mcpToolsPerHour;
    io.err(`Note: MCP tool calls keep their own limit, mcpToolsPerHour = ${mcp ?? 'unlimited'}; change it with --quota mcpToolsPerHour=<number|unlimited>.`);
  }
}

export async function tenantListCommand(engine: Engine, io: Io, opts: { json?: boolean }) {
  const tenants = await engine.tenancy.list();
  io.out(opts.json ? JSON.stringify(tenants, null, 2) : tenants.map(describeTenant).join('\n'));
}

export async function keyListCommand(engine: Engine, io: Io, opts: { tenant: string; json?: boolean }) {
  const tenant = await engine.tenancy.getTenantBySlug(opts.tenant);
  if (tenant.isErr()) throw new CommandError(`Tenant "${opts.tenant}" not found.`);
  const keys = await engine.apiKeys.list(tenant.value.id);
  if (opts.json) return io.out(JSON.stringify(keys, null, 2));
  io.out(keys.map((k) => `${k.id}\t${k.prefix}…\t${k.scopes.join(',')}\t${k.workspaceId ?? 'all workspaces'}\t${k.revokedAt ? `revoked ${k.revokedAt}` : 'active'}\t${k.name}`).join('\n'));
}

export async function keyRevokeCommand(engine: Engine, io: Io, opts: { tenant: string; id: string; json?: boolean }) {
  const tenant = await engine.tenancy.getTenantBySlug(opts.tenant);
  if (tenant.isErr()) throw new CommandError(`Tenant "${opts.tenant}" not found.`);
  const revoked = await engine.apiKeys.revoke(tenant.value.id, opts.id);
  if (revoked.isErr()) throw new CommandError(`API key "${opts.id}" not found (or already revoked) in tenant "${opts.tenant}".`);
  io.out(opts.json ? JSON.stringify({ id: opts.id, revoked: true }) : `Revoked API key ${opts.id} of tenant ${opts.tenant}.`);
}
