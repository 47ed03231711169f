/** Conversations and messages: behaviour every store shares. */
import { describe, expect, it } from 'vitest';
import type { ConversationRecord, MessageRecord } from '../ports/conversations.js';
import type { Scope, Store } from '../ports/store.js';
import { createIds } from '../system.js';
import { seedTwoTenants } from './fixtures.js';

const ids = createIds();

function conversation(scope: Scope, at: string, overrides: Partial<ConversationRecord> = {}): ConversationRecord {
  return { id: ids.next('conv'), tenantId: scope.tenantId, workspaceId: scope.workspaceId, locale: 'en', hasGroundedAnswer: false, hasThumbsDown: false, handedOff: false, createdAt: at, lastMessageAt: at, ...overrides };
}

function message(scope: Scope, conversationId: string, role: 'user' | 'assistant', at: string, grounded: boolean | null = null): MessageRecord {
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
      expect((await store.conversations.messages(s.scopeA, c.id, 1))[0]).toEqual(answer);
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
      const add = async (scope: Scope, at: string, overrides: Partial<ConversationRecord>) => store.conversations.insert(conversation(scope, at, overrides));
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
  });
}
