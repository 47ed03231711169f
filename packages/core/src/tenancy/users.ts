import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import { errors, type PanyaError } from '../errors.js';
import { MEMBERSHIP_ROLES, type MembershipRole, type UserRecord } from './ports/users.js';
import type { ApiKeyScope, WorkspaceRecord } from '../ports/store.js';
import { slugSchema } from './schemas.js';
import { parseInput } from '../schemas/validate.js';
import { randomBase62 } from '../system.js';
import { createLoginThrottle } from './login-throttle.js';
import { runInTransaction, type Principal, type RequestContext, type ServiceDeps } from '../context.js';
import { appendAudit } from '../audit/audit.js';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: { N: number; r: number; p: number; maxmem: number }) => Promise<Buffer>;
const SCRYPT = { N: 16_384, r: 8, p: 1, keylen: 32 };
export const SESSION_TTL_MS = 14 * 86_400_000;

/** What each role may do, in API-key scopes: one table for keys and users alike. */
export const ROLE_SCOPES: Record<MembershipRole, ApiKeyScope[]> = {
  owner: ['read', 'write', 'mcp', 'admin'],
  admin: ['read', 'write', 'mcp', 'admin'],
  editor: ['read', 'write'],
  viewer: ['read'],
};

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, SCRYPT.keylen, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p, maxmem: 64 * 1024 * 1024 });
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64url'), expected.length, { N: Number(n), r: Number(r), p: Number(p), maxmem: 64 * 1024 * 1024 });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Sessions are stored by the hash of their token: a leaked table cannot be replayed. */
export const sessionId = (token: string) => createHash('sha256').update(token).digest('hex');

const email = z.email().max(254).transform((e) => e.toLowerCase());
export const createUserSchema = z.strictObject({
  email,
  password: z.string().min(10, 'at least 10 characters').max(1000),
  tenantSlug: slugSchema,
  workspaceSlug: slugSchema.optional(),
  role: z.enum(MEMBERSHIP_ROLES),
});
export const loginSchema = z.strictObject({ email, password: z.string().min(1).max(1000) });

export function createUserService(deps: ServiceDeps) {
  const { store, clock, ids } = deps;
  // Verifying against a real-looking hash keeps "no such user" as slow as "wrong password".
  const decoy = hashPassword(randomBase62(24));
  const throttle = createLoginThrottle(store);

  /** Whether a session may open the tenant: a tenant that switched password sign-in off admits only sessions its provider opened. */
  async function sessionAdmitted(tenantId: string, token: string | undefined): Promise<{ admitted: boolean; sso: boolean }> {
    const sso = token !== undefined && (await store.sso.openedBy(sessionId(token), tenantId));
    if (sso) return { admitted: true, sso };
    return { admitted: (await store.sso.getConfig(tenantId))?.passwordLogin !== false, sso };
  }

  /** The user's tenants, and how many of them a password session may open. */
  async function passwordTenants(userId: string): Promise<{ total: number; open: number; ssoOnly: string[] }> {
    const ids = new Set((await store.users.allMemberships(userId)).map((m) => m.tenantId));
    const ssoOnly: string[] = [];
    let open = 0;
    for (const id of ids) {
      const tenant = await store.tenants.get(id);
      if (!tenant) continue;
      if ((await store.sso.getConfig(id))?.passwordLogin === false) ssoOnly.push(tenant.slug);
      else open += 1;
    }
    return { total: open + ssoOnly.length, open, ssoOnly };
  }

  return {
    /** Creates a user (or reuses one by e-mail) with a tenant-wide or workspace-scoped membership. */
    async createUser(input: z.input<typeof createUserSchema>): Promise<Result<{ user: Omit<UserRecord, 'passwordHash'>; membershipId: string }, PanyaError>> {
      const parsed = parseInput(createUserSchema, input);
      if (parsed.isErr()) return err(parsed.error);
      const { tenantSlug, workspaceSlug, role, password } = parsed.value;
      const tenant = await store.tenants.getBySlug(tenantSlug);
      if (!tenant) return err(errors.notFound(`Tenant "${tenantSlug}"`));
      let workspaceId: string | null = null;
      if (workspaceSlug) {
        const ws = await store.workspaces.getBySlug(tenant.id, workspaceSlug);
        if (!ws || ws.deletedAt) return err(errors.notFound(`Workspace "${workspaceSlug}"`));
        workspaceId = ws.id;
      }
      const passwordHash = await hashPassword(password);
      const now = clock.now().toISOString();
      return runInTransaction(store, async (tx) => {
        let user = await tx.users.getByEmail(parsed.value.email);
        if (!user) {
          user = { id: ids.next('usr'), email: parsed.value.email, passwordHash, createdAt: now };
          await tx.users.insert(user);
        }
        const membershipId = ids.next('mem');
        await tx.users.addMembership({ id: membershipId, userId: user.id, tenantId: tenant.id, workspaceId, role, createdAt: now });
        await appendAudit(tx, deps, tenant.id, { kind: 'operator', id: 'cli' }, { type: 'member.added', workspaceId, subjectId: user.id, after: { email: user.email, role, workspaceId, membershipId } });
        const { passwordHash: _hidden, ...visible } = user;
        return ok({ user: visible, membershipId });
      });
    },

    /** Checks credentials and opens a session; the token is returned once, for the cookie. */
    async login(input: z.input<typeof loginSchema>, client: { address?: string } = {}): Promise<Result<{ token: string; userId: string; expiresAt: Date }, PanyaError>> {
      const parsed = parseInput(loginSchema, input);
      if (parsed.isErr()) return err(parsed.error);
      const now = clock.now();
      const user = await store.users.getByEmail(parsed.value.email);
      const attempt = await throttle.attempt(parsed.value.email, client.address, now);
      if ('refused' in attempt) {
        // Each tenant the account belongs to sees the lockout in its audit trail; the address is not kept.
        if (user) {
          for (const tenantId of new Set((await store.users.allMemberships(user.id)).map((m) => m.tenantId))) {
            await appendAudit(store, deps, tenantId, { kind: 'system', id: 'system' }, { type: 'auth.login_throttled', subjectId: user.id, data: { scope: attempt.scope, retryAfterSeconds: attempt.refused.code === 'rate_limited' ? attempt.refused.retryAfterSeconds : null } });
          }
        }
        deps.logger.warn('login throttled', { scope: attempt.scope, userId: user?.id ?? null });
        return err(attempt.refused);
      }
      const valid = await verifyPassword(parsed.value.password, user?.passwordHash ?? (await decoy));
      if (!user || !valid) return err(errors.unauthorized('E-mail or password is incorrect.'));
      await attempt.release();
      // Checked after the password, so the refusal tells nothing to someone without it.
      const reachable = await passwordTenants(user.id);
      if (reachable.total > 0 && reachable.open === 0) {
        return err(errors.forbidden(`Password sign-in is switched off for ${reachable.ssoOnly.join(', ')}: sign in with single sign-on (/admin/?tenant=${reachable.ssoOnly[0]}).`));
      }
      return ok(await this.openSession(user.id));
    },

    /** Opens a session for a user whose identity was checked (password or single sign-on). */
    async openSession(userId: string): Promise<{ token: string; userId: string; expiresAt: Date; sessionId: string }> {
      const now = clock.now();
      const token = randomBase62(32);
      const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
      await store.users.insertSession({ id: sessionId(token), userId, createdAt: now.toISOString(), expiresAt: expiresAt.toISOString(), revokedAt: null });
      return { token, userId, expiresAt, sessionId: sessionId(token) };
    },

    async logout(token: string): Promise<void> {
      await store.users.revokeSession(sessionId(token), clock.now().toISOString());
    },

    /** The user behind a session token, if the session is live. */
    async authenticateSession(token: string | undefined): Promise<Result<UserRecord, PanyaError>> {
      if (!token) return err(errors.unauthorized('Sign in first.'));
      const session = await store.users.getSession(sessionId(token));
      if (!session || session.revokedAt || Date.parse(session.expiresAt) <= clock.now().getTime()) return err(errors.unauthorized('The session has expired; sign in again.'));
      const user = await store.users.get(session.userId);
      return user ? ok(user) : err(errors.unauthorized());
    },

    /**
     * Who is signed in and where (the admin app's start): the user's e-mail and memberships by
     * tenant and workspace slug; erased tenants and deleted workspaces are left out.
     */
    async session(token: string | undefined): Promise<Result<{ user: { id: string; email: string }; memberships: { tenantSlug: string; workspaceSlug: string | null; role: MembershipRole }[] }, PanyaError>> {
      const user = await this.authenticateSession(token);
      if (user.isErr()) return err(user.error);
      const memberships = [];
      for (const m of await store.users.allMemberships(user.value.id)) {
        const tenant = await store.tenants.get(m.tenantId);
        if (!tenant) continue;
        // A tenant that admits only its own provider's sessions is not offered to this one.
        if (!(await sessionAdmitted(tenant.id, token)).admitted) continue;
        const ws = m.workspaceId ? await store.workspaces.get(tenant.id, m.workspaceId) : null;
        if (m.workspaceId && (!ws || ws.deletedAt)) continue;
        memberships.push({ tenantSlug: tenant.slug, workspaceSlug: ws?.slug ?? null, role: m.role });
      }
      return ok({ user: { id: user.value.id, email: user.value.email }, memberships });
    },

    /**
     * The user's role in the addressed tenant and workspace (spec, Authentication 5): the
     * tenant-wide membership wins; a workspace-scoped member addressing another workspace has
     * no role there. Non-members get "not found", never a hint that the tenant exists. A tenant
     * that switched password sign-in off admits only sessions its own provider opened (403).
     */
    async resolve(user: UserRecord, tenantSlug: string, workspaceSlug?: string, token?: string): Promise<Result<RequestContext, PanyaError>> {
      const tenant = await store.tenants.getBySlug(tenantSlug);
      const memberships = tenant ? await store.users.memberships(user.id, tenant.id) : [];
      if (!tenant || memberships.length === 0) return err(errors.notFound('Tenant'));
      const workspace: WorkspaceRecord | null = workspaceSlug ? await store.workspaces.getBySlug(tenant.id, workspaceSlug) : await store.workspaces.getDefault(tenant.id);
      if (!workspace || workspace.deletedAt) return err(errors.notFound('Workspace'));
      const membership = memberships.find((m) => m.workspaceId === null) ?? memberships.find((m) => m.workspaceId === workspace.id);
      // A sibling workspace outside the membership answers exactly like one that does not exist.
      if (!membership) return err(errors.notFound('Workspace'));
      const admission = await sessionAdmitted(tenant.id, token);
      if (!admission.admitted) return err(errors.forbidden(`Password sign-in is switched off for ${tenant.slug}: sign in with single sign-on.`));
      const principal: Principal = { kind: 'user', id: user.id, tenantId: tenant.id, workspaceId: membership.workspaceId, scopes: ROLE_SCOPES[membership.role], role: membership.role, ...(admission.sso ? { sso: true } : {}) };
      return ok({ tenant, workspace, principal, scope: { tenantId: tenant.id, workspaceId: workspace.id } });
    },
  };
}

export type UserService = ReturnType<typeof createUserService>;
