/**
 * Single sign-on for the admin app (OpenID Connect, per tenant): the tenant's provider settings,
 * the one-time login attempts (state, nonce, PKCE verifier) and which sessions a tenant's
 * provider opened. The protocol itself (discovery, the code exchange, ID-token checks) is the
 * adapter's; what a verified ID token may do here — domain, verified e-mail, role — is `claims.ts`.
 */
import type { MembershipRole } from './users.js';

/** Roles a provider's claim may grant: an owner is named by the operator, never by a provider group. */
export const SSO_ROLES = ['admin', 'editor', 'viewer'] as const satisfies readonly MembershipRole[];
export type SsoRole = (typeof SSO_ROLES)[number];

export interface SsoConfigRecord {
  tenantId: string;
  /** The provider's issuer URL (discovery at `/.well-known/openid-configuration`). */
  issuer: string;
  clientId: string;
  /** Kept like the other tenant secrets: stored, never shown again in full. */
  clientSecret: string;
  /** E-mail domains whose users may sign in (lowercase, at least one). */
  allowedDomains: string[];
  /** The ID-token claim the role is read from (a string or a list of strings); null: the default role only. */
  roleClaim: string | null;
  /** Claim value → role; when several match, the most capable role wins. */
  roleMap: Record<string, SsoRole>;
  /** The role when no value matches; null: such a user is refused. */
  defaultRole: SsoRole | null;
  /** False: members of the tenant sign in through the provider only. */
  passwordLogin: boolean;
  createdAt: string;
  updatedAt: string;
}

/** One login attempt between the redirect to the provider and its callback; used once. */
export interface SsoStateRecord {
  /** SHA-256 of the `state` parameter: the table alone cannot complete a login. */
  id: string;
  tenantId: string;
  nonce: string;
  codeVerifier: string;
  createdAt: string;
  expiresAt: string;
}

/** A session a tenant's provider opened (by the session's stored id). */
export interface SsoSessionRecord {
  sessionId: string;
  tenantId: string;
  userId: string;
  createdAt: string;
  expiresAt: string;
}

export interface SsoStore {
  getConfig(tenantId: string): Promise<SsoConfigRecord | null>;
  putConfig(record: SsoConfigRecord): Promise<void>;
  deleteConfig(tenantId: string): Promise<boolean>;
  /** Records an attempt and drops the tenant's expired ones. */
  saveState(record: SsoStateRecord, now: string): Promise<void>;
  /** How many of the tenant's attempts have not expired at `now`. */
  liveStates(tenantId: string, now: string): Promise<number>;
  /** Removes and returns an attempt: a second callback with the same state finds nothing. */
  takeState(id: string): Promise<SsoStateRecord | null>;
  /** Links a session to the tenant's provider and drops the tenant's links whose sessions expired. */
  linkSession(record: SsoSessionRecord): Promise<void>;
  /** Whether the tenant's provider opened this session. */
  openedBy(sessionId: string, tenantId: string): Promise<boolean>;
}
