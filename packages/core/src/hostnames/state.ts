/**
 * The custom hostname state machine, exactly the spec's table:
 *
 *   (none)  --POST-->                      Pending   (registration requested, TXT generated)
 *   Pending --registration completes-->    Verifying DNS
 *   Verifying DNS --edge sees CNAME+TXT, TLS issued--> Active
 *   Pending | Verifying DNS --verification/TLS fails--> Failed (verification_error stored)
 *   Active  --plan drops below Business-->  inactive (301 to the help host)
 *   inactive --re-upgrade-->                Active (same record)
 *   any     --status re-read-->             whatever the edge says (row updated)
 *
 * Pure: the service reads the edge and the plan, this decides the next record.
 */
import type { EdgeObservation, EdgeRegistration, OwnershipRecord } from './ports/edge.js';
import type { CustomHostnameRecord, HostnameStatus } from './ports/record.js';

export type HostnameEvent =
  /** The registration call for a Pending record returned. */
  | { type: 'registration'; result: EdgeRegistration }
  /** A status re-read (tenant's check, or the scheduled poll). */
  | { type: 'observed'; observation: EdgeObservation }
  /** The tenant's plan changed (or its hostname quota did). */
  | { type: 'plan_changed' };

export interface TransitionContext {
  now: string;
  /**
   * Whether this record may serve: the plan allows custom hostnames and an active slot is free for
   * it (or it already holds one). A verified hostname that may not serve is inactive.
   */
  mayBeActive: boolean;
}

function withStatus(record: CustomHostnameRecord, status: HostnameStatus, now: string): CustomHostnameRecord {
  return status === record.status ? record : { ...record, status, statusChangedAt: now };
}

function withOwnership(record: CustomHostnameRecord, ownership: OwnershipRecord | undefined): CustomHostnameRecord {
  return ownership ? { ...record, txtName: ownership.name, txtValue: ownership.value } : record;
}

function applyObservation(record: CustomHostnameRecord, observation: EdgeObservation, ctx: TransitionContext): CustomHostnameRecord {
  if (observation.state === 'unknown') return record; // an outage never fails a hostname
  const seen = withOwnership({ ...record, lastCheckedAt: ctx.now }, observation.ownership);
  switch (observation.state) {
    case 'verifying': {
      // A downgraded hostname stays inactive whatever the edge says; its problem is still recorded.
      const status = record.status === 'inactive' ? 'inactive' : 'verifying_dns';
      return withStatus(
        { ...seen, verificationError: observation.problem?.cause ?? null, verificationDetail: observation.problem?.detail ?? null },
        status,
        ctx.now,
      );
    }
    case 'active':
      return withStatus({ ...seen, verificationError: null, verificationDetail: null }, ctx.mayBeActive ? 'active' : 'inactive', ctx.now);
    case 'failed': {
      const status = record.status === 'inactive' ? 'inactive' : 'failed';
      return withStatus({ ...seen, verificationError: observation.problem.cause, verificationDetail: observation.problem.detail }, status, ctx.now);
    }
  }
}

export function transition(record: CustomHostnameRecord, event: HostnameEvent, ctx: TransitionContext): CustomHostnameRecord {
  const next = step(record, event, ctx);
  return next === record ? record : { ...next, updatedAt: ctx.now };
}

function step(record: CustomHostnameRecord, event: HostnameEvent, ctx: TransitionContext): CustomHostnameRecord {
  switch (event.type) {
    case 'registration': {
      if (record.status !== 'pending' || record.edgeHostnameId) return record;
      const result = event.result;
      if (result.outcome === 'unavailable') return { ...record, lastCheckedAt: ctx.now }; // retried by the poll
      if (result.outcome === 'refused') {
        return withStatus(
          { ...record, lastCheckedAt: ctx.now, verificationError: result.problem.cause, verificationDetail: result.problem.detail },
          'failed',
          ctx.now,
        );
      }
      return applyObservation({ ...record, edgeHostnameId: result.edgeHostnameId }, result.observation, ctx);
    }
    case 'observed':
      // A Pending record without an edge id has nothing to re-read: it waits for registration.
      if (!record.edgeHostnameId) return record;
      return applyObservation(record, event.observation, ctx);
    case 'plan_changed':
      if (record.status === 'active' && !ctx.mayBeActive) return withStatus(record, 'inactive', ctx.now);
      // Re-upgrade reactivates the same record; one the edge stopped verifying meanwhile goes back to verifying.
      if (record.status === 'inactive' && ctx.mayBeActive) return withStatus(record, record.verificationError ? 'verifying_dns' : 'active', ctx.now);
      return record;
  }
}
