/**
 * Single sign-on for the admin app, per tenant (OpenID Connect, authorization code + PKCE): the
 * provider settings (tenant-wide admins; the client secret masked in reads), the one-time login
 * attempts, and signing a verified ID token's user in — provisioned on first login as a member
 * of the tenant with the mapped role. The protocol (discovery, code exchange, ID-token
 * validation) is the HTTP adapter's; every rule about who may enter is here and in `sso/claims.ts`.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import { errors, panyaError, type PanyaError } from '../errors.js';
import { parseInput } from '../schemas/validate.js';
import { identityFromClaims } from './sso-claims.js';
import { SSO_ROLES, type SsoConfigRecord } from './ports/sso.js';
import { randomBase62 } from '../system.js';
import { maskedKey } from '../tenancy/visitor-tokens.js';
import { appendAudit, auditActor } from '../audit/audit.js';
import { requireScope, runInTransaction, type RequestContext, type ServiceDeps } from '../context.js';
import { hashPassword, type UserService } from '../tenancy/users.js';

/** How long the provider has to send the browser back. */
export const SSO_ATTEMPT_TTL_MS = 10 * 60_000;
/**
 * Sign-in attempts a tenant may have in flight: starting one needs no credentials, so what anyone
 * can make the database keep is capped (a real team starts far fewer in ten minutes).
 */
export const MAX_SSO_ATTEMPTS_IN_FLIGHT = 1_000;
/** Where the provider sends the browser back (on the server's own origin). */
export const SSO_CALLBACK_PATH = '/api/auth/sso/callback';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** An issuer URL: https, or http on the loopback interface (a provider on the same machine). */
const issuerSchema = z
  .string()
  .max(512)
  .refine((v) => {
    try {
      const url = new URL(v);
      return !url.username && !url.password && !url.search && !url.hash && (url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname)));
    } catch {
      return false;
    }
  }, 'an https URL such as https://login.example.com (http only on localhost)');

const domainSchema = z
  .string()
  .max(253)
  .transform((v) => v.trim().toLowerCase().replace(/^@/, ''))
  .refine((v) => /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(v), 'a domain such as example.com');

export const ssoConfigInputSchema = z
  .strictObject({
    issuer: issuerSchema.describe("The provider's issuer URL; its discovery document is read from `/.well-known/openid-configuration`."),
    clientId: z.string().min(1).max(256),
    clientSecret: z.string().min(1).max(1024).optional().describe('Required the first time; omitted: the stored secret is kept. Reads show only its last four characters.'),
    allowedDomains: z.array(domainSchema).min(1).max(50).transform((d) => [...new Set(d)].sort()).describe('E-mail domains whose users may sign in.'),
    roleClaim: z.string().min(1).max(100).nullable().default(null).describe('The ID-token claim read for the role (a string or a list of strings, e.g. `groups`).'),
    roleMap: z.record(z.string().min(1).max(200), z.enum(SSO_ROLES)).default({}).refine((m) => Object.keys(m).length <= 100, 'at most 100 entries').describe('Claim value → role; when several match, the most capable wins. `owner` is never granted by a provider.'),
    defaultRole: z.enum(SSO_ROLES).nullable().default(null).describe('The role when no claim value matches; null: such users are refused.'),
    passwordLogin: z.boolean().default(true).describe("False: the tenant's members sign in through the provider only."),
  })
  .refine((c) => c.defaultRole !== null || (c.roleClaim !== null && Object.keys(c.roleMap).length > 0), { message: 'set a default role, or a role claim with at least one mapping: otherwise nobody could sign in', path: ['defaultRole'] });
export type SsoConfigInput = z.input<typeof ssoConfigInputSchema>;

export type SsoConfigView = Omit<SsoConfigRecord, 'tenantId' | 'clientSecret' | 'createdAt'> & { clientSecretHint: string; redirectPath: string };

const view = ({ tenantId: _t, clientSecret, createdAt: _c, ...rest }: SsoConfigRecord): SsoConfigView => ({ ...rest, clientSecretHint: maskedKey(clientSecret), redirectPath: SSO_CALLBACK_PATH });
/** What the audit log keeps of a configuration: never the secret. */
const summary = (r: SsoConfigRecord | null) => (r ? { issuer: r.issuer, clientId: r.clientId, clientSecretHint: maskedKey(r.clientSecret), allowedDomains: r.allowedDomains, roleClaim: r.roleClaim, roleMap: r.roleMap, defaultRole: r.defaultRole, passwordLogin: r.passwordLogin } : null);
const digest = (value: string) => createHash('sha256').update(value).digest();
const attemptId = (state: string) => digest(state).toString('hex');
/** Secrets are compared in constant time, by their digests (equal lengths). */
const sameSecret = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

/** The provider settings the adapter's OpenID Connect client needs. */
export type SsoProvider = Pick<SsoConfigRecord, 'issuer' | 'clientId' | 'clientSecret' | 'updatedAt'>;
const provider = (r: SsoConfigRecord): SsoProvider => ({ issuer: r.issuer, clientId: r.clientId, clientSecret: r.clientSecret, updatedAt: r.updatedAt });

function tenantAdmin(ctx: RequestContext): Result<void, PanyaError> {
  const scoped = requireScope(ctx, 'admin');
  if (scoped.isErr()) return scoped;
  return ctx.principal.workspaceId === null ? ok(undefined) : err(errors.forbidden('Single sign-on settings need a tenant-wide admin key or membership.', 'admin'));
}

export function createSsoService(deps: ServiceDeps & { users: UserService }) {
  const { store, clock } = deps;

  return {
    async get(ctx: RequestContext): Promise<Result<SsoConfigView, PanyaError>> {
      const allowed = tenantAdmin(ctx);
      if (allowed.isErr()) return err(allowed.error);
      const record = await store.sso.getConfig(ctx.tenant.id);
      return record ? ok(view(record)) : err(errors.notFound('Single sign-on configuration'));
    },

    /**
     * Sets the tenant's provider. Switching password sign-in off cannot lock the tenant out: it
     * needs settings already proven — unchanged provider fields, and (for a signed-in user) a
     * session this provider opened; an admin API key keeps working whatever the switch says.
     */
    async put(ctx: RequestContext, input: unknown): Promise<Result<SsoConfigView, PanyaError>> {
      const allowed = tenantAdmin(ctx);
      if (allowed.isErr()) return err(allowed.error);
      const parsed = parseInput(ssoConfigInputSchema, input);
      if (parsed.isErr()) return err(parsed.error);
      const { clientSecret, ...settings } = parsed.value;
      const existing = await store.sso.getConfig(ctx.tenant.id);
      const secret = clientSecret ?? existing?.clientSecret;
      if (!secret) return err(errors.invalid('The first configuration needs the client secret.', [{ path: 'clientSecret', message: 'required' }]));
      if (!settings.passwordLogin) {
        const providerChanged = !existing || existing.issuer !== settings.issuer || existing.clientId !== settings.clientId || !sameSecret(existing.clientSecret, secret);
        if (providerChanged) return err(errors.conflict('Password sign-in stays on while the provider settings are new or changing: save them, sign in with single sign-on once, then switch password sign-in off.'));
        if (ctx.principal.kind === 'user' && !ctx.principal.sso) return err(errors.conflict("Sign in with this tenant's single sign-on first, then switch password sign-in off: that proves the provider lets you in."));
      }
      const now = clock.now().toISOString();
      const record: SsoConfigRecord = { tenantId: ctx.tenant.id, ...settings, clientSecret: secret, createdAt: existing?.createdAt ?? now, updatedAt: now };
      await runInTransaction(store, async (tx) => {
        await tx.sso.putConfig(record);
        await appendAudit(tx, deps, ctx.tenant.id, auditActor(ctx.principal), { type: 'sso.config_updated', workspaceId: null, subjectId: ctx.tenant.id, before: summary(existing), after: summary(record) });
        return ok(undefined);
      });
      return ok(view(record));
    },

    /** Removes the provider; password sign-in is on again with it (no settings, no switch). */
    async delete(ctx: RequestContext): Promise<Result<{ deleted: true }, PanyaError>> {
      const allowed = tenantAdmin(ctx);
      if (allowed.isErr()) return err(allowed.error);
      const existing = await store.sso.getConfig(ctx.tenant.id);
      if (!existing) return err(errors.notFound('Single sign-on configuration'));
      await runInTransaction(store, async (tx) => {
        await tx.sso.deleteConfig(ctx.tenant.id);
        await appendAudit(tx, deps, ctx.tenant.id, auditActor(ctx.principal), { type: 'sso.config_deleted', workspaceId: null, subjectId: ctx.tenant.id, before: summary(existing) });
        return ok(undefined);
      });
      return ok({ deleted: true });
    },

    /** The login page's choice for a tenant; the same answer for an unknown tenant as for one without single sign-on. */
    async loginOptions(tenantSlug: string): Promise<{ sso: boolean; passwordLogin: boolean }> {
      const tenant = await store.tenants.getBySlug(tenantSlug);
      const config = tenant ? await store.sso.getConfig(tenant.id) : null;
      return { sso: config !== null, passwordLogin: config?.passwordLogin !== false };
    },

    /** Starts a login: a new attempt (state, nonce, PKCE verifier) recorded for its callback. */
    async begin(tenantSlug: string): Promise<Result<{ provider: SsoProvider; state: string; nonce: string; codeVerifier: string }, PanyaError>> {
      const tenant = await store.tenants.getBySlug(tenantSlug);
      const config = tenant ? await store.sso.getConfig(tenant.id) : null;
      if (!tenant || !config) return err(errors.notFound('Single sign-on for this tenant'));
      const now = clock.now();
      if ((await store.sso.liveStates(tenant.id, now.toISOString())) >= MAX_SSO_ATTEMPTS_IN_FLIGHT) {
        return err(panyaError('unavailable', { message: `Too many single sign-on attempts are in progress for this tenant (${MAX_SSO_ATTEMPTS_IN_FLIGHT}); try again in a few minutes.`, limit: 'MAX_SSO_ATTEMPTS_IN_FLIGHT', max: MAX_SSO_ATTEMPTS_IN_FLIGHT, retryAfterSeconds: 60 }));
      }
      const state = randomBase62(43);
      const attempt = { id: attemptId(state), tenantId: tenant.id, nonce: randomBase62(43), codeVerifier: randomBase62(64), createdAt: now.toISOString(), expiresAt: new Date(now.getTime() + SSO_ATTEMPT_TTL_MS).toISOString() };
      await store.sso.saveState(attempt, now.toISOString());
      return ok({ provider: provider(config), state, nonce: attempt.nonce, codeVerifier: attempt.codeVerifier });
    },

    /** Takes the attempt a callback's `state` names: once only, and within its time. */
    async takeAttempt(state: string): Promise<Result<{ tenantId: string; provider: SsoProvider; nonce: string; codeVerifier: string }, PanyaError>> {
      const attempt = state ? await store.sso.takeState(attemptId(state)) : null;
      if (!attempt) return err(errors.invalid('This sign-in link is unknown or was already used; start again from the login page.', [{ path: 'state', message: 'unknown or used' }]));
      if (Date.parse(attempt.expiresAt) <= clock.now().getTime()) return err(errors.invalid('This sign-in attempt expired; start again from the login page.', [{ path: 'state', message: 'expired' }]));
      const config = await store.sso.getConfig(attempt.tenantId);
      if (!config) return err(errors.notFound('Single sign-on for this tenant'));
      return ok({ tenantId: attempt.tenantId, provider: provider(config), nonce: attempt.nonce, codeVerifier: attempt.codeVerifier });
    },

    /**
     * Signs in the user of a verified ID token: the tenant's rules decide (`identityFromClaims`);
     * a new user, or a user new to the tenant, becomes a tenant-wide member with the mapped role
     * (an audit event); an existing member keeps their membership. Refused: nothing is written.
     */
    async signIn(tenantId: string, claims: Record<string, unknown>): Promise<Result<{ token: string; userId: string; expiresAt: Date; tenantSlug: string }, PanyaError>> {
      const tenant = await store.tenants.get(tenantId);
      const config = await store.sso.getConfig(tenantId);
      if (!tenant || !config) return err(errors.notFound('Single sign-on for this tenant'));
      const identity = identityFromClaims(config, claims);
      if (identity.isErr()) return err(identity.error);
      const { email, role, subject } = identity.value;
      // Never used to sign in (no one knows it), it keeps "no such user" and "SSO user" equally slow at password login.
      const unusable = await hashPassword(randomBase62(32));
      const now = clock.now().toISOString();
      const userId = await runInTransaction(store, async (tx) => {
        let user = await tx.users.getByEmail(email);
        const created = !user;
        if (!user) {
          user = { id: deps.ids.next('usr'), email, passwordHash: unusable, createdAt: now };
          await tx.users.insert(user);
        }
        if ((await tx.users.memberships(user.id, tenantId)).length === 0) {
          const membershipId = deps.ids.next('mem');
          await tx.users.addMembership({ id: membershipId, userId: user.id, tenantId, workspaceId: null, role, createdAt: now });
          await appendAudit(tx, deps, tenantId, { kind: 'system', id: 'sso' }, { type: 'member.provisioned', workspaceId: null, subjectId: user.id, after: { email, role, workspaceId: null, membershipId, via: 'sso', issuer: config.issuer, subject, newUser: created } });
        }
        return ok(user.id);
      });
      if (userId.isErr()) return err(userId.error);
      const session = await deps.users.openSession(userId.value);
      await store.sso.linkSession({ sessionId: session.sessionId, tenantId, userId: userId.value, createdAt: now, expiresAt: session.expiresAt.toISOString() });
      return ok({ token: session.token, userId: userId.value, expiresAt: session.expiresAt, tenantSlug: tenant.slug });
    },
  };
}

export type SsoService = ReturnType<typeof createSsoService>;
