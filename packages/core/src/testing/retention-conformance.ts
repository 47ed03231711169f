import { describe, expect, it } from 'vitest';
import type { Store } from '../ports/store.js';
import { createIds } from '../system.js';
import { seedTwoTenants } from './fixtures.js';

const ids = createIds();

/** Conversation retention: bounded steps, messages before conversations, billing's records kept. */
export function retentionSuite(getStore: () => Store): void {
  describe('conversation retention', () => {
    it('purges idle conversations and their messages in bounded steps, keeping what billing still needs', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const old = '2030-01-01T00:00:00.000Z';
      const recent = '2030-03-01T00:00:00.000Z';
      const cutoff = '2030-02-01T00:00:00.000Z';
      async function conversation(scope: { tenantId: string; workspaceId: string }, at: string, messages: number, flags: { hasGroundedAnswer?: boolean } = {}) {
        const id = ids.next('conv');
        await store.conversations.insert({ id, ...scope, locale: 'th', hasGroundedAnswer: flags.hasGroundedAnswer ?? false, hasThumbsDown: false, handedOff: false, createdAt: at, lastMessageAt: at });
        for (let i = 0; i < messages; i++) {
          await store.conversations.appendMessage(scope, { id: ids.next('msg'), conversationId: id, ...scope, role: i % 2 ? 'assistant' : 'user', content: `message ${i}`, citations: [], grounded: null, createdAt: at });
        }
        return id;
      }
      const expiredA = await conversation(s.scopeA, old, 3);
      const expiredB = await conversation(s.scopeA, old, 2);
      const kept = await conversation(s.scopeA, recent, 1);
      // A resolution not counted yet: kept until the detector has counted it.
      const uncounted = await conversation(s.scopeA, old, 2, { hasGroundedAnswer: true });
      // A counted resolution: the conversation goes, the resolution record (ids and period) stays.
      const counted = await conversation(s.scopeA, old, 2, { hasGroundedAnswer: true });
      const resolution = { id: ids.next('res'), tenantId: s.a.id, workspaceId: s.aDefault.id, conversationId: counted, billingPeriod: '2030-01', createdAt: old, reportedPeriod: null, refundedAt: null, correctedPeriod: null };
      expect(await store.resolutions.record(resolution)).toBe(true);
      const otherWorkspace = await conversation(s.scopeA2, old, 1);
      const otherTenant = await conversation(s.scopeB, old, 1);

      const steps: { messages: number; conversations: number }[] = [];
      for (let i = 0; i < 20; i++) {
        const step = await store.retention.purgeIdleConversations(s.scopeA, cutoff, 2);
        steps.push(step);
        expect(step.messages + step.conversations).toBeLessThanOrEqual(2);
        if (step.messages + step.conversations < 2) break;
      }
      // 7 messages then 3 conversations, two rows a step.
      expect(steps.reduce((n, st) => n + st.messages, 0)).toBe(7);
      expect(steps.reduce((n, st) => n + st.conversations, 0)).toBe(3);
      expect(steps.length).toBeGreaterThanOrEqual(5);

      for (const id of [expiredA, expiredB, counted]) expect(await store.conversations.get(s.scopeA, id)).toBeNull();
      for (const id of [kept, uncounted]) expect(await store.conversations.get(s.scopeA, id)).not.toBeNull();
      expect(await store.conversations.messages(s.scopeA, uncounted, 10)).toHaveLength(2);
      expect(await store.conversations.messages(s.scopeA, expiredA, 10)).toEqual([]);
      expect(await store.resolutions.get(s.a.id, resolution.id)).toMatchObject({ conversationId: counted, billingPeriod: '2030-01' });
      expect(await store.conversations.get(s.scopeA2, otherWorkspace)).not.toBeNull();
      expect(await store.conversations.get(s.scopeB, otherTenant)).not.toBeNull();
      expect(await store.conversations.messages(s.scopeB, otherTenant, 10)).toHaveLength(1);
    });
  });
}
