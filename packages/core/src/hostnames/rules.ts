/**
 * The rules around a custom hostname that are not transitions: who may register one, the DNS
 * records the tenant publishes, the inline failure messages and the operator's stale flags.
 */
import { err, ok, type Result } from 'neverthrow';
import { panyaError, type PanyaError } from '../errors.js';
import { HOSTNAME_FAILURES, type LocalizedText } from '../messages.js';
import { EDGE_HOSTNAME_ACCOUNT_CAP, PLANS, type EffectiveLimits } from '../plans.js';
import type { HostnameFailureCause, OwnershipRecord } from './ports/edge.js';
import { randomBase62 } from '../system.js';
import type { CustomHostnameRecord, HostnameStatus } from './ports/record.js';

/** The TXT name prefix (spec: `_edge-custom-hostname.<domain>`). */
export const TXT_RECORD_PREFIX = '_edge-custom-hostname.';

/** A fresh per-hostname TXT record: 32 random base62 characters, nothing a resolver could mangle. */
export function generateOwnership(hostname: string): OwnershipRecord {
  return { name: `${TXT_RECORD_PREFIX}${hostname}`, value: randomBase62(32) };
}

export interface DnsInstructions {
  cname: { name: string; target: string };
  txt: { name: string; value: string };
  note: string;
}

/** The records the tenant publishes; the CNAME target is the same for every tenant. */
export function dnsInstructions(record: Pick<CustomHostnameRecord, 'hostname' | 'txtName' | 'txtValue'>, edgeTarget: string): DnsInstructions {
  return {
    cname: { name: record.hostname, target: edgeTarget },
    txt: { name: record.txtName, value: record.txtValue },
    note: 'Copy the TXT value exactly: no quotes, no extra spaces, no trailing dot. Verification usually takes 15 minutes to 4 hours.',
  };
}

const MESSAGES: Record<HostnameFailureCause, LocalizedText> = HOSTNAME_FAILURES;

/** The inline message shown next to a hostname for its stored verification error. */
export function failureMessage(cause: HostnameFailureCause): LocalizedText {
  return MESSAGES[cause];
}

export interface HostnameCounts {
  /** Active records of this tenant. */
  tenantActive: number;
  /** Active records of every tenant (the edge account cap is shared). */
  accountActive: number;
}

/**
 * May the tenant have one more active hostname? Free/Team: the feature is unavailable (403);
 * otherwise the plan's cap on active records, inside the edge account's cap shared by all tenants.
 */
export function checkHostnameAllowance(limits: Pick<EffectiveLimits, 'plan' | 'maxActiveHostnames'>, counts: HostnameCounts): Result<void, PanyaError> {
  const plan = PLANS[limits.plan];
  if (!plan.customHostnames || limits.maxActiveHostnames === 0) {
    return err(
      panyaError('plan_required', {
        plan: 'business',
        message: `Custom hostnames are available from the Business plan; the ${plan.name} plan does not include them.`,
      }),
    );
  }
  if (counts.tenantActive >= limits.maxActiveHostnames) {
    return err(
      panyaError('quota_exceeded', {
        limit: limits.maxActiveHostnames,
        plan: plan.name,
        message: `The ${plan.name} plan allows ${limits.maxActiveHostnames} active custom hostname(s); remove one or upgrade.`,
      }),
    );
  }
  if (counts.accountActive >= EDGE_HOSTNAME_ACCOUNT_CAP) {
    return err(
      panyaError('quota_exceeded', {
        limit: EDGE_HOSTNAME_ACCOUNT_CAP,
        message: `The edge account has reached its cap of ${EDGE_HOSTNAME_ACCOUNT_CAP} custom hostnames; contact support.`,
      }),
    );
  }
  return ok(undefined);
}

/** Whether one more record of this tenant may serve (used by the state machine's context). */
export function mayActivate(limits: Pick<EffectiveLimits, 'plan' | 'maxActiveHostnames'>, counts: HostnameCounts): boolean {
  return checkHostnameAllowance(limits, counts).isOk();
}

const HOUR_MS = 3_600_000;
/** Spec: Verifying DNS for more than 24 hours is stale; after 7 days the operator suggests delete and re-add. */
export const STALE_AFTER_HOURS = 24;
export const READD_AFTER_DAYS = 7;

export interface HostnameHealth {
  hoursInStatus: number;
  stale: boolean;
  hint: string | null;
}

export function hostnameHealth(record: Pick<CustomHostnameRecord, 'status' | 'statusChangedAt'>, now: Date): HostnameHealth {
  const hoursInStatus = Math.max(0, (now.getTime() - Date.parse(record.statusChangedAt)) / HOUR_MS);
  const verifying = record.status === 'verifying_dns';
  const stale = verifying && hoursInStatus > STALE_AFTER_HOURS;
  const readd = verifying && hoursInStatus > READD_AFTER_DAYS * 24;
  return {
    hoursInStatus: Math.floor(hoursInStatus),
    stale,
    hint: readd
      ? 'Verifying DNS for more than 7 days: suggest the tenant deletes the hostname and adds it again.'
      : stale
        ? 'Verifying DNS for more than 24 hours (typical: 15 minutes to 4 hours): check the tenant\'s CNAME and TXT records.'
        : null,
  };
}

/** States a hostname is in before the edge ever verified it (its DNS proven to be the tenant's). */
const UNVERIFIED: readonly HostnameStatus[] = ['pending', 'verifying_dns', 'failed'];

/** Whether a record claims its hostname: only one the edge verified (active, or inactive after a downgrade). */
export function claimsHost(record: Pick<CustomHostnameRecord, 'status'>): boolean {
  return !UNVERIFIED.includes(record.status);
}

/**
 * The spec's stale rule (delete and re-add after 7 days) applied to a claim: a record that never
 * verified and has not changed state for more than 7 days is released when someone else registers
 * its hostname. A verified record (active, or inactive awaiting re-upgrade) is never released.
 */
export function releasable(record: Pick<CustomHostnameRecord, 'status' | 'statusChangedAt'>, now: Date): boolean {
  return UNVERIFIED.includes(record.status) && now.getTime() - Date.parse(record.statusChangedAt) > READD_AFTER_DAYS * 24 * HOUR_MS;
}
