import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LexicalIndex, lexicalFields, type LexicalDoc } from '../src/index.js';
import { audienceOverrides, encodeSegment, LexicalSegment, liveMask, mergeSegments, planSegmentMerge, SegmentedIndex, type SegmentPart } from '../src/search/lexical-segment.js';
import { searchTerms } from '../src/text/query.js';

// shared/ sits beside the repository checkout, or PANYA_SHARED_DIR.
const shared = process.env.PANYA_SHARED_DIR ?? resolve(fileURLToPath(import.meta.url), '../../../../../shared');
const corpusPath = join(shared, 'eval/scifact/corpus.jsonl');
const inCi = !!process.env.CI && process.env.CI !== 'false' && process.env.CI !== '0';
const present = existsSync(corpusPath);
if (!present && !inCi) console.warn(`SciFact ranking-equality test skipped: corpus not found at ${corpusPath} (set PANYA_SHARED_DIR to the shared/ folder to run it).`);

const lines = (file: string, n: number) =>
  readFileSync(join(shared, file), 'utf8')
    .split('\n')
    .filter(Boolean)
    .slice(0, n)
    .map((l) => JSON.parse(l) as { _id: string; title?: string; text: string });

const toDoc = (id: string, title: string, text: string): LexicalDoc => {
  const { lexicalTitle, lexicalBody } = lexicalFields(title, [], text);
  return { id, title: lexicalTitle, body: lexicalBody };
};

/** Chunks split into segments as ingest writes them, with replacements and deletions masked by later changes. */
function segmented(docs: LexicalDoc[], replaced: LexicalDoc[], deleted: string[], per = 37) {
  const stored: { seq: number; data: Uint8Array }[] = [];
  let seq = 0;
  for (let at = 0; at < docs.length; at += per) stored.push({ seq: ++seq, data: encodeSegment(docs.slice(at, at + per)) });
  // A replacement masks the old version (then writes its segment); a deletion after it masks both.
  const deletions = replaced.map((d) => ({ chunkId: d.id, seq: ++seq }));
  if (replaced.length > 0) stored.push({ seq: ++seq, data: encodeSegment(replaced) });
  seq++;
  for (const chunkId of deleted) deletions.push({ chunkId, seq });
  return stored.map((s) => {
    const segment = new LexicalSegment(s.data);
    return { segment, live: liveMask(segment, s.seq, deletions) } satisfies SegmentPart;
  });
}

function reference(docs: LexicalDoc[], replaced: LexicalDoc[], deleted: string[]) {
  const index = new LexicalIndex();
  for (const d of docs) index.upsert(d);
  for (const d of replaced) index.upsert(d);
  for (const id of deleted) index.remove(id);
  return index;
}

function expectSameRankings(queries: string[], docs: LexicalDoc[], replaced: LexicalDoc[], deleted: string[]) {
  const one = reference(docs, replaced, deleted);
  const parts = segmented(docs, replaced, deleted);
  const many = new SegmentedIndex(parts);
  const merged = new SegmentedIndex([{ segment: new LexicalSegment(mergeSegments(parts)), live: new Uint8Array(one.size).fill(1) }]);
  expect(many.size).toBe(one.size);
  let hits = 0;
  for (const q of queries) {
    const query = searchTerms(q);
    const expected = one.search(query, 10);
    hits += expected.length;
    // Exactly equal: the same chunks, in the same order, with bit-identical scores.
    expect(many.search(query, 10)).toEqual(expected);
    expect(merged.search(query, 10)).toEqual(expected);
  }
  expect(hits).toBeGreaterThan(queries.length);
}

describe('lexical segments', () => {
  it('rank a generated corpus exactly as one in-memory index, across segments, masks and merges', () => {
    const words = ['refund', 'policy', 'shipping', 'delivery', 'gift', 'card', 'expire', 'account', 'password', 'reset', 'invoice', 'plan', 'การคืนเงิน', 'สินค้า', 'จัดส่ง'];
    let state = 7;
    const rand = (n: number) => ((state = (state * 1103515245 + 12345) & 0x7fffffff) % n);
    const sentence = (n: number) => Array.from({ length: n }, () => words[rand(words.length)]).join(' ');
    const docs = Array.from({ length: 300 }, (_, i) => toDoc(`c${i}`, sentence(3), sentence(20 + rand(60))));
    const replaced = docs.filter((_, i) => i % 11 === 0).map((d) => toDoc(d.id, sentence(2), sentence(30)));
    const deleted = docs.filter((_, i) => i % 13 === 5).map((d) => d.id);
    expectSameRankings(Array.from({ length: 60 }, () => sentence(1 + rand(5))), docs, replaced, deleted);
  });

  it.skipIf(!present && !inCi)('rank SciFact abstracts exactly as one in-memory index', () => {
    const docs = lines('eval/scifact/corpus.jsonl', 1200).map((d) => toDoc(d._id, d.title ?? '', d.text));
    const replaced = docs.slice(100, 140).map((d, i) => toDoc(d.id, `revised ${i}`, docs[i]!.body));
    const deleted = docs.slice(500, 560).map((d) => d.id);
    const queries = lines('eval/scifact/queries.jsonl', 300).map((q) => q.text);
    expectSameRankings(queries, docs, replaced, deleted);
  }, 180_000);

  it('reads a segment from any byte offset (a driver may return a buffer inside a larger pool)', () => {
    const data = encodeSegment([toDoc('a', 'Refund policy', 'Refunds within 30 days.')]);
    const pooled = new Uint8Array(data.length + 3);
    pooled.set(data, 3);
    const segment = new LexicalSegment(pooled.subarray(3));
    expect(segment.ids).toEqual(['a']);
    expect(new SegmentedIndex([{ segment, live: new Uint8Array([1]) }]).search(searchTerms('refund'), 5).map((h) => h.chunkId)).toEqual(['a']);
  });

  it('keep a copy of the bytes read, beside the decoded arrays: the read buffer can go', () => {
    const docs = [toDoc('a', 'Refund policy', 'Refunds within 30 days of delivery.'), toDoc('b', 'Shipping', 'Parcels ship within two days.')];
    const read = encodeSegment(docs);
    const segment = new LexicalSegment(read);
    const index = new SegmentedIndex([{ segment, live: liveMask(segment, 1, []) }]);
    const before = index.search(searchTerms('refund delivery'), 5);
    expect(before.map((h) => h.chunkId)).toEqual(['a']);
    // The driver's buffer reused for the next row: the loaded segment is untouched.
    read.fill(0);
    expect(index.search(searchTerms('refund delivery'), 5)).toEqual(before);
    expect(new SegmentedIndex([{ segment, live: liveMask(segment, 1, []) }]).search(searchTerms('shipping'), 5).map((h) => h.chunkId)).toEqual(['b']);
  });

  it('merge by tier: ten segments of the smallest full tier, else the segment masked the most past half', () => {
    const seg = (id: number, chunks: number, dead = 0) => ({ id, chunks, dead });
    // Nine one-document segments wait; the tenth makes the tier merge.
    const small = Array.from({ length: 9 }, (_, i) => seg(i, 3));
    expect(planSegmentMerge([seg(100, 500), ...small])).toEqual([]);
    expect(planSegmentMerge([seg(100, 500), ...small, seg(9, 4)])).toEqual([...small.map((s) => s.id), 9]);
    // Tiers count live chunks: a 40-chunk segment with 35 masked sits in the 1–9 tier.
    expect(planSegmentMerge([...small, seg(50, 40, 35)])).toEqual([...small.map((s) => s.id), 50]);
    // The 10–99 tier merges before a larger one, and a half-masked segment is rewritten alone.
    const tens = Array.from({ length: 10 }, (_, i) => seg(200 + i, 20));
    const hundreds = Array.from({ length: 10 }, (_, i) => seg(300 + i, 200));
    expect(planSegmentMerge([...hundreds, ...tens])).toEqual(tens.map((s) => s.id));
    expect(planSegmentMerge([seg(1, 100, 40), seg(2, 100, 70), seg(3, 1000, 600)])).toEqual([2]);
    expect(planSegmentMerge([seg(1, 100, 50)])).toEqual([]);
  });

  it('filter restricted readers inside the ranking exactly as one in-memory index, audience changes included', () => {
    const words = ['refund', 'policy', 'shipping', 'delivery', 'gift', 'card', 'expire', 'account', 'password', 'reset'];
    let state = 11;
    const rand = (n: number) => ((state = (state * 1103515245 + 12345) & 0x7fffffff) % n);
    const sentence = (n: number) => Array.from({ length: n }, () => words[rand(words.length)]).join(' ');
    const lists = [['public'], ['internal'], ['partners', 'internal'], [], ['public', 'partners']];
    // "refund" sits mostly in internal chunks: its document frequency differs per reader.
    const docs = Array.from({ length: 240 }, (_, i) => {
      const d = toDoc(`c${i}`, sentence(2), `${i % 4 === 1 ? 'refund ' : ''}${sentence(15 + rand(30))}`);
      return i % 17 === 3 ? d : { ...d, audiences: lists[i % lists.length]! };
    });
    // Later: some documents change audiences (recorded after the segments), some chunks are deleted.
    const changes = docs.filter((_, i) => i % 7 === 2).map((d, i) => ({ chunkId: d.id, seq: 100 + i, audiences: lists[(i + 2) % lists.length]! }));
    const deleted = new Set(docs.filter((_, i) => i % 19 === 4).map((d) => d.id));
    const deletions = [...deleted].map((chunkId) => ({ chunkId, seq: 200 }));

    const one = new LexicalIndex();
    for (const d of docs) one.upsert(d);
    for (const c of changes) one.upsert({ ...docs.find((d) => d.id === c.chunkId)!, audiences: c.audiences });
    for (const id of deleted) one.remove(id);
    const parts: SegmentPart[] = [];
    for (let at = 0, seq = 1; at < docs.length; at += 50, seq++) {
      const segment = new LexicalSegment(encodeSegment(docs.slice(at, at + 50)));
      parts.push({ segment, live: liveMask(segment, seq, deletions), audiences: audienceOverrides(segment, seq, changes) });
    }
    const many = new SegmentedIndex(parts);
    const merged = new SegmentedIndex([{ segment: new LexicalSegment(mergeSegments(parts)), live: new Uint8Array(one.size).fill(1) }]);
    const readers = [null, ['public'], ['partners'], ['internal'], ['public', 'partners'], ['nobody']];
    let compared = 0;
    for (let q = 0; q < 40; q++) {
      const query = searchTerms(q % 3 === 0 ? `refund ${sentence(2)}` : sentence(1 + rand(4)));
      for (const reader of readers) {
        const expected = one.search(query, 10, reader);
        if (reader?.[0] === 'nobody') expect(expected).toEqual([]);
        compared += expected.length;
        expect(many.search(query, 10, reader)).toEqual(expected);
        expect(merged.search(query, 10, reader)).toEqual(expected);
      }
    }
    expect(compared).toBeGreaterThan(200);
    // Document frequencies are the reader's: the same chunk scores differently for another audience set.
    const refund = searchTerms('refund');
    const asPublic = many.search(refund, 500, ['public']);
    const asAll = many.search(refund, 500);
    const shared = asPublic.find((h) => asAll.some((a) => a.chunkId === h.chunkId))!;
    expect(shared.score).not.toBe(asAll.find((a) => a.chunkId === shared.chunkId)!.score);
    // A changed chunk is read with its new audiences only.
    const moved = changes.find((c) => !deleted.has(c.chunkId) && c.audiences.length === 0)!;
    const old = docs.find((d) => d.id === moved.chunkId)!;
    expect(old.audiences?.length ?? 0).toBeGreaterThan(0);
    for (const reader of readers.slice(1)) expect(many.search(searchTerms(old.body), 240, reader).some((h) => h.chunkId === moved.chunkId)).toBe(false);
  });

  it('read a segment of the previous format (PLS2) with the same rankings, and write it back in the compact one, less than half its size', () => {
    const fixture = JSON.parse(readFileSync(join(fileURLToPath(import.meta.url), '../fixtures/segment-pls2.json'), 'utf8')) as { docs: LexicalDoc[]; data: string };
    const old = new Uint8Array(Buffer.from(fixture.data, 'base64'));
    expect(LexicalSegment.readable(old)).toBe(true);
    expect(LexicalSegment.current(old)).toBe(false);
    const segment = new LexicalSegment(old);
    const live = new Uint8Array(segment.size).fill(1);
    const rewritten = mergeSegments([{ segment, live }]);
    expect(LexicalSegment.current(rewritten)).toBe(true);
    expect(rewritten.byteLength * 2).toBeLessThan(old.byteLength);
    expect(rewritten).toEqual(encodeSegment(fixture.docs));
    const one = new LexicalIndex();
    for (const d of fixture.docs) one.upsert(d);
    let hits = 0;
    for (const q of ['refund policy', 'gift card expire', 'reset password', 'สินค้า', 'invoice plan shipping'])
      for (const reader of [null, ['public']]) {
        const expected = one.search(searchTerms(q), 10, reader);
        hits += expected.length;
        expect(new SegmentedIndex([{ segment, live }]).search(searchTerms(q), 10, reader)).toEqual(expected);
        expect(new SegmentedIndex([{ segment: new LexicalSegment(rewritten), live }]).search(searchTerms(q), 10, reader)).toEqual(expected);
      }
    expect(hits).toBeGreaterThan(10);
    // The merge policy rewrites such a segment once nothing else is due.
    expect(planSegmentMerge([{ id: 1, chunks: 40, dead: 0 }, { id: 2, chunks: 40, dead: 0, outdated: true }])).toEqual([2]);
    expect(planSegmentMerge([{ id: 1, chunks: 40, dead: 0 }])).toEqual([]);
  });

  it('tell segments of an older format apart (they are rebuilt, not read)', () => {
    const data = encodeSegment([toDoc('a', 'Refund', 'Refunds.')]);
    expect(LexicalSegment.readable(data)).toBe(true);
    const old = data.slice();
    new DataView(old.buffer).setInt32(0, 0x504c5331, true);
    expect(LexicalSegment.readable(old)).toBe(false);
    expect(() => new LexicalSegment(old)).toThrow(/version/);
  });
});
