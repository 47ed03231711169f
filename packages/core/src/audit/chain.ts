/**
 * The tenant's audit chain: entries numbered 1, 2, 3… per tenant, each carrying the SHA-256 of
 * the one before it and its own SHA-256 over its canonical JSON. Changing, removing or inserting
 * an entry breaks every hash after it; `verifyAuditChain` names the first entry that does not fit.
 */
import { createHash } from 'node:crypto';
import type { AuditEvent } from '../ports/store.js';

/**
 * JSON with object keys sorted at every level and no whitespace: one byte sequence per value,
 * whatever order a store returns JSON keys in. Undefined object members are left out, like JSON.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** The fields a hash covers: everything but the hash itself. Times are normalised to ISO form. */
function hashed(entry: AuditEvent): Record<string, unknown> {
  return {
    id: entry.id,
    tenantId: entry.tenantId,
    workspaceId: entry.workspaceId,
    seq: entry.seq,
    type: entry.type,
    actor: entry.actor,
    actorKind: entry.actorKind,
    subjectId: entry.subjectId,
    data: entry.data,
    before: entry.before,
    after: entry.after,
    createdAt: new Date(entry.createdAt).toISOString(),
    prevHash: entry.prevHash,
  };
}

export function auditEntryHash(entry: AuditEvent): string {
  return createHash('sha256').update(canonicalJson(hashed(entry))).digest('hex');
}

/** What a caller records; the chain fields are filled in by `chainEntry`. */
export type AuditDraft = Omit<AuditEvent, 'seq' | 'prevHash' | 'hash'>;

/** The next entry of a tenant's chain after `last` (null: the chain's first entry). */
export function chainEntry(last: AuditEvent | null, draft: AuditDraft): AuditEvent {
  const entry: AuditEvent = { ...draft, seq: (last?.seq ?? 0) + 1, prevHash: last?.hash ?? null, hash: '' };
  entry.hash = auditEntryHash(entry);
  return entry;
}

export type ChainBreak = {
  id: string;
  seq: number | null;
  reason: 'hash_mismatch' | 'previous_hash_mismatch' | 'sequence_gap';
};

export interface ChainVerification {
  ok: boolean;
  /** Entries checked. */
  checked: number;
  /** The chain's first kept entry: older ones were removed by the plan's audit retention. */
  firstSeq: number | null;
  lastSeq: number | null;
  /** The first entry that does not fit; null when the chain is whole. */
  broken: ChainBreak | null;
}

/**
 * Walks a tenant's entries in sequence order (as pages from the store) and reports the first
 * that does not fit: its own hash does not match its content, it does not name its
 * predecessor's hash, or a number is missing. Entries written before the chain existed (no
 * sequence number) come first and are skipped; the first chained entry anchors the check (the
 * plan's retention removes the oldest entries, so the chain may start after 1).
 */
export async function verifyAuditChain(pages: AsyncIterable<AuditEvent[]>): Promise<ChainVerification> {
  let previous: AuditEvent | null = null;
  let checked = 0;
  let firstSeq: number | null = null;
  for await (const page of pages) {
    for (const entry of page) {
      if (entry.seq === null) continue;
      checked++;
      firstSeq ??= entry.seq;
      const fail = (reason: ChainBreak['reason']): ChainVerification => ({ ok: false, checked, firstSeq, lastSeq: previous?.seq ?? null, broken: { id: entry.id, seq: entry.seq, reason } });
      if (auditEntryHash(entry) !== entry.hash) return fail('hash_mismatch');
      if (previous) {
        if (entry.seq !== previous.seq! + 1) return fail('sequence_gap');
        if (entry.prevHash !== previous.hash) return fail('previous_hash_mismatch');
      }
      previous = entry;
    }
  }
  return { ok: true, checked, firstSeq, lastSeq: previous?.seq ?? null, broken: null };
}
