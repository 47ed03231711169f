/**
 * Billing state per tenant (kept from processor webhooks and the seat add-on) and the meter-event
 * outbox: one row per (tenant, period, meter), written before sending and marked once the
 * processor has it, so every event leaves exactly once across re-runs, crashes and nodes.
 */
import type { PlanId } from '../../plans.js';
import type { BillingInterval, SubscriptionStatus } from './payment.js';

/** The spec's meters, in the order the reporter sends them. */
export const METERS = ['svc_resolutions', 'svc_api_queries', 'svc_seat_addon_team', 'svc_guided_flow'] as const;
export type MeterKey = (typeof METERS)[number];

/** Overage prices per unit in satang (null: the plan has none, e.g. Free or per contract). */
export interface OverageRates {
  resolutionSatang: number | null;
  apiQuerySatang: number | null;
}

export interface TenantBillingRecord {
  tenantId: string;
  subscriptionId: string | null;
  subscriptionStatus: SubscriptionStatus | null;
  interval: BillingInterval | null;
  /** Annual subscriptions: the sign-up overage rates, kept until `lockedUntil`. */
  lockedRates: OverageRates | null;
  lockedUntil: string | null;
  /** Paid Team add-on seats. */
  addonSeats: number;
  /** Plan changes, oldest first (kept about a year): a period bills each part under its plan. */
  planHistory?: PlanChangeEntry[];
  /** Creation time of the last subscription event applied: an older one arriving later is stale. */
  subscriptionEventAt?: string | null;
  updatedAt: string;
}

export interface PlanChangeEntry {
  at: string;
  from: PlanId;
  to: PlanId;
}

export interface MeterOutboxRecord {
  /** `<tenantId>:<period>:<meter>` (`:<part>` after a mid-period plan change): the processor's de-duplication key. */
  identifier: string;
  tenantId: string;
  period: string;
  meter: MeterKey;
  eventName: string;
  customerId: string;
  value: number;
  /** The instant the value belongs to (the end of its part of the period); null = the period's end. */
  occurredAt?: string | null;
  createdAt: string;
  sentAt: string | null;
}

export interface BillingStore {
  getTenantBilling(tenantId: string): Promise<TenantBillingRecord | null>;
  /** Inserts or replaces the tenant's billing state. */
  putTenantBilling(record: TenantBillingRecord): Promise<void>;
  /** Adds outbox rows whose identifier is new; a row already there keeps its first value. */
  enqueueMeterEvents(rows: readonly MeterOutboxRecord[]): Promise<void>;
  /** Rows not yet sent, oldest first (of one tenant, or all). */
  pendingMeterEvents(options: { tenantId?: string; limit: number }): Promise<MeterOutboxRecord[]>;
  markMeterEventSent(identifier: string, at: string): Promise<void>;
  listMeterEvents(tenantId: string, period?: string): Promise<MeterOutboxRecord[]>;
  /** Records a processed webhook event; false when it was processed before (a replay). */
  recordWebhookEvent(id: string, at: string): Promise<boolean>;
}
