/**
 * Ports for running the service: rate-limit counters, usage events, users and sessions,
 * and scheduled-job state. Counters and leases live in the store so that several API nodes
 * sharing one database enforce one limit and run each job once.
 */

/** One fixed-window counter a request draws from, e.g. a tenant's queries on one UTC day. */
export interface RateBucket {
  /** e.g. `q:day:<tenantId>`; together with `window` it names one counter. */
  key: string;
  /** Window label, e.g. `2026-11-21` or `2026-11-21T10`. */
  window: string;
  limit: number;
  /** When the window ends; expired counters may be purged. */
  resetAt: string;
}

export interface RateDecision {
  allowed: boolean;
  /** Each bucket's count after this request (unchanged for all buckets when refused). */
  counts: number[];
}

export interface RateLimitStore {
  /**
   * Atomically takes `cost` from every bucket, or from none when any would exceed its limit
   * (so a refused request never uses up another bucket). Safe under concurrency and across nodes.
   */
  consume(buckets: readonly RateBucket[], cost: number): Promise<RateDecision>;
  purgeExpired(before: string): Promise<number>;
}

export type QueryEventKind = 'search' | 'answer' | 'mcp_tool';

/** `api_query_event`: one per billable API query (REST search/answer call, MCP tool call). */
export interface ApiQueryEvent {
  id: string;
  tenantId: string;
  workspaceId: string;
  /** The API key, or null for operator-initiated calls. */
  keyId: string | null;
  kind: QueryEventKind;
  /** MCP tool name, e.g. `svc_search`. */
  tool: string | null;
  /** Calendar month in UTC, `YYYY-MM`. */
  billingPeriod: string;
  createdAt: string;
}

/** A billable usage record other than queries, e.g. one contextualization call at ingest. */
export interface UsageRecord {
  id: string;
  tenantId: string;
  workspaceId: string | null;
  meter: string;
  quantity: number;
  billingPeriod: string;
  createdAt: string;
  data: Record<string, unknown>;
}

export interface UsageStore {
  recordQuery(event: ApiQueryEvent): Promise<void>;
  recordUsage(record: UsageRecord): Promise<void>;
  /** API query events of a tenant in a billing period, by kind. */
  countQueries(tenantId: string, billingPeriod: string): Promise<Record<QueryEventKind, number>>;
  /** Sums of other usage meters of a tenant in a billing period. */
  sumUsage(tenantId: string, billingPeriod: string): Promise<Record<string, number>>;
  listQueries(tenantId: string, options?: { billingPeriod?: string; limit?: number }): Promise<ApiQueryEvent[]>;
}

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
}

export interface JobStore {
  /**
   * Takes the job's lease for `holder` until `until` if it is free or expired at `now`.
   * Returns false when another holder has it: the job is running elsewhere.
   */
  acquireLease(job: string, holder: string, now: string, until: string): Promise<boolean>;
  releaseLease(job: string, holder: string): Promise<void>;
  /**
   * Frees the job leases held by earlier incarnations of `node` (holders starting with `node/`
   * but not with `keepPrefix`): what a restarted node was running when it died. Returns how many.
   */
  reclaimLeases(node: string, keepPrefix: string): Promise<number>;
  /** Resumable state (e.g. a cursor) of a job; null when never stored. */
  getState(job: string): Promise<Record<string, unknown> | null>;
  setState(job: string, state: Record<string, unknown>, at: string): Promise<void>;
}
