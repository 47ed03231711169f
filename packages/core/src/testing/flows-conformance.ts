/** Guided flows and their runs: behaviour every store shares. */
import { describe, expect, it } from 'vitest';
import type { FlowRecord, FlowRunRecord } from '../support/ports/flows.js';
import type { Scope, Store } from '../ports/store.js';
import { createIds } from '../system.js';
import { seedTwoTenants } from './fixtures.js';

const ids = createIds();
const at = (n: number) => `2030-01-01T00:00:0${n}.000Z`;

const flow = (scope: Scope, name: string): FlowRecord => ({ id: ids.next('flow'), ...scope, name, steps: [{ title: 'Ask', instructions: null }, { title: 'Answer', instructions: 'Cite the policy.' }], createdAt: at(1), updatedAt: at(1) });
const run = (scope: Scope, flowId: string): FlowRunRecord => ({ id: ids.next('frun'), ...scope, flowId, conversationId: null, status: 'started', draft: null, createdAt: at(2), draftedAt: null, completedAt: null });

export function flowsSuite(getStore: () => Store): void {
  describe('guided flows', () => {
    it('keeps flows per workspace: create, list, update, delete', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const a = flow(s.scopeA, 'Refund request');
      await store.flows.insert(a);
      await store.flows.insert(flow(s.scopeA2, 'Other brand'));
      expect(await store.flows.get(s.scopeA, a.id)).toEqual(a);
      expect(await store.flows.get(s.scopeA2, a.id)).toBeNull();
      expect(await store.flows.get(s.scopeB, a.id)).toBeNull();
      expect((await store.flows.list(s.scopeA)).map((f) => f.name)).toEqual(['Refund request']);
      expect(await store.flows.update(s.scopeB, a.id, { name: 'x', updatedAt: at(3) })).toBeNull();
      expect(await store.flows.update(s.scopeA, a.id, { steps: [{ title: 'Only', instructions: null }], updatedAt: at(3) })).toEqual({ ...a, steps: [{ title: 'Only', instructions: null }], updatedAt: at(3) });
      expect(await store.flows.delete(s.scopeB, a.id)).toBe(false);
      expect(await store.flows.delete(s.scopeA, a.id)).toBe(true);
      expect(await store.flows.get(s.scopeA, a.id)).toBeNull();
    });

    it('a run is drafted, then completed exactly once; a completed run keeps its draft', async () => {
      const store = getStore();
      const s = await seedTwoTenants(store);
      const f = flow(s.scopeA, 'Refund request');
      await store.flows.insert(f);
      const r = run(s.scopeA, f.id);
      await store.flows.insertRun(r);
      expect(await store.flows.getRun(s.scopeB, r.id)).toBeNull();
      expect(await store.flows.completeRun(s.scopeA, r.id, at(3))).toBe(false); // no draft yet
      expect(await store.flows.draftRun(s.scopeB, r.id, 'x', at(3))).toBeNull();
      expect(await store.flows.draftRun(s.scopeA, r.id, 'Dear customer', at(3))).toMatchObject({ status: 'drafted', draft: 'Dear customer', draftedAt: at(3) });
      const attempts = await Promise.all([store.flows.completeRun(s.scopeA, r.id, at(4)), store.flows.completeRun(s.scopeA, r.id, at(5))]);
      expect(attempts.filter(Boolean)).toHaveLength(1);
      expect(await store.flows.completeRun(s.scopeA, r.id, at(6))).toBe(false);
      expect(await store.flows.draftRun(s.scopeA, r.id, 'changed', at(7))).toMatchObject({ status: 'completed', draft: 'Dear customer' });
    });
  });
}
