/**
 * What a verified ID token may do in a tenant: the e-mail must be verified by the provider and
 * in one of the tenant's domains; the role comes from the configured claim through the role map,
 * else the default role, else the user is refused. Pure rules: the service and the tests call them.
 */
import { err, ok, type Result } from 'neverthrow';
import { errors, type PanyaError } from '../errors.js';
import { SSO_ROLES, type SsoConfigRecord, type SsoRole } from './ports/sso.js';

/** Most capable first: when several claim values match, the first of these wins. */
const RANK: readonly SsoRole[] = SSO_ROLES;

export interface SsoIdentity {
  email: string;
  subject: string;
  role: SsoRole;
}

function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

/** The role the claim maps to, or the default; null when neither gives one. */
export function mapRole(config: Pick<SsoConfigRecord, 'roleClaim' | 'roleMap' | 'defaultRole'>, claims: Record<string, unknown>): SsoRole | null {
  const raw = config.roleClaim ? claims[config.roleClaim] : undefined;
  const values = (Array.isArray(raw) ? raw : [raw]).filter((v): v is string => typeof v === 'string');
  const matched = new Set(values.flatMap((v) => (Object.hasOwn(config.roleMap, v) ? [config.roleMap[v]!] : [])));
  return RANK.find((role) => matched.has(role)) ?? config.defaultRole;
}

/** The identity a verified ID token's claims give in the tenant, or why it is refused (403). */
export function identityFromClaims(config: SsoConfigRecord, claims: Record<string, unknown>): Result<SsoIdentity, PanyaError> {
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  const subject = typeof claims.sub === 'string' ? claims.sub : '';
  if (!email.includes('@') || !subject) return err(errors.forbidden('The identity provider sent no e-mail address for this account.'));
  // A provider that lets users type any address must not decide which tenant they enter.
  if (claims.email_verified !== true) return err(errors.forbidden(`The identity provider has not verified the e-mail address ${email}.`));
  const domain = emailDomain(email);
  if (!config.allowedDomains.includes(domain)) return err(errors.forbidden(`E-mail addresses at ${domain} may not sign in to this tenant.`));
  const role = mapRole(config, claims);
  if (!role) return err(errors.forbidden(`No Panya role is mapped for ${email}${config.roleClaim ? ` (claim "${config.roleClaim}")` : ''}, and the tenant sets no default role.`));
  return ok({ email, subject, role });
}
