import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '@panya/store-sqlite';
import { engineInternals } from '@panya/core/testing';
import { createEngine, HashEmbedder, type Generator, type GenerateRequest } from '../src/index.js';

/** Records every request; answers by echoing a phone number, as a model quoting the customer might. */
function recording(): Generator & { requests: GenerateRequest[] } {
  const requests: GenerateRequest[] = [];
  return {
    specificationVersion: 'v1',
    id: 'recording',
    requests,
    async *generate(request) {
      requests.push(request);
      yield { type: 'delta', text: 'We will call you on 081-234-5678 about [1].' };
      yield { type: 'done', usage: { inputTokens: 1, outputTokens: 1 } };
    },
  };
}

/** The hash embedder, keeping every query text it is asked to embed. */
class RecordingEmbedder extends HashEmbedder {
  // Not a `hash-` id: search weighs its vectors like a model's, so every search embeds the query.
  override readonly id = 'recording-embedder';
  readonly queries: string[] = [];
  override embedQuery(text: string, options?: Parameters<HashEmbedder['embedQuery']>[1]) {
    this.queries.push(text);
    return super.embedQuery(text, options);
  }
}

const QUESTION = 'My card 4111 1111 1111 1111 was charged twice, email me at somchai@example.co.th or call 0812345678 (ID 1103702345679)';

async function setup() {
  const generator = recording();
  const embedder = new RecordingEmbedder();
  const engine = createEngine({ store: openSqliteStore({ path: ':memory:' }), generator, embedder });
  await engine.tenancy.createTenant({ slug: 'shop', plan: 'business' });
  const ctx = (await engine.access.system('shop'))._unsafeUnwrap();
  (await engine.documents.bulk(ctx, { create: [{ title: 'Refunds', contentMd: '# Refunds\n\nA card charged twice is refunded within 7 days.', publicSurfaces: [], url: null }] }))._unsafeUnwrap();
  await engine.ingest.drain();
  return { engine, ctx, generator, embedder, store: engineInternals(engine).store };
}

async function chat(engine: Awaited<ReturnType<typeof setup>>['engine'], ctx: Awaited<ReturnType<typeof setup>>['ctx'], query: string) {
  const stream = (await engine.chat.chat(ctx, { query }))._unsafeUnwrap();
  for await (const _ of stream.events);
  return stream.conversationId;
}

describe('personal-data redaction', () => {
  it('is on for a new workspace: the stored messages, the generator and the embedder see markers only', async () => {
    const { engine, ctx, generator, embedder, store } = await setup();
    expect((await engine.privacy.get(ctx))._unsafeUnwrap()).toEqual({ redactPii: true, patterns: [], retentionDays: null });
    const conversationId = await chat(engine, ctx, QUESTION);
    const redacted = 'My card [CARD] was charged twice, email me at [EMAIL] or call [PHONE] (ID [THAI_ID])';
    expect(generator.requests[0]!.query).toBe(redacted);
    expect(embedder.queries).toContain(redacted);
    expect(embedder.queries.join('\n')).not.toMatch(/somchai|4111|0812345678|1103702345679/);
    const messages = await store.conversations.messages(ctx.scope, conversationId, 10);
    expect(messages.map((m) => [m.role, m.content])).toEqual([
      ['user', redacted],
      ['assistant', 'We will call you on [PHONE] about [1].'],
    ]);

    // A follow-up's history (what the generator is given) is the stored, redacted text.
    const stream = (await engine.chat.chat(ctx, { query: 'and my other number +66 89 876 5432?', conversationId }))._unsafeUnwrap();
    for await (const _ of stream.events);
    expect(generator.requests[1]!.query).toBe('and my other number [PHONE]?');
    expect(JSON.stringify(generator.requests[1]!.history)).not.toMatch(/somchai|4111|0812345678/);

    (await engine.answers.answer(ctx, { query: 'refund to somchai@example.co.th?' }))._unsafeUnwrap();
    expect(generator.requests[2]!.query).toBe('refund to [EMAIL]?');
    await engine.close();
  });

  it('leaves the visitor record’s e-mail as given (contact capture is not a message)', async () => {
    const { engine, ctx } = await setup();
    const conversationId = await chat(engine, ctx, 'hello');
    const visitor = (await engine.visitors.capture(ctx, conversationId, { name: 'Somchai', email: 'somchai@example.co.th' }))._unsafeUnwrap();
    expect(visitor.email).toBe('somchai@example.co.th');
    await engine.close();
  });

  it('stores text as sent in a workspace created before the setting existed, until an admin turns it on', async () => {
    const { engine, ctx, store, generator } = await setup();
    const earlier = { ...ctx, workspace: { ...ctx.workspace, privacy: null } };
    expect((await engine.privacy.get(earlier))._unsafeUnwrap().redactPii).toBe(false);
    const conversationId = await chat(engine, earlier, 'mail me at jane@example.com');
    expect((await store.conversations.messages(ctx.scope, conversationId, 10))[0]!.content).toBe('mail me at jane@example.com');
    expect(generator.requests[0]!.query).toBe('mail me at jane@example.com');
    await engine.close();
  });

  it('applies the operator’s patterns on RE2 and refuses ones it cannot run, changing nothing', async () => {
    const { engine, ctx, store } = await setup();
    const refused = (await engine.privacy.update(ctx, { patterns: [{ name: 'order', pattern: '(ORD)-\\1' }] }))._unsafeUnwrapErr();
    expect(refused.code).toBe('invalid_request');
    expect(JSON.stringify(refused)).toContain('patterns[0].pattern');
    expect((await engine.privacy.get(ctx))._unsafeUnwrap().patterns).toEqual([]);

    const updated = (await engine.privacy.update(ctx, { patterns: [{ name: 'order_no', pattern: 'ORD-[0-9]{6}' }, { name: 'nested', pattern: '(x+)+y' }], retentionDays: 30 }))._unsafeUnwrap();
    expect(updated).toMatchObject({ redactPii: true, retentionDays: 30 });
    const fresh = (await engine.access.system('shop'))._unsafeUnwrap();
    const conversationId = await chat(engine, fresh, 'Where is ORD-123456? ' + 'x'.repeat(1500));
    expect((await store.conversations.messages(ctx.scope, conversationId, 10))[0]!.content).toBe('Where is [ORDER_NO]? ' + 'x'.repeat(1500));

    // The change is in the audit log with the settings before and after.
    const [entry] = (await engine.audit.list(fresh, { type: 'workspace.privacy_updated' }))._unsafeUnwrap().data;
    expect(entry).toMatchObject({ actorKind: 'operator', subjectId: ctx.workspace.id, before: { patterns: [], retentionDays: null }, after: { retentionDays: 30, patterns: [{ name: 'order_no' }, { name: 'nested' }] } });
    await engine.close();
  });

  it('refuses a retention shorter than a week', async () => {
    const { engine, ctx } = await setup();
    expect((await engine.privacy.update(ctx, { retentionDays: 3 }))._unsafeUnwrapErr().code).toBe('invalid_request');
    await engine.close();
  });
});
