/**
 * A workspace's visitor-identity key: how the tenant's backend signs the short-lived tokens that
 * tell the widget and the help center who a visitor is (audiences/rules.ts reads the segments).
 */
import type { Scope } from '../../ports/scope.js';

export const VISITOR_TOKEN_ALGORITHMS = ['HS256', 'EdDSA'] as const;
export type VisitorTokenAlgorithm = (typeof VISITOR_TOKEN_ALGORITHMS)[number];

export interface VisitorKeyRecord {
  tenantId: string;
  workspaceId: string;
  algorithm: VisitorTokenAlgorithm;
  /** HS256: the shared secret; EdDSA: the Ed25519 public key (SPKI PEM). Never shown again in full. */
  key: string;
  /** The `iss` a token must carry; null: any. */
  issuer: string | null;
  /** The `aud` a token must carry; null: the workspace's id. */
  audience: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface VisitorKeyStore {
  get(scope: Scope): Promise<VisitorKeyRecord | null>;
  /** Creates or replaces the workspace's key. */
  put(record: VisitorKeyRecord): Promise<void>;
  delete(scope: Scope): Promise<boolean>;
}

/** Which visitor record a verified visitor id (a token's `sub`) is, per workspace. */
export interface VerifiedVisitorLink {
  tenantId: string;
  workspaceId: string;
  /** The tenant's own id for the visitor, from a verified token. */
  verifiedId: string;
  visitorId: string;
  createdAt: string;
}

export interface VerifiedVisitorStore {
  /** The visitor record of a verified id, if linked. */
  find(scope: Scope, verifiedId: string): Promise<string | null>;
  /** Whether a visitor record belongs to a verified visitor. */
  isVerified(scope: Scope, visitorId: string): Promise<boolean>;
  /** Links (or re-links, after a merge removed the old record) a verified id to a visitor record. */
  link(record: VerifiedVisitorLink): Promise<void>;
}
