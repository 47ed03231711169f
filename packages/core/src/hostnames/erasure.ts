/**
 * Tenant erasure (spec "Tenant erasure"): a tombstone (slug and the hostnames active at erasure)
 * and the cascade through every table of the tenant, in one transaction; the retention job then
 * purges the edge cache of every help-center URL of the tenant. Requests for the slug or its
 * hostnames answer 410 Gone from then on; edge registrations stay for an operator to remove.
 */
import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import { errors, type PanyaError } from '../errors.js';
import type { TenantTombstone } from './ports/record.js';
import { tenantPurge, type HelpHost } from './help-center-rules.js';
import type { EdgePurge } from './ports/edge.js';
import { parseInput } from '../schemas/validate.js';
import { runInTransaction, type RequestContext, type ServiceDeps } from '../context.js';

export const eraseTenantSchema = z
  .object({ confirm: z.string().max(100).describe("The tenant's slug, typed again: erasure cannot be undone.") })
  .strict();

export type ErasureSummary = {
  slug: string;
  tenantId: string;
  /** Active at erasure: they answer 410 and keep their edge registration until an operator removes it. */
  hostnames: string[];
  erasedAt: string;
  /** Rows removed, by table. */
  deleted: Record<string, number>;
};

export interface ErasurePurgeSummary {
  /** Erased tenants whose every help-center URL was purged in this run. */
  tenantsPurged: number;
  /** Purge requests sent to the edge. */
  cachePurges: number;
  /** Tenants whose purge failed (retried on the next run). */
  purgeFailures: number;
}

/** Erased tenants purged per run (each is one edge request of a few batches). */
const PURGE_BATCH = 50;

export interface ErasureDeps extends ServiceDeps {
  helpHost: HelpHost | null;
  /** Sends a purge to the edge provider; false when it failed. */
  purge(request: EdgePurge, what: Record<string, unknown>): Promise<boolean>;
  /** The tenant's hostnames now resolve through its tombstone (the host look-up cache forgets). */
  hostsChanged?: () => void;
}

export function createErasureService(deps: ErasureDeps) {
  const { store, clock } = deps;

  /** Erases the tenant `slug` once `confirm` repeats it. */
  async function erase(slug: string, input: z.input<typeof eraseTenantSchema>): Promise<Result<ErasureSummary, PanyaError>> {
    const body = parseInput(eraseTenantSchema, input);
    if (body.isErr()) return err(body.error);
    if (body.value.confirm !== slug) {
      return err(errors.invalid(`Erasure cannot be undone: confirm with the tenant's slug, {"confirm": "${slug}"}.`, [{ path: 'confirm', message: `must be "${slug}"` }]));
    }
    const erasedAt = clock.now().toISOString();
    const erased = await runInTransaction(store, async (tx) => {
      const tenant = await tx.tenants.getBySlug(slug);
      if (!tenant) return err(errors.notFound(`Tenant "${slug}"`));
      const hostnames = (await tx.hostnames.list(tenant.id)).filter((h) => h.status === 'active').map((h) => h.hostname);
      const tombstone: TenantTombstone = { slug, tenantId: tenant.id, hostnames, erasedAt, purgedAt: null };
      const members = await tx.users.memberIds(tenant.id);
      const keyIds = (await tx.apiKeys.list(tenant.id)).map((k) => k.id);
      // Spec: the tombstone is written before the cascade, in the same transaction.
      await tx.tombstones.put(tombstone);
      const deleted = await tx.tenants.erase(tenant.id);
      // Members of no other tenant go with it: an account left behind could still sign in.
      const users = await tx.users.deleteUnaffiliated(members);
      if (users.length > 0) deleted.users = users.length;
      // Rate counters are keyed by the tenant, its keys, its users and their e-mail addresses.
      const counters = await tx.rateLimits.forget([tenant.id, ...keyIds, ...users.flatMap((u) => [u.id, u.email])]);
      if (counters > 0) deleted.rate_counters = counters;
      return ok({ slug, tenantId: tenant.id, hostnames, erasedAt, deleted });
    });
    if (erased.isOk()) {
      deps.hostsChanged?.();
      // No copy of the deleted rows is left where the backend can reach it (SQLite's WAL).
      await store.scrub?.();
    }
    return erased;
  }

  return {
    /** The operator's erasure (`panya tenant erase <slug> --confirm <slug>`). */
    erase,

    /** `DELETE /api/tenant`: only the tenant's owner, signed in, tenant-wide. */
    async eraseOwn(ctx: RequestContext, input: z.input<typeof eraseTenantSchema>): Promise<Result<ErasureSummary, PanyaError>> {
      const { principal } = ctx;
      if (principal.kind !== 'user' || principal.role !== 'owner' || principal.workspaceId !== null) {
        return err(errors.forbidden("Only the tenant's owner, signed in, can erase the tenant."));
      }
      return erase(ctx.tenant.slug, input);
    },

    /** Was this slug erased? (Its API addresses answer 410.) */
    async isErased(slug: string): Promise<boolean> {
      return (await store.tombstones.getBySlug(slug)) !== null;
    },

    /** The retention job's part: purge the edge cache of erased tenants not purged yet. */
    async purgeErased(limit = PURGE_BATCH): Promise<ErasurePurgeSummary> {
      const summary: ErasurePurgeSummary = { tenantsPurged: 0, cachePurges: 0, purgeFailures: 0 };
      for (const tombstone of await store.tombstones.listUnpurged(limit)) {
        summary.cachePurges++;
        if (await deps.purge(tenantPurge(deps.helpHost, tombstone.slug, tombstone.hostnames), { erasedTenant: tombstone.slug })) {
          await store.tombstones.markPurged(tombstone.slug, clock.now().toISOString());
          summary.tenantsPurged++;
        } else {
          summary.purgeFailures++;
          // Behind the others next time: one edge failure never holds up every later erasure.
          await store.tombstones.markPurgeAttempted(tombstone.slug, clock.now().toISOString());
        }
      }
      return summary;
    },
  };
}

export type ErasureService = ReturnType<typeof createErasureService>;

/**
 * The order a store deletes a tenant's tables in: every table before the tables it references
 * (so a reference without ON DELETE CASCADE never blocks), the rest alphabetically. `references`
 * are `[from, to]` foreign keys; references outside `tables` and self-references are ignored.
 */
export function childrenFirst(tables: readonly string[], references: readonly (readonly [string, string])[]): string[] {
  const pending = new Set(tables);
  const referencedBy = new Map<string, Set<string>>();
  for (const [from, to] of references) {
    if (from === to || !pending.has(from) || !pending.has(to)) continue;
    if (!referencedBy.has(to)) referencedBy.set(to, new Set());
    referencedBy.get(to)!.add(from);
  }
  const order: string[] = [];
  while (pending.size > 0) {
    // A table is ready once nothing still pending references it.
    const ready = [...pending].filter((t) => ![...(referencedBy.get(t) ?? [])].some((child) => pending.has(child))).sort();
    const next = ready.length > 0 ? ready : [...pending].sort().slice(0, 1); // a reference cycle: break it
    for (const t of next) {
      pending.delete(t);
      order.push(t);
    }
  }
  return order;
}
