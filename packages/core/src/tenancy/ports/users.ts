/** Users, memberships and sessions. */

export const MEMBERSHIP_ROLES = ['owner', 'admin', 'editor', 'viewer'] as const;
export type MembershipRole = (typeof MEMBERSHIP_ROLES)[number];

export interface UserRecord {
  id: string;
  email: string;
  /** `scrypt$N$r$p$salt$hash` (base64url parts). */
  passwordHash: string;
  createdAt: string;
}

export interface MembershipRecord {
  id: string;
  userId: string;
  tenantId: string;
  /** Null: tenant-wide membership. */
  workspaceId: string | null;
  role: MembershipRole;
  createdAt: string;
}

export interface SessionRecord {
  id: string;
  userId: string;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
}

export interface UserStore {
  insert(user: UserRecord): Promise<void>;
  getByEmail(email: string): Promise<UserRecord | null>;
  get(id: string): Promise<UserRecord | null>;
  addMembership(membership: MembershipRecord): Promise<void>;
  /** Every membership of the user in the tenant (tenant-wide and workspace-scoped). */
  memberships(userId: string, tenantId: string): Promise<MembershipRecord[]>;
  /** Every membership of the user, in every tenant (the admin app's tenant picker). */
  allMemberships(userId: string): Promise<MembershipRecord[]>;
  insertSession(session: SessionRecord): Promise<void>;
  getSession(id: string): Promise<SessionRecord | null>;
  revokeSession(id: string, at: string): Promise<void>;
  /** The users with a membership in the tenant (tenant erasure). */
  memberIds(tenantId: string): Promise<string[]>;
  /**
   * Deletes those of `userIds` that belong to no tenant any more, with their sessions (tenant
   * erasure: a member of no other tenant must not be able to sign in); returns the deleted users.
   */
  deleteUnaffiliated(userIds: readonly string[]): Promise<{ id: string; email: string }[]>;
}
