/** The question log, gap snapshots and feedback: behaviour every store shares. */
import { describe, expect, it } from 'vitest';
import type { FeedbackRecord, QuestionRecord } from '../insights/ports/insights.js';
import type { Scope, Store } from '../ports/store.js';
import { makeDocument, seedTwoTenants } from './fixtures.js';

let seq = 0;
const EPOCH = '1970-01-01T00:00:00.000Z';
function question(scope: Scope, overrides: Partial<QuestionRecord> = {}): QuestionRecord {
  seq++;
  return {
    id: `qst_${String(seq).padStart(8, '0')}`,
    ...scope,
    question: `question ${seq}`,
    source: 'chat',
    outcome: 'refused',
    topScore: 0.0325,
    groundedSentences: 0,
    sentences: 1,
    conversationId: null,
    messageId: null,
    citations: [],
    thumbsDown: false,
    handedOff: false,
    createdAt: `2026-03-01T10:00:${String(seq % 60).padStart(2, '0')}.000Z`,
    ...overrides,
  };
}

function feedback(scope: Scope, messageId: string, overrides: Partial<FeedbackRecord> = {}): FeedbackRecord {
  seq++;
  return {
    id: `fb_${String(seq).padStart(8, '0')}`,
    ...scope,
    messageId,
    conversationId: 'conv_1',
    rating: 'down',
    comment: null,
    question: 'q',
    citations: [{ documentId: 'doc_1', chunkId: 'chk_1', documentVersion: '2026-03-01T00:00:00.000Z', addressedAt: null }],
    createdAt: '2026-03-02T00:00:00.000Z',
    updatedAt: '2026-03-02T00:00:00.000Z',
    ...overrides,
  };
}

export function insightsSuite(getStore: () => Store): void {
  describe('question log and content gaps', () => {
    it('reads a window’s gap questions in slices, oldest first, within one workspace', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const at = (n: number) => `2026-03-0${n}T00:00:00.000Z`;
      const kept = [question(s.scopeA, { createdAt: at(2), outcome: 'low_evidence', topScore: null }), question(s.scopeA, { createdAt: at(2) }), question(s.scopeA, { createdAt: at(3), outcome: 'answered', thumbsDown: true, citations: [{ documentId: 'd', chunkId: 'c', documentVersion: 'v' }] })];
      const others = [question(s.scopeA, { createdAt: at(3), outcome: 'answered' }), question(s.scopeA, { createdAt: at(1) }), question(s.scopeA, { createdAt: at(5) }), question(s.scopeA2, { createdAt: at(2) }), question(s.scopeB, { createdAt: at(2) })];
      for (const q of [...others, ...kept].reverse()) await store.questions.record(q);
      const window = { since: at(2), until: at(4) };
      const first = await store.questions.gapQuestions(s.scopeA, window, { limit: 2 });
      expect(first).toEqual(kept.slice(0, 2).sort((x, y) => x.id.localeCompare(y.id)));
      const rest = await store.questions.gapQuestions(s.scopeA, window, { limit: 2, after: first[1]! });
      expect(rest).toEqual([kept[2]]);
    });

    it('reads the versions of a workspace’s documents', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const doc = makeDocument(s.a.id, s.aDefault.id, { updatedAt: '2026-03-04T05:06:07.089Z' });
      await store.documents.insert(doc);
      expect(await store.questions.documentVersions(s.scopeA, [doc.id, 'doc_missing'])).toEqual(new Map([[doc.id, '2026-03-04T05:06:07.089Z']]));
      expect((await store.questions.documentVersions(s.scopeA2, [doc.id])).size).toBe(0);
      expect((await store.questions.documentVersions(s.scopeA, [])).size).toBe(0);
    });

    it('marks the questions of an answer or a conversation', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const a = question(s.scopeA, { outcome: 'answered', messageId: 'msg_a', conversationId: 'conv_a' });
      const b = question(s.scopeA, { outcome: 'answered', messageId: 'msg_b', conversationId: 'conv_a' });
      for (const q of [a, b]) await store.questions.record(q);
      expect(await store.questions.mark(s.scopeB, { messageId: 'msg_a' }, { thumbsDown: true })).toBe(0);
      expect(await store.questions.mark(s.scopeA, { messageId: 'msg_a' }, { thumbsDown: true })).toBe(1);
      expect(await store.questions.byMessage(s.scopeA, 'msg_a')).toEqual({ ...a, thumbsDown: true });
      expect(await store.questions.mark(s.scopeA, { conversationId: 'conv_a' }, { handedOff: true })).toBe(2);
      expect(await store.questions.byMessage(s.scopeA, 'msg_b')).toMatchObject({ handedOff: true, thumbsDown: false });
    });

    it('queues a recomputation once, keeps a request made during one, and stores the result', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      expect(await store.questions.getGaps(s.scopeA, '30d')).toBeNull();
      await store.questions.requestGaps(s.scopeA, '30d', '2026-03-01T00:00:00.000Z', EPOCH);
      await store.questions.requestGaps(s.scopeA, '30d', '2026-03-01T00:05:00.000Z', EPOCH);
      await store.questions.requestGaps(s.scopeB, '7d', '2026-03-01T00:01:00.000Z', EPOCH);
      expect(await store.questions.pendingGapRequests(10)).toEqual([
        { tenantId: s.a.id, workspaceId: s.aDefault.id, period: '30d', requestedAt: '2026-03-01T00:00:00.000Z' },
        { tenantId: s.b.id, workspaceId: s.bDefault.id, period: '7d', requestedAt: '2026-03-01T00:01:00.000Z' },
      ]);
      expect(await store.questions.pendingGapRequests(10, s.b.id)).toHaveLength(1);
      const clusters = [{ id: 'g1', count: 3, examples: ['ร้านมีที่จอดรถไหม'] }];
      await store.questions.saveGaps(s.scopeA, { period: '30d', computedAt: '2026-03-01T00:02:00.000Z', questions: 3, clusters }, '2026-03-01T00:00:00.000Z');
      expect(await store.questions.getGaps(s.scopeA, '30d')).toEqual({ period: '30d', computedAt: '2026-03-01T00:02:00.000Z', questions: 3, clusters, requestedAt: null });
      // A read that saw no fresh result but comes after the save asks for nothing.
      await store.questions.requestGaps(s.scopeA, '30d', '2026-03-01T00:03:00.000Z', '2026-03-01T00:01:00.000Z');
      expect(await store.questions.getGaps(s.scopeA, '30d')).toMatchObject({ requestedAt: null });
      // A request made after the computation started stays pending.
      await store.questions.requestGaps(s.scopeA, '30d', '2026-03-01T00:10:00.000Z', '2026-03-01T00:09:00.000Z');
      await store.questions.saveGaps(s.scopeA, { period: '30d', computedAt: '2026-03-01T00:11:00.000Z', questions: 4, clusters }, '2026-03-01T00:09:00.000Z');
      expect(await store.questions.getGaps(s.scopeA, '30d')).toMatchObject({ questions: 4, requestedAt: '2026-03-01T00:10:00.000Z' });
      expect(await store.questions.getGaps(s.scopeA2, '30d')).toBeNull();
    });
  });

  describe('feedback', () => {
    it('replaces a message’s feedback, filters and pages it, and keeps it to its workspace', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const first = feedback(s.scopeA, 'msg_1', { comment: 'wrong' });
      await store.feedback.upsert(first);
      await store.feedback.upsert(feedback(s.scopeA, 'msg_2', { rating: 'up', citations: [{ documentId: 'doc_2', chunkId: 'chk_9', documentVersion: 'v1', addressedAt: null }], updatedAt: '2026-03-05T00:00:00.000Z' }));
      await store.feedback.upsert(feedback(s.scopeB, 'msg_3'));
      // Feedback given again on msg_1: same record, new rating and passages.
      await store.feedback.upsert(feedback(s.scopeA, 'msg_1', { comment: 'still wrong', citations: [{ documentId: 'doc_1', chunkId: 'chk_2', documentVersion: 'v2', addressedAt: null }] }));
      const all = await store.feedback.list(s.scopeA, {}, { limit: 10 });
      expect(all.items.map((f) => f.messageId)).toEqual(['msg_2', 'msg_1']);
      expect(all.items[1]).toMatchObject({ id: first.id, comment: 'still wrong', citations: [{ documentId: 'doc_1', chunkId: 'chk_2', documentVersion: 'v2', addressedAt: null }] });
      expect((await store.feedback.list(s.scopeA, { rating: 'down' }, { limit: 10 })).items.map((f) => f.messageId)).toEqual(['msg_1']);
      expect((await store.feedback.list(s.scopeA, { hasComment: false }, { limit: 10 })).items.map((f) => f.messageId)).toEqual(['msg_2']);
      expect((await store.feedback.list(s.scopeA, { documentId: 'doc_2' }, { limit: 10 })).items.map((f) => f.messageId)).toEqual(['msg_2']);
      expect((await store.feedback.list(s.scopeA, { since: '2026-03-04T00:00:00.000Z' }, { limit: 10 })).items.map((f) => f.messageId)).toEqual(['msg_2']);
      const paged = await store.feedback.list(s.scopeA, {}, { limit: 1 });
      expect(paged.nextCursor).not.toBeNull();
      expect((await store.feedback.list(s.scopeA, {}, { limit: 1, after: paged.nextCursor! })).items.map((f) => f.messageId)).toEqual(['msg_1']);
      expect((await store.feedback.list(s.scopeA2, {}, { limit: 10 })).items).toEqual([]);
    });

    it('counts a document’s chunks that drew thumbs-down and marks them addressed by an edit', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const passage = (chunkId: string) => ({ documentId: 'doc_1', chunkId, documentVersion: 'v1', addressedAt: null });
      await store.feedback.upsert(feedback(s.scopeA, 'msg_1', { citations: [passage('chk_1'), passage('chk_2')] }));
      await store.feedback.upsert(feedback(s.scopeA, 'msg_2', { citations: [passage('chk_1')], updatedAt: '2026-03-03T00:00:00.000Z' }));
      await store.feedback.upsert(feedback(s.scopeA, 'msg_3', { rating: 'up', citations: [passage('chk_2')] }));
      await store.feedback.upsert(feedback(s.scopeB, 'msg_4', { citations: [passage('chk_1')] }));
      expect(await store.feedback.negativeChunks(s.scopeA, 'doc_1', 10)).toEqual([
        { chunkId: 'chk_1', documentVersion: 'v1', negative: 2, lastAt: '2026-03-03T00:00:00.000Z', addressed: 0 },
        { chunkId: 'chk_2', documentVersion: 'v1', negative: 1, lastAt: '2026-03-02T00:00:00.000Z', addressed: 0 },
      ]);
      expect(await store.feedback.markAddressed(s.scopeA, 'doc_1', '2026-03-04T00:00:00.000Z')).toBe(4);
      expect(await store.feedback.markAddressed(s.scopeA, 'doc_1', '2026-03-05T00:00:00.000Z')).toBe(0);
      expect((await store.feedback.negativeChunks(s.scopeA, 'doc_1', 10))[0]).toMatchObject({ chunkId: 'chk_1', addressed: 2 });
      expect((await store.feedback.list(s.scopeA, { rating: 'down' }, { limit: 10 })).items[0]!.citations[0]!.addressedAt).toBe('2026-03-04T00:00:00.000Z');
      expect(await store.feedback.negativeChunks(s.scopeB, 'doc_1', 10)).toMatchObject([{ chunkId: 'chk_1', negative: 1, addressed: 0 }]);
    });
  });
}
