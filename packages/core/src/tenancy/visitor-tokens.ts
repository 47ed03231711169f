/**
 * Signed visitor identity. The tenant's backend signs a short-lived JWT (HS256 with the
 * workspace's secret, or EdDSA with its private key whose public half the workspace holds)
 * naming the visitor: `sub` (their id), `email`, `name`, `locale`, `segments`. The widget
 * (`data-visitor-token`) and the help center pass it on; a token that does not verify is a 401,
 * never a silent fall back to anonymous. Verification is one signature check of a bounded token.
 */
import { createHash, createPublicKey } from 'node:crypto';
import { errors as joseErrors, importSPKI, jwtVerify, type JWTPayload } from 'jose';
import { err, ok, type Result } from 'neverthrow';
import { errors, type PanyaError } from '../errors.js';
import { MAX_AUDIENCES, SEGMENT_PATTERN, type VisitorIdentity } from '../audiences/rules.js';
import type { Scope } from '../ports/scope.js';
import type { VisitorKeyRecord, VisitorTokenAlgorithm } from './ports/visitor-keys.js';

/** Longest token accepted (a header or cookie value); longer is refused before any parsing. */
export const MAX_VISITOR_TOKEN_CHARS = 4096;
/** Longest lifetime (`exp` − `iat`) a token may claim: identity tokens are short-lived. */
export const MAX_VISITOR_TOKEN_SECONDS = 24 * 60 * 60;
/** Clock skew tolerated between the tenant's backend and this server. */
export const VISITOR_TOKEN_LEEWAY_SECONDS = 30;
/** Shortest HS256 secret: RFC 7518 §3.2 asks for a key at least as long as the hash (32 bytes). */
export const MIN_HS256_SECRET_BYTES = 32;

const refuse = (why: string) => errors.unauthorized(`The visitor token was refused: ${why}.`);

/** The key object a record verifies with; throws with the reason when the key is unusable. */
export async function verificationKey(record: Pick<VisitorKeyRecord, 'algorithm' | 'key'>): Promise<Uint8Array | Awaited<ReturnType<typeof importSPKI>>> {
  if (record.algorithm === 'HS256') {
    const secret = new TextEncoder().encode(record.key);
    if (secret.length < MIN_HS256_SECRET_BYTES) throw new Error(`an HS256 secret needs at least ${MIN_HS256_SECRET_BYTES} bytes`);
    return secret;
  }
  const key = createPublicKey(record.key);
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('an EdDSA key must be an Ed25519 public key (SPKI PEM)');
  return importSPKI(record.key, 'EdDSA');
}

/** A claim as a bounded string, or null when absent; undefined when present but not a string. */
function text(payload: JWTPayload, name: string, max: number): string | null | undefined {
  const value = payload[name];
  if (value === undefined || value === null) return null;
  return typeof value === 'string' && value.length <= max ? value : undefined;
}

/** Why a jose failure refused the token, in the caller's words. */
function reason(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return 'it has expired';
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return 'its audience (aud) is not this workspace\'s';
    if (error.claim === 'iss') return 'its issuer (iss) is not the configured one';
    if (error.claim === 'nbf') return 'it is not valid yet';
    return `its "${error.claim}" claim is missing or invalid`;
  }
  if (error instanceof joseErrors.JOSEAlgNotAllowed) return 'its algorithm is not the one this workspace accepts';
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return 'its signature does not match this workspace\'s key';
  return 'it is not a well-formed signed JWT';
}

/**
 * Verifies a visitor token against the workspace's key. `alg: none`, another algorithm, a key of
 * another workspace (signature), an expired or over-long token, a wrong `aud` or `iss` are each
 * refused with a 401 naming why. A workspace without a key accepts no token.
 */
export async function verifyVisitorToken(record: VisitorKeyRecord | null, scope: Scope, token: string, now: Date): Promise<Result<VisitorIdentity, PanyaError>> {
  if (!record) return err(refuse('this workspace has no visitor identity key (PUT /api/workspaces/{id}/visitor-identity)'));
  if (token.length > MAX_VISITOR_TOKEN_CHARS) return err(refuse(`it is longer than ${MAX_VISITOR_TOKEN_CHARS} characters`));
  let payload: JWTPayload;
  try {
    const key = await verificationKey(record);
    ({ payload } = await jwtVerify(token, key, {
      algorithms: [record.algorithm satisfies VisitorTokenAlgorithm],
      audience: record.audience ?? scope.workspaceId,
      ...(record.issuer ? { issuer: record.issuer } : {}),
      requiredClaims: ['sub', 'exp'],
      clockTolerance: VISITOR_TOKEN_LEEWAY_SECONDS,
      currentDate: now,
    }));
  } catch (error) {
    return err(refuse(reason(error)));
  }
  const issuedAt = payload.iat ?? Math.floor(now.getTime() / 1000);
  if (payload.exp! - issuedAt > MAX_VISITOR_TOKEN_SECONDS) return err(refuse(`its lifetime is over ${MAX_VISITOR_TOKEN_SECONDS / 3600} hours`));
  const id = text(payload, 'sub', 256);
  const email = text(payload, 'email', 320);
  const name = text(payload, 'name', 200);
  const locale = text(payload, 'locale', 35);
  if (!id) return err(refuse('its "sub" claim is missing or invalid'));
  for (const [claim, value] of [['email', email], ['name', name], ['locale', locale]] as const) if (value === undefined) return err(refuse(`its "${claim}" claim is not a short string`));
  const segments = payload.segments ?? [];
  if (!Array.isArray(segments) || segments.length > MAX_AUDIENCES || !segments.every((s) => typeof s === 'string' && SEGMENT_PATTERN.test(s))) {
    return err(refuse(`its "segments" claim must be a list of at most ${MAX_AUDIENCES} segment names (a-z, 0-9, -)`));
  }
  return ok({ id, email: email ? email.toLowerCase() : null, name: name ?? null, locale: locale ?? null, segments: [...new Set(segments as string[])] });
}

/** The per-visitor counting key of a verified visitor: their id within the workspace, hashed. */
export function verifiedVisitorKey(scope: Scope, identity: VisitorIdentity): string {
  return `id:${createHash('sha256').update(`${scope.workspaceId}\n${identity.id}`).digest('base64url').slice(0, 22)}`;
}

/** A key as settings show it: its last four characters, enough to recognize, never to use. */
export function maskedKey(key: string): string {
  const flat = key.replace(/-----[A-Z ]+-----|\s/g, '');
  return `…${flat.slice(-4)}`;
}
