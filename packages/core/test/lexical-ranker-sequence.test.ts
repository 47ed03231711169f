import { describe, expect, it } from 'vitest';
import { encodeSegment, LexicalRanker, type LexicalSource, type LexicalSourceDoc } from '@panya/core';

/** A store's lexical source holding one segment per write, counting what a search reads. */
function segmentedSource() {
  const docs: LexicalSourceDoc[] = [{ id: 'c1', title: 'refund', body: 'refund take seven day' }];
  const stored = [{ id: 1, seq: 1, data: encodeSegment(docs) }];
  const reads = { version: 0, segments: 0 };
  let seq = 1;
  const src: LexicalSource = {
    version: async () => (reads.version++, { seq, floor: 0 }),
    load: async () => [],
    changes: async () => ({ upserts: [], removed: [] }),
    segments: async (_scope, known) => (reads.segments++, { seq, segments: stored.map((s) => ({ ...s, data: known.has(s.id) ? null : s.data })), deletions: [], audiences: [] }),
  };
  const write = (doc: LexicalSourceDoc) => stored.push({ id: stored.length + 1, seq: ++seq, data: encodeSegment([doc]) });
  return { src, reads, write, seq: () => seq };
}

const scope = { tenantId: 't', workspaceId: 'w' };
const query = (seq?: number) => ({ terms: ['refund'], pairs: [] as [string, string][], ...(seq === undefined ? {} : { seq }) });

describe('a search that read its tenant sequence already', () => {
  it('is answered from the cached index without reading the sequence again, and still sees a newer write', async () => {
    const { src, reads, write, seq } = segmentedSource();
    const ranker = new LexicalRanker(src);
    expect((await ranker.search(scope, query(), 5)).map((h) => h.chunkId)).toEqual(['c1']);
    const before = { ...reads };
    // The request's sequence equals the cached index's: nothing read.
    await ranker.search(scope, query(seq()), 5);
    expect(reads).toEqual(before);
    // Without it, the ranker reads the sequence itself.
    await ranker.search(scope, query(), 5);
    expect(reads.version).toBe(before.version + 1);
    // A write moves the sequence: a request that read the new one loads the new segment.
    write({ id: 'c2', title: 'refund', body: 'refund to the card' });
    expect((await ranker.search(scope, query(seq()), 5)).map((h) => h.chunkId).sort()).toEqual(['c1', 'c2']);
    expect(reads.segments).toBe(before.segments + 1);
  });
});
