import { describe, expect, it } from 'vitest';
import { auditEntryHash, canonicalJson, chainEntry, verifyAuditChain } from '../src/audit/chain.js';
import type { AuditEvent } from '../src/ports/store.js';

function chain(n: number): AuditEvent[] {
  const out: AuditEvent[] = [];
  for (let i = 1; i <= n; i++) {
    out.push(
      chainEntry(out.at(-1) ?? null, {
        id: `evt_${i}`,
        tenantId: 'ten_1',
        workspaceId: 'ws_1',
        type: 'document.updated',
        actor: 'usr_1',
        actorKind: 'user',
        subjectId: `doc_${i}`,
        data: { version: i },
        before: { title: `v${i - 1}` },
        after: { title: `v${i}` },
        createdAt: `2030-01-0${i}T00:00:00.000Z`,
      }),
    );
  }
  return out;
}

async function* pages(entries: AuditEvent[], size = 2) {
  for (let i = 0; i < entries.length; i += size) yield entries.slice(i, i + size);
}

describe('audit chain', () => {
  it('canonical JSON sorts keys at every level, whatever order they arrive in', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[2,{"y":2,"z":1}]},"b":1}');
    expect(canonicalJson({ a: 1, b: undefined })).toBe('{"a":1}');
  });

  it('links each entry to the one before it and verifies a whole chain across pages', async () => {
    const entries = chain(5);
    expect(entries.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(entries[0]!.prevHash).toBeNull();
    expect(entries[3]!.prevHash).toBe(entries[2]!.hash);
    expect(await verifyAuditChain(pages(entries))).toEqual({ ok: true, checked: 5, firstSeq: 1, lastSeq: 5, broken: null });
  });

  it('hashes the same entry the same way when a store returns its JSON keys in another order', () => {
    const [entry] = chain(1);
    const reordered = { ...entry!, after: { title: 'v1' }, data: JSON.parse('{"version":1}'), createdAt: '2030-01-01T00:00:00Z' };
    expect(auditEntryHash(reordered)).toBe(entry!.hash);
  });

  it('names the first entry whose content was changed', async () => {
    const entries = chain(5);
    entries[2] = { ...entries[2]!, after: { title: 'something else' } };
    expect(await verifyAuditChain(pages(entries))).toMatchObject({ ok: false, checked: 3, broken: { id: 'evt_3', seq: 3, reason: 'hash_mismatch' } });
  });

  it('names the entry after a removed one', async () => {
    const entries = chain(5);
    entries.splice(1, 1);
    expect(await verifyAuditChain(pages(entries))).toMatchObject({ ok: false, broken: { id: 'evt_3', seq: 3, reason: 'sequence_gap' } });
  });

  it('names an entry rewritten with a fresh hash that no longer names its predecessor', async () => {
    const entries = chain(4);
    const forged = { ...entries[2]!, prevHash: 'f'.repeat(64), data: { version: 99 } };
    forged.hash = auditEntryHash(forged);
    entries[2] = forged;
    expect(await verifyAuditChain(pages(entries))).toMatchObject({ ok: false, broken: { id: 'evt_3', reason: 'previous_hash_mismatch' } });
  });

  it('accepts a chain whose oldest entries were removed by retention, anchored at its first kept entry', async () => {
    const entries = chain(5).slice(2);
    expect(await verifyAuditChain(pages(entries))).toMatchObject({ ok: true, checked: 3, firstSeq: 3, lastSeq: 5 });
  });
});
