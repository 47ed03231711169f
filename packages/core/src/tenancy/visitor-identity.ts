/**
 * Signed visitor identity per workspace: the key settings (admin, the key masked in reads) and
 * the verification that turns a request's visitor token into its `identity` and per-visitor key.
 */
import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import { errors, type PanyaError } from '../errors.js';
import type { Scope } from '../ports/store.js';
import { maskedKey, verificationKey, verifiedVisitorKey, verifyVisitorToken } from './visitor-tokens.js';
import { VISITOR_TOKEN_ALGORITHMS, type VisitorKeyRecord } from './ports/visitor-keys.js';
import { parseInput } from '../schemas/validate.js';
import { requireScope, type RequestContext, type ServiceDeps } from '../context.js';
import type { VisitorIdentity } from '../audiences/rules.js';

export const visitorIdentityInputSchema = z.strictObject({
  algorithm: z.enum(VISITOR_TOKEN_ALGORITHMS).describe('`HS256` (a shared secret of at least 32 bytes) or `EdDSA` (an Ed25519 public key, SPKI PEM).'),
  key: z.string().min(1).max(8192).describe('The HS256 secret, or the Ed25519 public key in PEM. Reads show it masked.'),
  issuer: z.string().min(1).max(512).nullable().default(null).describe('The `iss` every token must carry; null: any.'),
  audience: z.string().min(1).max(512).nullable().default(null).describe("The `aud` every token must carry; null: the workspace's id."),
});
export type VisitorIdentityInput = z.input<typeof visitorIdentityInputSchema>;

/** The settings as reads show them. */
export type VisitorIdentityView = {
  algorithm: VisitorKeyRecord['algorithm'];
  keyHint: string;
  issuer: string | null;
  audience: string;
  updatedAt: string;
};

const view = (r: VisitorKeyRecord): VisitorIdentityView => ({ algorithm: r.algorithm, keyHint: maskedKey(r.key), issuer: r.issuer, audience: r.audience ?? r.workspaceId, updatedAt: r.updatedAt });

export function createVisitorIdentityService(deps: ServiceDeps) {
  const { store, clock } = deps;

  /** The workspace `id` of the caller's tenant, for an admin of it (a workspace-bound admin: its own only). */
  async function workspaceScope(ctx: RequestContext, id: string): Promise<Result<Scope, PanyaError>> {
    const allowed = requireScope(ctx, 'admin');
    if (allowed.isErr()) return err(allowed.error);
    if (ctx.principal.workspaceId !== null && ctx.principal.workspaceId !== id) return err(errors.notFound('Workspace'));
    const ws = await store.workspaces.get(ctx.tenant.id, id);
    if (!ws || ws.deletedAt) return err(errors.notFound('Workspace'));
    return ok({ tenantId: ctx.tenant.id, workspaceId: ws.id });
  }

  async function verify(scope: Scope, token: string): Promise<Result<VisitorIdentity, PanyaError>> {
    return verifyVisitorToken(await store.visitorKeys.get(scope), scope, token, clock.now());
  }

  return {
    async get(ctx: RequestContext, workspaceId: string): Promise<Result<VisitorIdentityView, PanyaError>> {
      const scope = await workspaceScope(ctx, workspaceId);
      if (scope.isErr()) return err(scope.error);
      const record = await store.visitorKeys.get(scope.value);
      return record ? ok(view(record)) : err(errors.notFound('Visitor identity key'));
    },

    /** Sets the key; one that cannot verify anything (short secret, not Ed25519) is refused naming `key`. */
    async put(ctx: RequestContext, workspaceId: string, input: unknown): Promise<Result<VisitorIdentityView, PanyaError>> {
      const scope = await workspaceScope(ctx, workspaceId);
      if (scope.isErr()) return err(scope.error);
      const parsed = parseInput(visitorIdentityInputSchema, input);
      if (parsed.isErr()) return err(parsed.error);
      try {
        await verificationKey(parsed.value);
      } catch (error) {
        return err(errors.invalid('The key cannot verify visitor tokens.', [{ path: 'key', message: (error as Error).message.split('\n')[0]! }]));
      }
      const now = clock.now().toISOString();
      const existing = await store.visitorKeys.get(scope.value);
      const record: VisitorKeyRecord = { ...scope.value, ...parsed.value, createdAt: existing?.createdAt ?? now, updatedAt: now };
      await store.visitorKeys.put(record);
      return ok(view(record));
    },

    async delete(ctx: RequestContext, workspaceId: string): Promise<Result<{ deleted: true }, PanyaError>> {
      const scope = await workspaceScope(ctx, workspaceId);
      if (scope.isErr()) return err(scope.error);
      return (await store.visitorKeys.delete(scope.value)) ? ok({ deleted: true }) : err(errors.notFound('Visitor identity key'));
    },

    /**
     * The request with its visitor's verified identity: `identity` (audiences read) and `visitor`
     * (per-visitor budgets and slots) from the token's `sub`. A token that does not verify is a 401.
     */
    async identify(ctx: RequestContext, token: string): Promise<Result<RequestContext, PanyaError>> {
      const identity = await verify(ctx.scope, token);
      if (identity.isErr()) return err(identity.error);
      return ok({ ...ctx, identity: identity.value, visitor: verifiedVisitorKey(ctx.scope, identity.value) });
    },

    /** A visitor token of the workspace, verified (the help center's pages). */
    verify,
  };
}

export type VisitorIdentityService = ReturnType<typeof createVisitorIdentityService>;

/**
 * The visitor record of a verified visitor: the one their id is linked to, else the workspace's
 * visitor with their verified e-mail, else a new one with the token's name and e-mail.
 */
export async function verifiedVisitor(deps: ServiceDeps, scope: Scope, identity: VisitorIdentity): Promise<string> {
  const { store, ids, clock } = deps;
  const linked = await store.verifiedVisitors.find(scope, identity.id);
  // A merge may have removed the linked record: then it is found again by e-mail or made anew.
  if (linked && (await store.visitors.get(scope, linked))) return linked;
  const now = clock.now().toISOString();
  let visitorId = identity.email ? ((await store.visitors.findByEmail(scope, identity.email))?.id ?? null) : null;
  if (!visitorId) {
    const record = { id: ids.next('vis'), tenantId: scope.tenantId, workspaceId: scope.workspaceId, name: identity.name, email: identity.email, createdAt: now, updatedAt: now };
    try {
      await store.visitors.insert(record);
      visitorId = record.id;
    } catch (error) {
      // The same e-mail inserted meanwhile (another tab): that visitor is this one.
      const known = identity.email ? await store.visitors.findByEmail(scope, identity.email) : null;
      if (!known) throw error;
      visitorId = known.id;
    }
  }
  await store.verifiedVisitors.link({ ...scope, verifiedId: identity.id, visitorId, createdAt: now });
  return visitorId;
}
