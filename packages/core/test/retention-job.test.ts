import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '@panya/store-sqlite';
import { engineInternals } from '@panya/core/testing';
import { createEngine } from '../src/index.js';

const DAY = 86_400_000;

describe('retention job', () => {
  it('purges conversations past the workspace’s retention and audit entries past the plan’s, leaving a chain that verifies', async () => {
    let now = Date.parse('2030-01-01T00:00:00.000Z');
    const engine = createEngine({ store: openSqliteStore({ path: ':memory:' }), clock: { now: () => new Date(now) } });
    await engine.tenancy.createTenant({ slug: 'shop', plan: 'free' });
    const ctx = (await engine.access.system('shop'))._unsafeUnwrap();
    const chat = async (query: string) => {
      const stream = (await engine.chat.chat((await engine.access.system('shop'))._unsafeUnwrap(), { query }))._unsafeUnwrap();
      for await (const _ of stream.events);
      return stream.conversationId;
    };
    const first = await chat('an early question');
    (await engine.privacy.update(ctx, { retentionDays: 30 }))._unsafeUnwrap();
    now += 20 * DAY;
    const second = await chat('a later question');
    now += 15 * DAY; // first: 35 days idle, second: 15
    const run = (await engine.jobs.run('retention', {}))._unsafeUnwrap();
    expect(run).toMatchObject({ ran: true, summary: { conversations: { workspaces: 1, conversationsPurged: 1, messagesPurged: 2, done: true } } });
    const { store } = engineInternals(engine);
    expect(await store.conversations.get(ctx.scope, first)).toBeNull();
    expect(await store.conversations.get(ctx.scope, second)).not.toBeNull();

    // Free keeps audit entries 30 days, but a tenant's newest entry always stays (the chain goes on from it).
    expect((run as unknown as { summary: { auditEntriesPurged: number } }).summary.auditEntriesPurged).toBe(0);
    (await engine.privacy.update((await engine.access.system('shop'))._unsafeUnwrap(), { retentionDays: 60 }))._unsafeUnwrap();
    const again = (await engine.jobs.run('retention', {}))._unsafeUnwrap() as unknown as { summary: { auditEntriesPurged: number } };
    expect(again.summary.auditEntriesPurged).toBe(1);
    // The kept tail (#2 on) still verifies, anchored at its first entry.
    expect(await engine.audit.verify(ctx.tenant.id)).toMatchObject({ ok: true, checked: 1, firstSeq: 2, lastSeq: 2 });
    await engine.close();
  });
});
