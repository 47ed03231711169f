/**
 * Custom hostnames of a tenant's help center: register (Pending, with DNS instructions), list,
 * re-read the status from the edge provider, remove; the plan hook (downgrade → inactive,
 * re-upgrade → Active), the scheduled poll of pending records, the operator view and the
 * on-demand-TLS question of a self-hoster's proxy. The rules are in `hostnames/`; this wires them
 * to the store and the edge provider.
 */
import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import { errors, isStoreConflict, panyaError, type LocalizedText, type PanyaError } from '../errors.js';
import { HOSTNAME_STATUS_LABELS, type CustomHostnameRecord, type HostnameStatus } from './ports/record.js';
import { checkHostnameAllowance, dnsInstructions, failureMessage, claimsHost, generateOwnership, hostnameHealth, releasable, type DnsInstructions, type HostnameHealth } from '../hostnames/rules.js';
import { transition, type HostnameEvent } from '../hostnames/state.js';
import { reservedHostnames, type ReservedHostnames } from '../hostnames/reserved.js';
import { checkApex, parseHostname } from '../hostnames/validate.js';
import { EDGE_HOSTNAME_ACCOUNT_CAP, PLANS, resolveLimits } from '../plans.js';
import type { EdgeProvider } from './ports/edge.js';
import type { TenantRecord } from '../ports/store.js';
import { parseInput } from '../schemas/validate.js';
import { requireScope, type RequestContext, type ServiceDeps } from '../context.js';
import { appendAudit, auditActor } from '../audit/audit.js';

export const EDGE_NOT_CONFIGURED =
  'Custom hostnames need an edge provider. Set PANYA_EDGE_PROVIDER=cloudflare (with PANYA_EDGE_TARGET, PANYA_CLOUDFLARE_ZONE_ID, ' +
  'PANYA_CLOUDFLARE_HOSTNAME_TOKEN and PANYA_CLOUDFLARE_PURGE_TOKEN) or PANYA_EDGE_PROVIDER=dns (with PANYA_EDGE_TARGET, TLS from your own proxy), then restart.';

/** The default edge provider: nothing configured (the feature answers 503). */
export const noEdgeProvider: EdgeProvider = {
  id: 'none',
  register: async () => ({ outcome: 'unavailable', reason: 'no edge provider is configured' }),
  status: async () => ({ state: 'unknown', reason: 'no edge provider is configured' }),
  remove: async () => undefined,
  purge: async () => undefined,
};

export type HostnameView = {
  id: string;
  hostname: string;
  status: HostnameStatus;
  statusLabel: string;
  /** Null while registration at the edge has never succeeded. */
  edgeHostnameId: string | null;
  verificationError: CustomHostnameRecord['verificationError'];
  /** The inline message for `verificationError`, in English and Thai. */
  verificationMessage: LocalizedText | null;
  dns: DnsInstructions;
  stale: boolean;
  lastCheckedAt: string | null;
  createdAt: string;
  updatedAt: string;
};

export type OperatorHostnameView = HostnameView & {
  tenantId: string;
  verificationDetail: string | null;
  health: HostnameHealth;
};

export type HostnamePollSummary = {
  job: 'hostname-poll';
  checked: number;
  active: number;
  failed: number;
  unknown: number;
};

export const createHostnameSchema = z.object({ hostname: z.string().max(300).describe('e.g. help.example.com; Unicode names are converted to punycode.') }).strict();

/** Records in these states are re-read by the poll (oldest first, a bounded batch). */
const POLLED: readonly HostnameStatus[] = ['pending', 'verifying_dns'];
const POLL_BATCH = 100;

export interface HostnameServiceDeps extends ServiceDeps {
  edge: EdgeProvider;
  /** `PANYA_EDGE_TARGET`: the CNAME target shown to every tenant. */
  edgeTarget: string | null;
  /** A hostname was added or removed (the help center's host look-up cache forgets). */
  hostsChanged?: () => void;
  /** The service's own names, never registrable (default: the edge target only). */
  reserved?: ReservedHostnames;
}

export function createHostnameService(deps: HostnameServiceDeps) {
  const { store, clock, ids, edge, logger } = deps;
  const target = deps.edgeTarget ?? '(PANYA_EDGE_TARGET is not set)';
  const reserved = deps.reserved ?? reservedHostnames({ edgeTarget: deps.edgeTarget });

  const view = (r: CustomHostnameRecord, now = clock.now()): HostnameView => ({
    id: r.id,
    hostname: r.hostname,
    status: r.status,
    statusLabel: HOSTNAME_STATUS_LABELS[r.status],
    edgeHostnameId: r.edgeHostnameId,
    verificationError: r.verificationError,
    verificationMessage: r.verificationError ? failureMessage(r.verificationError) : null,
    dns: dnsInstructions(r, target),
    stale: hostnameHealth(r, now).stale,
    lastCheckedAt: r.lastCheckedAt,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  });

  function manage(ctx: RequestContext): Result<void, PanyaError> {
    const scoped = requireScope(ctx, 'admin');
    if (scoped.isErr()) return scoped;
    if (ctx.principal.workspaceId !== null) return err(errors.forbidden('Custom hostnames are managed tenant-wide: use a tenant-wide admin key or membership.', 'admin'));
    if (edge.id === 'none') return err(panyaError('unavailable', { message: EDGE_NOT_CONFIGURED }));
    return ok(undefined);
  }

  /** May this record hold an active slot now? (It keeps the one it has.) */
  async function mayBeActive(tenant: TenantRecord, record: CustomHostnameRecord): Promise<boolean> {
    const limits = resolveLimits(tenant, clock.now());
    if (!PLANS[tenant.plan].customHostnames || limits.maxActiveHostnames === 0) return false;
    if (record.status === 'active') return true;
    const [tenantActive, accountActive] = await Promise.all([store.hostnames.countActive(tenant.id), store.hostnames.countActive()]);
    return checkHostnameAllowance(limits, { tenantActive, accountActive }).isOk();
  }

  async function apply(tenant: TenantRecord, record: CustomHostnameRecord, event: HostnameEvent): Promise<CustomHostnameRecord> {
    const next = transition(record, event, { now: clock.now().toISOString(), mayBeActive: await mayBeActive(tenant, record) });
    if (next !== record) {
      await store.hostnames.update(next);
      // Verified (or no longer): whether the hostname takes its Host changed.
      if (claimsHost(next) !== claimsHost(record)) deps.hostsChanged?.();
    }
    return next;
  }

  /** Registration for a record that has no edge id yet, else a status re-read. */
  async function refresh(tenant: TenantRecord, record: CustomHostnameRecord): Promise<CustomHostnameRecord> {
    if (!record.edgeHostnameId) {
      const result = await edge.register({ hostname: record.hostname, ownership: { name: record.txtName, value: record.txtValue } });
      if (result.outcome === 'unavailable') logger.warn('edge.register.unavailable', { hostname: record.hostname, reason: result.reason });
      return apply(tenant, record, { type: 'registration', result });
    }
    const observation = await edge.status({ edgeHostnameId: record.edgeHostnameId, hostname: record.hostname, ownership: { name: record.txtName, value: record.txtValue } });
    if (observation.state === 'unknown') logger.warn('edge.status.unknown', { hostname: record.hostname, reason: observation.reason });
    return apply(tenant, record, { type: 'observed', observation });
  }

  /** Removes a record and its edge registration; an edge failure changes nothing. */
  async function release(record: CustomHostnameRecord): Promise<Result<void, PanyaError>> {
    if (record.edgeHostnameId) {
      try {
        await edge.remove(record.edgeHostnameId);
      } catch (error) {
        logger.warn('edge.remove.failed', { hostname: record.hostname, error: (error as Error).message });
        return err(panyaError('unavailable', { message: 'The edge provider could not remove the hostname now; nothing was changed. Try again shortly.' }));
      }
    }
    await store.hostnames.delete(record.tenantId, record.id);
    logger.info('hostname.released', { hostname: record.hostname, tenantId: record.tenantId, status: record.status });
    deps.hostsChanged?.();
    return ok(undefined);
  }

  /** Inserts the Pending record, the hostname's one claim across tenants. */
  async function claim(tenantId: string, record: CustomHostnameRecord, now: Date, released = false): Promise<Result<void, PanyaError>> {
    try {
      await store.hostnames.insert(record);
      deps.hostsChanged?.();
      return ok(undefined);
    } catch (error) {
      if (!isStoreConflict(error)) throw error;
    }
    const existing = await store.hostnames.findByHostname(record.hostname);
    // Spec's stale rule: another tenant's never-verified claim unchanged for over 7 days is released.
    if (!released && existing && existing.tenantId !== tenantId && releasable(existing, now)) {
      const freed = await release(existing);
      return freed.isErr() ? freed : claim(tenantId, record, now, true);
    }
    return err(errors.conflict(existing?.tenantId === tenantId ? `"${record.hostname}" is already one of your custom hostnames.` : failureMessage('already_registered').en));
  }

  return {
    view,

    async create(ctx: RequestContext, input: z.input<typeof createHostnameSchema>): Promise<Result<HostnameView, PanyaError>> {
      const allowed = manage(ctx);
      if (allowed.isErr()) return err(allowed.error);
      const now = clock.now();
      const limits = resolveLimits(ctx.tenant, now);
      const [tenantActive, accountActive] = await Promise.all([store.hostnames.countActive(ctx.tenant.id), store.hostnames.countActive()]);
      const allowance = checkHostnameAllowance(limits, { tenantActive, accountActive });
      if (allowance.isErr()) return err(allowance.error);
      const body = parseInput(createHostnameSchema, input);
      if (body.isErr()) return err(body.error);
      const host = parseHostname(body.value.hostname)
        .andThen((h) => {
          const refusal = reserved.reason(h.hostname);
          return refusal ? err(errors.invalid(`${refusal} Register a hostname of your own domain, e.g. help.yourcompany.com.`, [{ path: 'hostname', message: 'reserved' }])) : ok(h);
        })
        .andThen((h) => checkApex(h, PLANS[ctx.tenant.plan].apexHostnames));
      if (host.isErr()) return err(host.error);
      const ownership = generateOwnership(host.value.hostname);
      const at = now.toISOString();
      const record: CustomHostnameRecord = {
        id: ids.next('hn'),
        tenantId: ctx.tenant.id,
        hostname: host.value.hostname,
        status: 'pending',
        edgeHostnameId: null,
        txtName: ownership.name,
        txtValue: ownership.value,
        verificationError: null,
        verificationDetail: null,
        statusChangedAt: at,
        lastCheckedAt: null,
        createdAt: at,
        updatedAt: at,
      };
      const claimed = await claim(ctx.tenant.id, record, now);
      if (claimed.isErr()) return err(claimed.error);
      await appendAudit(store, deps, ctx.tenant.id, auditActor(ctx.principal), { type: 'hostname.added', workspaceId: null, subjectId: record.id, after: { hostname: record.hostname, status: record.status } });
      // Registration happens after the Pending row is committed: an edge outage leaves it Pending for the poll.
      return ok(view(await refresh(ctx.tenant, record)));
    },

    async list(ctx: RequestContext): Promise<Result<HostnameView[], PanyaError>> {
      const allowed = requireScope(ctx, 'admin');
      if (allowed.isErr()) return err(allowed.error);
      const now = clock.now();
      return ok((await store.hostnames.list(ctx.tenant.id)).map((r) => view(r, now)));
    },

    /** `POST /api/tenant/custom-hostnames/{id}`: re-reads the status from the edge and updates the row. */
    async check(ctx: RequestContext, id: string): Promise<Result<HostnameView, PanyaError>> {
      const allowed = manage(ctx);
      if (allowed.isErr()) return err(allowed.error);
      const record = await store.hostnames.get(ctx.tenant.id, id);
      if (!record) return err(errors.notFound('Custom hostname'));
      return ok(view(await refresh(ctx.tenant, record)));
    },

    async remove(ctx: RequestContext, id: string): Promise<Result<HostnameView, PanyaError>> {
      const allowed = manage(ctx);
      if (allowed.isErr()) return err(allowed.error);
      const record = await store.hostnames.get(ctx.tenant.id, id);
      if (!record) return err(errors.notFound('Custom hostname'));
      const released = await release(record);
      if (released.isErr()) return err(released.error);
      await appendAudit(store, deps, ctx.tenant.id, auditActor(ctx.principal), { type: 'hostname.removed', workspaceId: null, subjectId: record.id, before: { hostname: record.hostname, status: record.status }, after: null });
      return ok(view(record));
    },

    /**
     * After a plan (or quota) change, the active-hostname cap is re-applied: the earliest
     * activated keep serving up to the cap, the others go inactive (below Business, all of
     * them); on re-upgrade inactive ones serve again, oldest first, while slots last.
     */
    async applyPlan(tenantId: string): Promise<CustomHostnameRecord[]> {
      const tenant = await store.tenants.get(tenantId);
      if (!tenant) return [];
      const now = clock.now();
      const limits = resolveLimits(tenant, now);
      const cap = PLANS[tenant.plan].customHostnames ? limits.maxActiveHostnames : 0;
      // Active ones by the time they became active (`statusChangedAt`), then the rest by age.
      const records = (await store.hostnames.list(tenantId)).sort(
        (a, b) => Number(b.status === 'active') - Number(a.status === 'active') || (a.status === 'active' ? a.statusChangedAt.localeCompare(b.statusChangedAt) : 0) || a.createdAt.localeCompare(b.createdAt),
      );
      let serving = 0;
      const out: CustomHostnameRecord[] = [];
      for (const record of records) {
        let may = serving < cap;
        if (may && record.status !== 'active') may = checkHostnameAllowance(limits, { tenantActive: serving, accountActive: await store.hostnames.countActive() }).isOk();
        const next = transition(record, { type: 'plan_changed' }, { now: now.toISOString(), mayBeActive: may });
        if (next !== record) await store.hostnames.update(next);
        if (next.status === 'active') serving++;
        out.push(next);
      }
      return out;
    },

    /**
     * The scheduled poll: re-reads up to `limit` Pending and Verifying DNS records, least recently
     * checked first. Every record read goes to the back of the queue, an edge outage included, so
     * each one is re-read within (backlog / limit) runs however many never verify.
     */
    async poll(limit = POLL_BATCH): Promise<HostnamePollSummary> {
      const summary: HostnamePollSummary = { job: 'hostname-poll', checked: 0, active: 0, failed: 0, unknown: 0 };
      if (edge.id === 'none') return summary;
      const tenants = new Map<string, TenantRecord | null>();
      for (const record of await store.hostnames.listForCheck(POLLED, limit)) {
        if (!tenants.has(record.tenantId)) tenants.set(record.tenantId, await store.tenants.get(record.tenantId));
        const tenant = tenants.get(record.tenantId);
        if (!tenant) continue;
        const next = await refresh(tenant, record);
        summary.checked++;
        if (next.status === 'active') summary.active++;
        else if (next.status === 'failed') summary.failed++;
        else if (next.lastCheckedAt === record.lastCheckedAt) {
          summary.unknown++;
          // Tried: to the back of the queue all the same (the record itself is unchanged).
          await store.hostnames.update({ ...next, lastCheckedAt: clock.now().toISOString() });
        }
      }
      return summary;
    },

    /** `GET /api/ops/hostnames`: records not yet serving, with stale flags, and erased tenants' leftover registrations. */
    async operatorView() {
      const now = clock.now();
      const records = await store.hostnames.listByStatus(['pending', 'verifying_dns', 'failed', 'inactive'], 1000);
      const tombstones = await store.tombstones.list();
      return {
        edgeProvider: edge.id,
        accountCap: EDGE_HOSTNAME_ACCOUNT_CAP,
        accountActive: await store.hostnames.countActive(),
        hostnames: records.map((r): OperatorHostnameView => ({ ...view(r, now), tenantId: r.tenantId, verificationDetail: r.verificationDetail, health: hostnameHealth(r, now) })),
        stale: records.filter((r) => hostnameHealth(r, now).stale).length,
        // Spec: edge registrations of erased tenants stay; an operator removes them after ~30 days of 410s.
        erasedTenantHostnames: tombstones.filter((t) => t.hostnames.length > 0).map((t) => ({ slug: t.slug, hostnames: t.hostnames, erasedAt: t.erasedAt })),
      };
    },

    /** Caddy's on-demand TLS "ask": a certificate only for an active custom hostname. */
    async tlsAllowed(domain: unknown): Promise<boolean> {
      const host = parseHostname(domain);
      if (host.isErr()) return false;
      const record = await store.hostnames.findByHostname(host.value.hostname);
      return record?.status === 'active';
    },
  };
}

export type HostnameService = ReturnType<typeof createHostnameService>;
