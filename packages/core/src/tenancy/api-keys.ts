import { createHash, timingSafeEqual } from 'node:crypto';
import { err, ok, type Result } from 'neverthrow';
import { errors, type PanyaError } from '../errors.js';
import type { ApiKeyKind, ApiKeyRecord } from '../ports/store.js';
import { createApiKeySchema, type CreateApiKeyInput } from './schemas.js';
import { parseInput } from '../schemas/validate.js';
import { randomBase62 } from '../system.js';
import { API_KEY_CACHE_ENTRIES, API_KEY_CACHE_MS } from '../bounds.js';
import { requireScope, type Principal, type RequestContext, type ServiceDeps } from '../context.js';
import { appendAudit, auditActor, type AuditActor } from '../audit/audit.js';

export const API_KEY_PREFIX = 'svc_live_';
/** A publishable key: read-only, bound to one workspace and the tenant's allowed origins, safe to embed in a page. */
export const PUBLISHABLE_KEY_PREFIX = 'svc_pub_';
const PREFIXES: Record<ApiKeyKind, string> = { secret: API_KEY_PREFIX, publishable: PUBLISHABLE_KEY_PREFIX };
const SECRET_LENGTH = 32;
const KEY_PATTERN = /^svc_(live|pub)_[0-9A-Za-z]{32}$/;
/** Characters of the secret kept for display, so users can tell keys apart. */
const DISPLAY_CHARS = 4;

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export interface CreatedApiKey {
  /** The full key: shown once, never stored. */
  key: string;
  record: Omit<ApiKeyRecord, 'secretHash'>;
}

/** How fresh "last used" is kept. */
const LAST_USED_RESOLUTION_MS = 60_000;

export function publicKeyRecord(record: ApiKeyRecord): Omit<ApiKeyRecord, 'secretHash'> {
  const { secretHash: _hidden, embeddedKey: _embedded, ...rest } = record;
  return rest;
}

/** Keys are managed tenant-wide: an `admin` key or an owner/admin membership not bound to one workspace. */
function tenantAdmin(ctx: RequestContext): Result<void, PanyaError> {
  const scoped = requireScope(ctx, 'admin');
  if (scoped.isErr()) return scoped;
  return ctx.principal.workspaceId === null ? ok(undefined) : err(errors.forbidden('Managing API keys needs a tenant-wide admin key or membership, not one bound to a workspace.', 'admin'));
}

/** A key as the admin app lists it: its workspace by slug, never its hash. */
export type ApiKeyView = Omit<ApiKeyRecord, 'secretHash' | 'tenantId' | 'lastUsedAt'> & { lastUsedAt: string | null; workspaceSlug: string | null };

export interface ApiKeyHooks {
  /** A key was revoked (a help center's embedded key: its pages must stop carrying it). */
  revoked?(record: ApiKeyRecord): Promise<unknown>;
}

/** The operator's own tools (`panya keys …`, start-up keys). */
const OPERATOR: AuditActor = { kind: 'operator', id: 'cli' };

/** What the audit log keeps of a key: never its secret or hash. */
function keyAuditSummary(k: ApiKeyRecord): Record<string, unknown> {
  return { name: k.name, kind: k.kind, prefix: k.prefix, scopes: k.scopes, workspaceId: k.workspaceId, surface: k.surface ?? null, revokedAt: k.revokedAt };
}

export function createApiKeyService(deps: ServiceDeps & ApiKeyHooks) {
  const { store, clock, ids } = deps;
  /**
   * Live keys by hash, each trusted until `until` (`API_KEY_CACHE_MS` after its lookup): a busy
   * key costs one store read per second, not one per request. Revoking here forgets the key at
   * once; a revocation elsewhere (another process or node) takes effect here within the bound.
   */
  const live = new Map<string, { record: ApiKeyRecord; until: number }>();

  async function lookup(hash: string): Promise<ApiKeyRecord | null> {
    const now = clock.now().getTime();
    const cached = live.get(hash);
    if (cached && cached.until > now) return cached.record;
    live.delete(hash);
    const record = await store.apiKeys.findByHash(hash);
    if (record && !record.revokedAt) {
      if (live.size >= API_KEY_CACHE_ENTRIES) live.delete(live.keys().next().value!);
      live.set(hash, { record, until: now + API_KEY_CACHE_MS });
    }
    return record;
  }

  function forget(id: string): void {
    for (const [hash, { record }] of live) if (record.id === id) live.delete(hash);
  }

  async function view(tenantId: string, records: Omit<ApiKeyRecord, 'secretHash'>[]): Promise<ApiKeyView[]> {
    const slugs = new Map((await store.workspaces.list(tenantId, { includeDeleted: true })).map((ws) => [ws.id, ws.slug]));
    return records.map(({ tenantId: _tenant, ...r }) => ({ ...r, lastUsedAt: r.lastUsedAt ?? null, workspaceSlug: r.workspaceId ? (slugs.get(r.workspaceId) ?? null) : null }));
  }

  /**
   * Keeps "last used" to the minute: at most one write per key per minute, so a busy key costs
   * no write per request. The request neither waits for the write (it may queue behind an ingest
   * commit for the database's write lock) nor fails with it.
   */
  async function noteUse(record: ApiKeyRecord): Promise<void> {
    const now = clock.now();
    if (record.lastUsedAt && now.getTime() - Date.parse(record.lastUsedAt) < LAST_USED_RESOLUTION_MS) return;
    // The looked-up record remembers the write, so a cached key is not touched again this minute.
    record.lastUsedAt = now.toISOString();
    void store.apiKeys.touch(record.id, record.lastUsedAt).catch(() => undefined);
  }

  const service = {
    /**
     * Issues a key. `options.key` adopts a key chosen by the operator (a demo key from the
     * environment) instead of a random one; it must have the key format and be unused.
     * `options.embedded` keeps the full key of a publishable key a help center serves in its pages.
     */
    async create(tenantId: string, input: CreateApiKeyInput, options: { key?: string; embedded?: boolean; actor?: AuditActor } = {}): Promise<Result<CreatedApiKey, PanyaError>> {
      const parsed = parseInput(createApiKeySchema, input);
      if (parsed.isErr()) return err(parsed.error);
      const { kind } = parsed.value;
      const prefix = PREFIXES[kind];
      if (kind === 'publishable') {
        // A key shipped to browsers: it can only read, and only one workspace.
        if (!parsed.value.workspaceSlug) return err(errors.invalid('A publishable key is bound to one workspace: name it (workspaceSlug).', [{ path: 'workspaceSlug', message: 'required for a publishable key' }]));
        if (parsed.value.scopes.some((s) => s !== 'read')) return err(errors.invalid('A publishable key only reads: its scopes are ["read"].', [{ path: 'scopes', message: 'only "read" for a publishable key' }]));
      } else if (parsed.value.surface || options.embedded) {
        return err(errors.invalid('Only a publishable key is restricted to a public surface.', [{ path: 'surface', message: 'only for a publishable key' }]));
      }
      if (options.key !== undefined && (!KEY_PATTERN.test(options.key) || !options.key.startsWith(prefix))) return err(errors.invalid('An API key looks like svc_live_ followed by 32 letters or digits.', [{ path: 'key', message: 'malformed' }]));
      if (options.key !== undefined && (await store.apiKeys.findByHash(hashApiKey(options.key)))) return err(errors.conflict('This API key is already in use (or was revoked); choose another.'));
      let workspaceId: string | null = null;
      if (parsed.value.workspaceSlug) {
        const ws = await store.workspaces.getBySlug(tenantId, parsed.value.workspaceSlug);
        if (!ws || ws.deletedAt) return err(errors.notFound('Workspace'));
        workspaceId = ws.id;
      }
      const key = options.key ?? prefix + randomBase62(SECRET_LENGTH);
      const record: ApiKeyRecord = {
        id: ids.next('key'),
        tenantId,
        kind,
        workspaceId,
        name: parsed.value.name,
        prefix: key.slice(0, prefix.length + DISPLAY_CHARS),
        secretHash: hashApiKey(key),
        scopes: parsed.value.scopes,
        createdAt: clock.now().toISOString(),
        revokedAt: null,
        surface: parsed.value.surface ?? null,
        embeddedKey: options.embedded ? key : null,
        lastUsedAt: null,
      };
      await store.transaction(async (tx) => {
        await tx.apiKeys.insert(record);
        await appendAudit(tx, deps, tenantId, options.actor ?? OPERATOR, { type: 'api_key.created', workspaceId, subjectId: record.id, after: keyAuditSummary(record) });
      });
      return ok({ key, record: publicKeyRecord(record) });
    },

    /**
     * Verifies a presented key. The lookup is by hash (an index probe reveals nothing about
     * the secret); the stored hash is then compared in constant time.
     */
    async authenticate(presented: string | undefined): Promise<Result<Principal, PanyaError>> {
      if (!presented) return err(errors.unauthorized('An API key is required: send "Authorization: Bearer svc_live_…".'));
      if (!KEY_PATTERN.test(presented)) return err(errors.unauthorized('The API key is malformed: Panya keys look like svc_live_… or svc_pub_….'));
      const hash = hashApiKey(presented);
      const record = await lookup(hash);
      if (!record || record.revokedAt) return err(errors.unauthorized('The API key is unknown or has been revoked.'));
      const same = timingSafeEqual(Buffer.from(record.secretHash, 'hex'), Buffer.from(hash, 'hex'));
      if (!same) return err(errors.unauthorized());
      await noteUse(record);
      if (record.workspaceId) {
        // A key bound to a soft-deleted workspace stops working with it (and works again on restore).
        const ws = await store.workspaces.get(record.tenantId, record.workspaceId);
        if (!ws || ws.deletedAt) return err(errors.unauthorized('This API key belongs to a deleted workspace.'));
      }
      return ok({ kind: 'api_key', id: record.id, tenantId: record.tenantId, workspaceId: record.workspaceId, scopes: record.scopes, ...(record.kind === 'publishable' ? { publishable: true } : {}), ...(record.surface ? { surface: record.surface } : {}) });
    },

    async list(tenantId: string) {
      return (await store.apiKeys.list(tenantId)).map(publicKeyRecord);
    },

    async revoke(tenantId: string, id: string, actor: AuditActor = OPERATOR): Promise<Result<void, PanyaError>> {
      const done = await store.transaction(async (tx) => {
        const revoked = await tx.apiKeys.revoke(tenantId, id, clock.now().toISOString());
        const record = revoked ? (await tx.apiKeys.list(tenantId)).find((k) => k.id === id) : undefined;
        if (record) await appendAudit(tx, deps, tenantId, actor, { type: 'api_key.revoked', workspaceId: record.workspaceId, subjectId: id, before: keyAuditSummary({ ...record, revokedAt: null }), after: keyAuditSummary(record) });
        return revoked;
      });
      forget(id);
      if (!done) return err(errors.notFound('API key'));
      const record = deps.revoked ? (await store.apiKeys.list(tenantId)).find((k) => k.id === id) : undefined;
      if (record) await deps.revoked!(record);
      return ok(undefined);
    },

    /** Settings → API Keys: the tenant's keys (revoked ones included, marked), for a tenant admin. */
    async listFor(ctx: RequestContext): Promise<Result<ApiKeyView[], PanyaError>> {
      const allowed = tenantAdmin(ctx);
      if (allowed.isErr()) return err(allowed.error);
      return ok(await view(ctx.tenant.id, await service.list(ctx.tenant.id)));
    },

    /** Issues a key for a tenant admin; the secret is in the answer once and never again. */
    async createFor(ctx: RequestContext, input: CreateApiKeyInput): Promise<Result<ApiKeyView & { key: string }, PanyaError>> {
      const allowed = tenantAdmin(ctx);
      if (allowed.isErr()) return err(allowed.error);
      const created = await service.create(ctx.tenant.id, input, { actor: auditActor(ctx.principal) });
      if (created.isErr()) return err(created.error);
      const [listed] = await view(ctx.tenant.id, [created.value.record]);
      return ok({ ...listed!, key: created.value.key });
    },

    async revokeFor(ctx: RequestContext, id: string): Promise<Result<void, PanyaError>> {
      const allowed = tenantAdmin(ctx);
      if (allowed.isErr()) return err(allowed.error);
      return service.revoke(ctx.tenant.id, id, auditActor(ctx.principal));
    },
  };
  return service;
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
