/** The custom hostname record and its persistence port. */
import type { HostnameFailureCause } from '../ports/edge.js';

/** Displayed as Pending, Verifying DNS, Active, Failed, Inactive (after a downgrade). */
export const HOSTNAME_STATUSES = ['pending', 'verifying_dns', 'active', 'failed', 'inactive'] as const;
export type HostnameStatus = (typeof HOSTNAME_STATUSES)[number];

/** The statuses that count toward the plan's hostname cap and the edge bill: hostnames serving traffic. */
export const COUNTED_HOSTNAME_STATUSES = ['active'] as const satisfies readonly HostnameStatus[];

export const HOSTNAME_STATUS_LABELS: Record<HostnameStatus, string> = {
  pending: 'Pending',
  verifying_dns: 'Verifying DNS',
  active: 'Active',
  failed: 'Failed',
  inactive: 'Inactive',
};

export interface CustomHostnameRecord {
  id: string;
  tenantId: string;
  /** Lower-case ASCII (punycode), no trailing dot; unique across all tenants. */
  hostname: string;
  status: HostnameStatus;
  /** The provider's id; null while registration has never succeeded. */
  edgeHostnameId: string | null;
  /** The TXT record the tenant publishes (core-generated, or the provider's own). */
  txtName: string;
  txtValue: string;
  /** Why the hostname is not (yet) serving; the inline message derives from it. */
  verificationError: HostnameFailureCause | null;
  /** The provider's own words for the error. */
  verificationDetail: string | null;
  /** When `status` last changed (stale detection measures time in Verifying DNS from here). */
  statusChangedAt: string;
  lastCheckedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A tenant's erasure, kept so that its help-center URLs answer 410 Gone afterwards. */
export interface TenantTombstone {
  slug: string;
  tenantId: string;
  /** Hostnames that were active at erasure: they keep their edge registration until an operator removes it. */
  hostnames: string[];
  erasedAt: string;
  /** Set by the retention job once the edge cache of every URL of the tenant was purged. */
  purgedAt: string | null;
  /** The retention job's last failed purge: a failing tombstone goes behind the others. */
  purgeAttemptedAt?: string | null;
}

export interface HostnameStore {
  /** Throws `StoreConflictError` when the hostname is already registered (by any tenant). */
  insert(record: CustomHostnameRecord): Promise<void>;
  get(tenantId: string, id: string): Promise<CustomHostnameRecord | null>;
  /** Across tenants: the help-center host router's lookup. */
  findByHostname(hostname: string): Promise<CustomHostnameRecord | null>;
  list(tenantId: string): Promise<CustomHostnameRecord[]>;
  /** Replaces the mutable fields of the record (status, edge id, TXT, errors, timestamps). */
  update(record: CustomHostnameRecord): Promise<void>;
  delete(tenantId: string, id: string): Promise<boolean>;
  /** Hostnames in a counted status (`COUNTED_HOSTNAME_STATUSES`), of one tenant or all. */
  countActive(tenantId?: string): Promise<number>;
  /** Records in the given statuses across tenants, oldest status change first (poller and operator view). */
  listByStatus(statuses: readonly HostnameStatus[], limit: number): Promise<CustomHostnameRecord[]>;
  /**
   * Records in these statuses, least recently checked first (never checked before all): the
   * poll's fair order, so a backlog that never verifies cannot starve a newer record.
   */
  listForCheck(statuses: readonly HostnameStatus[], limit: number): Promise<CustomHostnameRecord[]>;
}

export interface TombstoneStore {
  /** Idempotent per slug: a second erasure of a re-created slug replaces the earlier tombstone. */
  put(tombstone: TenantTombstone): Promise<void>;
  getBySlug(slug: string): Promise<TenantTombstone | null>;
  findByHostname(hostname: string): Promise<TenantTombstone | null>;
  /** Not purged yet: never tried first (oldest erasure first), then the least recently tried. */
  listUnpurged(limit: number): Promise<TenantTombstone[]>;
  list(): Promise<TenantTombstone[]>;
  markPurged(slug: string, at: string): Promise<void>;
  /** A purge failed: the tombstone goes to the back of `listUnpurged` (never tried first, then oldest tried). */
  markPurgeAttempted(slug: string, at: string): Promise<void>;
}
