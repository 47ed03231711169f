/**
 * The tenant's audit log: every change to what the bot can say or who can act, with its actor,
 * time and a before/after summary, appended to the tenant's hash chain (`audit/chain.ts`).
 * Features record through `record(ctx, …)` (or `recordAs` when no request is behind the change),
 * passing their transaction so the entry commits or rolls back with the change.
 */
import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import { chainEntry, verifyAuditChain, type ChainVerification } from '../audit/chain.js';
import { errors, type PanyaError } from '../errors.js';
import type { PlanId } from '../plans.js';
import type { AuditActorKind, AuditEvent, AuditFilter, Store } from '../ports/store.js';
import type { Clock, Ids } from '../ports/system.js';
import type { List } from '../schemas/responses.js';
import { parseInput } from '../schemas/validate.js';
import { requireScope, type Principal, type RequestContext, type ServiceDeps } from '../context.js';
import { decodeCursor, encodeCursor } from '../cursors.js';

export type AuditActor = { kind: AuditActorKind; id: string };

/** The actor behind a request: a signed-in user, an API key, or the operator's tools. */
export function auditActor(principal: Principal): AuditActor {
  if (principal.kind === 'user') return { kind: 'user', id: principal.id };
  if (principal.kind === 'api_key') return { kind: 'key', id: principal.id };
  return { kind: 'operator', id: principal.id };
}

export interface AuditInput {
  type: string;
  /** Default: the request's workspace for `record`, none for `recordAs`. */
  workspaceId?: string | null;
  subjectId?: string | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  data?: Record<string, unknown>;
}

/** How long each plan keeps audit entries, in days; null: as long as the tenant exists. */
export const AUDIT_RETENTION_DAYS: Record<PlanId, number | null> = { free: 30, team: 90, business: 365, growth: 365, enterprise: null };

/** Appends one entry to the tenant's chain on `store` (a transaction joins the change it records). */
export async function appendAudit(store: Store, system: { clock: Clock; ids: Ids }, tenantId: string, actor: AuditActor, input: AuditInput): Promise<AuditEvent> {
  const draft = {
    id: system.ids.next('evt'),
    tenantId,
    workspaceId: input.workspaceId ?? null,
    type: input.type,
    actor: actor.id,
    actorKind: actor.kind,
    subjectId: input.subjectId ?? null,
    data: input.data ?? {},
    before: input.before ?? null,
    after: input.after ?? null,
    createdAt: system.clock.now().toISOString(),
  };
  return store.audit.append(tenantId, (last) => chainEntry(last, draft));
}

const AUDIT_PAGE_MAX = 100;
const isoTime = z.string().refine((v) => !Number.isNaN(Date.parse(v)), 'an ISO 8601 time').transform((v) => new Date(v).toISOString());

export const auditQuerySchema = z.strictObject({
  type: z.string().min(1).max(80).optional(),
  subjectId: z.string().min(1).max(200).optional(),
  actor: z.string().min(1).max(200).optional(),
  workspaceId: z.string().min(1).max(200).optional(),
  since: isoTime.optional(),
  until: isoTime.optional(),
  limit: z.coerce.number().int().min(1).max(AUDIT_PAGE_MAX).default(50),
  cursor: z.string().max(200).optional(),
});
export type AuditQuery = z.input<typeof auditQuerySchema>;

/** The public shape of an entry: no internal tenant id. */
export type AuditEntryJson = Omit<AuditEvent, 'tenantId'>;
const publicEntry = ({ tenantId: _tenant, ...entry }: AuditEvent): AuditEntryJson => entry;

/** Reading the audit log: a tenant-wide admin sees every entry, a workspace-bound admin its workspace's. */
function readerFilter(ctx: RequestContext): Result<Pick<AuditFilter, 'workspaceId'>, PanyaError> {
  const scoped = requireScope(ctx, 'admin');
  if (scoped.isErr()) return err(scoped.error);
  return ok(ctx.principal.workspaceId ? { workspaceId: ctx.principal.workspaceId } : {});
}

const EXPORT_PAGE = 500;
const PURGE_BATCH = 500;
/** Batches one run may delete (the next run continues). */
const PURGE_MAX_BATCHES = 200;

/**
 * The plan's audit retention: each tenant's entries older than its plan keeps are deleted,
 * oldest first (what remains is an unbroken tail of the chain), a bounded batch at a time.
 */
export async function purgeExpiredAudit(store: Store, now: Date, options: { tenantId?: string } = {}): Promise<number> {
  let budget = PURGE_MAX_BATCHES;
  let removed = 0;
  const shortest = Math.min(...Object.values(AUDIT_RETENTION_DAYS).filter((d): d is number => d !== null));
  const earliestCutoff = new Date(now.getTime() - shortest * 86_400_000).toISOString();
  const tenants = options.tenantId ? [options.tenantId] : await store.audit.tenantsWithEntriesBefore(earliestCutoff, 1000);
  for (const tenantId of tenants) {
    const tenant = await store.tenants.get(tenantId);
    const days = tenant ? AUDIT_RETENTION_DAYS[tenant.plan as PlanId] : null;
    if (days == null) continue;
    const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString();
    while (budget-- > 0) {
      const n = await store.audit.purgeBefore(tenantId, cutoff, PURGE_BATCH);
      removed += n;
      if (n < PURGE_BATCH) break;
    }
  }
  return removed;
}

export function createAuditService(deps: ServiceDeps) {
  const { store } = deps;

  /** The tenant's chained entries oldest first, a bounded page at a time. */
  async function* pages(tenantId: string): AsyncGenerator<AuditEvent[]> {
    let after = 0;
    for (;;) {
      const page = await store.audit.range(tenantId, { after, limit: EXPORT_PAGE });
      if (page.length === 0) return;
      yield page;
      after = page.at(-1)!.seq!;
      if (page.length < EXPORT_PAGE) return;
    }
  }

  return {
    /** Records a change made by the request's caller; pass the change's transaction as `tx`. */
    record(ctx: RequestContext, input: AuditInput, tx: Store = store): Promise<AuditEvent> {
      return appendAudit(tx, deps, ctx.tenant.id, auditActor(ctx.principal), { ...input, workspaceId: input.workspaceId === undefined ? ctx.scope.workspaceId : input.workspaceId });
    },

    /** Records a change with no request behind it (a webhook, the operator's CLI, a job). */
    recordAs(tenantId: string, actor: AuditActor, input: AuditInput, tx: Store = store): Promise<AuditEvent> {
      return appendAudit(tx, deps, tenantId, actor, input);
    },

    /** `GET /audit`: newest first, filtered, a page at a time. */
    async list(ctx: RequestContext, query: AuditQuery): Promise<Result<List<AuditEntryJson>, PanyaError>> {
      const reader = readerFilter(ctx);
      if (reader.isErr()) return err(reader.error);
      const parsed = parseInput(auditQuerySchema, query);
      if (parsed.isErr()) return err(parsed.error);
      const { limit, cursor, ...filter } = parsed.value;
      const position = decodeCursor(cursor, 'seq:');
      if (position === false) return err(errors.invalid('cursor is not a cursor of this list.', [{ path: 'cursor', message: 'invalid cursor' }]));
      const before = position ? Number(position.slice(4)) : undefined;
      if (before !== undefined && !Number.isInteger(before)) return err(errors.invalid('cursor is not a cursor of this list.', [{ path: 'cursor', message: 'invalid cursor' }]));
      const rows = await store.audit.page(ctx.tenant.id, { ...filter, ...reader.value }, { ...(before !== undefined ? { before } : {}), limit: limit + 1 });
      const data = rows.slice(0, limit);
      const hasMore = rows.length > limit && data.at(-1)?.seq != null;
      return ok({ data: data.map(publicEntry), hasMore, nextCursor: hasMore ? encodeCursor(`seq:${data.at(-1)!.seq}`) : null });
    },

    /** The whole log oldest first as JSON lines, read a bounded page at a time. */
    async export(ctx: RequestContext): Promise<Result<AsyncIterable<string>, PanyaError>> {
      const reader = readerFilter(ctx);
      if (reader.isErr()) return err(reader.error);
      const only = reader.value.workspaceId;
      const tenantId = ctx.tenant.id;
      async function* lines(): AsyncGenerator<string> {
        for await (const page of pages(tenantId)) {
          for (const entry of page) if (!only || entry.workspaceId === only) yield `${JSON.stringify(publicEntry(entry))}\n`;
        }
      }
      return ok(lines());
    },

    /** Checks the tenant's chain from its first kept entry; names the first entry that does not fit. */
    verify(tenantId: string): Promise<ChainVerification> {
      return verifyAuditChain(pages(tenantId));
    },

    /** Removes entries older than the plan keeps, in bounded batches; returns how many. */
    purgeExpired: (now: Date, options?: { tenantId?: string }) => purgeExpiredAudit(store, now, options),
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
