/** Conversations and messages: behaviour every store shares. */
import { describe, expect, it } from 'vitest';
import type { NewConversation, NewMessage } from '../answers/ports/conversations.js';
import type { Scope, Store } from '../ports/store.js';
import { createIds } from '../system.js';
import { seedTwoTenants } from './fixtures.js';
import { disqualifyResolution } from '../billing/resolutions.js';

const ids = createIds();

function conversation(scope: Scope, at: string, overrides: Partial<NewConversation> = {}): NewConversation {
  return { id: ids.next('conv'), tenantId: scope.tenantId, workspaceId: scope.workspaceId, locale: 'en', hasGroundedAnswer: false, hasThumbsDown: false, handedOff: false, createdAt: at, lastMessageAt: at, ...overrides };
}

function message(scope: Scope, conversationId: string, role: 'user' | 'assistant', at: string, grounded: boolean | null = null): NewMessage {
  return {
    id: ids.next('msg'),
    conversationId,
    tenantId: scope.tenantId,
    workspaceId: scope.workspaceId,
    role,
    content: `${role} at ${at}`,
    citations: grounded ? [{ n: 1, documentId: 'doc_1', chunkId: 'chk_1', title: 'T', url: null, snippet: 's' }] : [],
    grounded,
    createdAt: at,
  };
}

export function conversationsSuite(getStore: () => Store): void {
  describe('conversations', () => {
    it('stores messages in order, per workspace, and marks grounded answers', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const c = conversation(s.scopeA, '2030-01-01T10:00:00.000Z');
      await store.conversations.insert(c);
      await store.conversations.appendMessage(s.scopeA, message(s.scopeA, c.id, 'user', '2030-01-01T10:00:00.000Z'));
      const answer = message(s.scopeA, c.id, 'assistant', '2030-01-01T10:00:05.000Z', true);
      await store.conversations.appendMessage(s.scopeA, answer);
      expect((await store.conversations.messages(s.scopeA, c.id, 10)).map((m) => m.role)).toEqual(['user', 'assistant']);
      expect((await store.conversations.messages(s.scopeA, c.id, 1))[0]).toEqual({ ...answer, feedback: null });
      expect(await store.conversations.get(s.scopeA, c.id)).toMatchObject({ hasGroundedAnswer: true, lastMessageAt: '2030-01-01T10:00:05.000Z' });
      expect(await store.conversations.get(s.scopeA2, c.id)).toBeNull();
      expect(await store.conversations.get(s.scopeB, c.id)).toBeNull();
      expect(await store.conversations.messages(s.scopeB, c.id, 10)).toEqual([]);
      await expect(store.conversations.appendMessage(s.scopeB, message(s.scopeB, c.id, 'user', '2030-01-01T10:01:00.000Z'))).rejects.toThrow();
      expect(await store.conversations.messages(s.scopeA, c.id, 10)).toHaveLength(2);
    });

    it('counts billable conversations per tenant and month: grounded, no thumbs-down, no hand-off, idle', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const jan = { start: '2030-01-01T00:00:00.000Z', end: '2030-02-01T00:00:00.000Z' };
      const add = async (scope: Scope, at: string, overrides: Partial<NewConversation>) => store.conversations.insert(conversation(scope, at, overrides));
      await add(s.scopeA, '2030-01-10T10:00:00.000Z', { hasGroundedAnswer: true });
      await add(s.scopeA2, '2030-01-31T23:50:00.000Z', { hasGroundedAnswer: true }); // other workspace, same tenant
      await add(s.scopeA, '2030-01-11T10:00:00.000Z', { hasGroundedAnswer: false });
      await add(s.scopeA, '2030-01-12T10:00:00.000Z', { hasGroundedAnswer: true, hasThumbsDown: true });
      await add(s.scopeA, '2030-01-13T10:00:00.000Z', { hasGroundedAnswer: true, handedOff: true });
      await add(s.scopeA, '2030-02-01T00:00:00.000Z', { hasGroundedAnswer: true }); // next month
      await add(s.scopeB, '2030-01-10T10:00:00.000Z', { hasGroundedAnswer: true }); // other tenant
      expect(await store.conversations.countBillable(s.a.id, jan)).toBe(2);
      expect(await store.conversations.countBillable(s.a.id, jan, '2030-01-31T23:30:00.000Z')).toBe(1);
      expect(await store.conversations.countBillable(s.b.id, jan)).toBe(1);
    });

    it('lists a workspace\'s conversations newest first, filtered by hand-off, tag and activity, with a cursor', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const old = conversation(s.scopeA, '2030-01-01T10:00:00.000Z');
      const mid = conversation(s.scopeA, '2030-01-02T10:00:00.000Z');
      const recent = conversation(s.scopeA, '2030-01-03T10:00:00.000Z');
      for (const c of [old, mid, recent]) await store.conversations.insert(c);
      await store.conversations.insert(conversation(s.scopeA2, '2030-01-03T10:00:00.000Z'));
      await store.conversations.insert(conversation(s.scopeB, '2030-01-03T10:00:00.000Z'));
      const first = await store.conversations.list(s.scopeA, {}, { limit: 2 });
      expect(first.items.map((c) => c.id)).toEqual([recent.id, mid.id]);
      expect(first.nextCursor).toBe(mid.id);
      const second = await store.conversations.list(s.scopeA, {}, { limit: 2, after: first.nextCursor! });
      expect(second).toEqual({ items: [expect.objectContaining({ id: old.id, tags: [], csat: null, visitorId: null, hasUngroundedAnswer: false })], nextCursor: null });

      expect(await disqualifyResolution(store, s.scopeB, mid.id, 'ticket', new Date('2030-01-04T00:00:00.000Z'))).toBeNull();
      expect(await disqualifyResolution(store, s.scopeA, mid.id, 'ticket', new Date('2030-01-04T00:00:00.000Z'))).toBe('not_counted');
      expect(await store.conversations.get(s.scopeA, mid.id)).toMatchObject({ id: mid.id, handedOff: true, hasThumbsDown: false });
      expect((await store.conversations.list(s.scopeA, { handedOff: true }, { limit: 10 })).items.map((c) => c.id)).toEqual([mid.id]);
      expect((await store.conversations.list(s.scopeA, { handedOff: false }, { limit: 10 })).items.map((c) => c.id)).toEqual([recent.id, old.id]);
      expect(await store.conversations.updateTags(s.scopeA, old.id, { add: ['billing', 'vip'], remove: [] }, 20)).toMatchObject({ tags: ['billing', 'vip'] });
      expect((await store.conversations.list(s.scopeA, { tag: 'vip' }, { limit: 10 })).items.map((c) => c.id)).toEqual([old.id]);
      expect((await store.conversations.list(s.scopeA, { tag: 'vi' }, { limit: 10 })).items).toEqual([]);
      expect((await store.conversations.list(s.scopeA, { since: '2030-01-02T10:00:00.000Z' }, { limit: 10 })).items.map((c) => c.id)).toEqual([recent.id, mid.id]);
    });

    it('pages messages after a message, reads one by id, and records feedback in scope only', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const c = conversation(s.scopeA, '2030-01-01T10:00:00.000Z');
      await store.conversations.insert(c);
      const question = message(s.scopeA, c.id, 'user', '2030-01-01T10:00:00.000Z');
      const answer = message(s.scopeA, c.id, 'assistant', '2030-01-01T10:00:01.000Z', false);
      const followUp = message(s.scopeA, c.id, 'user', '2030-01-01T10:00:02.000Z');
      for (const m of [question, answer, followUp]) await store.conversations.appendMessage(s.scopeA, m);
      expect(await store.conversations.get(s.scopeA, c.id)).toMatchObject({ hasGroundedAnswer: false, hasUngroundedAnswer: true });
      const page = await store.conversations.messagesAfter(s.scopeA, c.id, { limit: 2 });
      expect(page.items.map((m) => m.id)).toEqual([question.id, answer.id]);
      expect(page.nextCursor).toBe(answer.id);
      expect(await store.conversations.messagesAfter(s.scopeA, c.id, { after: answer.id, limit: 2 })).toEqual({ items: [{ ...followUp, feedback: null }], nextCursor: null });
      expect((await store.conversations.messagesAfter(s.scopeA, c.id, { after: followUp.id, limit: 2 })).items).toEqual([]);
      expect((await store.conversations.messagesAfter(s.scopeA2, c.id, { limit: 10 })).items).toEqual([]);
      expect(await store.conversations.getMessage(s.scopeA, answer.id)).toEqual({ ...answer, feedback: null });
      expect(await store.conversations.getMessage(s.scopeB, answer.id)).toBeNull();
      const feedback = { rating: 'down' as const, comment: 'wrong', at: '2030-01-01T10:05:00.000Z' };
      expect(await store.conversations.setFeedback(s.scopeB, answer.id, feedback)).toBeNull();
      expect(await store.conversations.setFeedback(s.scopeA2, answer.id, feedback)).toBeNull();
      expect(await store.conversations.setFeedback(s.scopeA, answer.id, feedback)).toEqual({ ...answer, feedback });
      const up = { rating: 'up' as const, comment: null, at: '2030-01-01T10:06:00.000Z' };
      expect((await store.conversations.setFeedback(s.scopeA, answer.id, up))?.feedback).toEqual(up);
    });

    it('sets CSAT, visitor and tags atomically, in scope only', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const c = conversation(s.scopeA, '2030-01-01T10:00:00.000Z', { hasGroundedAnswer: true });
      await store.conversations.insert(c);
      const csat = { score: 4, comment: 'quick', at: '2030-01-01T11:00:00.000Z' };
      expect(await store.conversations.setCsat(s.scopeA2, c.id, csat)).toBeNull();
      expect(await store.conversations.setCsat(s.scopeA, c.id, csat)).toMatchObject({ csat });
      expect(await store.conversations.setCsat(s.scopeA, c.id, { score: 2, comment: null, at: csat.at })).toMatchObject({ csat: { score: 2, comment: null } });
      expect(await store.conversations.setVisitor(s.scopeB, c.id, 'vis_1')).toBeNull();
      expect(await store.conversations.setVisitor(s.scopeA, c.id, 'vis_1')).toMatchObject({ visitorId: 'vis_1' });
      expect((await store.conversations.updateTags(s.scopeA, c.id, { add: ['vip', 'billing', 'vip'], remove: [] }, 3)) as { tags: string[] }).toMatchObject({ tags: ['billing', 'vip'] });
      expect(await store.conversations.updateTags(s.scopeA, c.id, { add: ['a', 'b'], remove: [] }, 3)).toBe('too_many');
      expect((await store.conversations.get(s.scopeA, c.id))?.tags).toEqual(['billing', 'vip']);
      expect(await store.conversations.updateTags(s.scopeA, c.id, { add: ['a'], remove: ['vip', 'never'] }, 3)).toMatchObject({ tags: ['a', 'billing'] });
      expect(await store.conversations.updateTags(s.scopeA, c.id, { add: [], remove: ['a', 'billing'] }, 3)).toMatchObject({ tags: [] });
      expect(await store.conversations.updateTags(s.scopeB, c.id, { add: ['x'], remove: [] }, 3)).toBeNull();
      const concurrent = await Promise.all(['t1', 't2', 't3'].map((t) => store.conversations.updateTags(s.scopeA, c.id, { add: [t], remove: [] }, 20)));
      expect(concurrent.every((r) => r !== null && r !== 'too_many')).toBe(true);
      expect((await store.conversations.get(s.scopeA, c.id))?.tags).toEqual(['t1', 't2', 't3']);
    });
  });
}
