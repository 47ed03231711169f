/** Usage events: what was queried and what bills, recorded once per request. */

export type QueryEventKind = 'search' | 'answer' | 'mcp_tool';

/** Part of a period: created at or after `from`, before `before` (either open). */
export interface TimeRange {
  from?: string;
  before?: string;
}

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
  countQueries(tenantId: string, billingPeriod: string, range?: TimeRange): Promise<Record<QueryEventKind, number>>;
  /** Sums of other usage meters of a tenant in a billing period. */
  sumUsage(tenantId: string, billingPeriod: string): Promise<Record<string, number>>;
  listQueries(tenantId: string, options?: { billingPeriod?: string; limit?: number }): Promise<ApiQueryEvent[]>;
}
