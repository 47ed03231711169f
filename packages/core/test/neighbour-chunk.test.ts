import { describe, expect, it } from 'vitest';
import { createEngine, type Generator, type GenerateRequest } from '../src/index.js';
import { openSqliteStore } from '@panya/store-sqlite';

/** A generator that keeps what it was given and answers by citing the first passage. */
function recording(): Generator & { requests: GenerateRequest[] } {
  const requests: GenerateRequest[] = [];
  return {
    specificationVersion: 'v1',
    id: 'recording',
    requests,
    async *generate(request) {
      requests.push(request);
      yield { type: 'delta', text: 'See [1].' };
      yield { type: 'done', usage: { inputTokens: 1, outputTokens: 1 } };
    },
  };
}

// 24 steps of ~20 words: two chunks (350 tokens) of the same section; only the first names the unboxing.
const steps = Array.from({ length: 24 }, (_, i) =>
  i === 0 ? '1. Unbox the Verifone device and plug it into the wall socket next to the counter, then wait until its screen lights up.' : `${i + 1}. Next, hold key ${i + 1} until the light blinks ${i + 1} times, release it and write down the code that appears on the display.`,
);
const article = `# Terminal setup\n\n## Set up the card terminal\n\n${steps.join('\n')}\n\n## Other section\n\nUnrelated text about invoices.`;

describe('answer context', () => {
  it('completes a list cut at a chunk end with the next chunk of the same section', async () => {
    const generator = recording();
    const engine = createEngine({ store: openSqliteStore({ path: ':memory:' }), generator });
    await engine.tenancy.createTenant({ slug: 'shop', plan: 'business' });
    const ctx = (await engine.access.system('shop'))._unsafeUnwrap();
    (await engine.documents.bulk(ctx, { create: [{ title: 'Terminal setup', contentMd: article, publicSurfaces: ['help_center'], url: null }] }))._unsafeUnwrap();
    await engine.ingest.drain();

    const query = 'How do I unbox the Verifone device?';
    const found = (await engine.search.search(ctx, { query, topK: 6 }))._unsafeUnwrap().results;
    // The list really is cut, and search finds only its first chunk.
    expect(found).toHaveLength(1);
    expect(found[0]!.text).not.toContain('24. Next, hold key 24');

    (await engine.answers.answer(ctx, { query }))._unsafeUnwrap();
    const [passage] = generator.requests[0]!.context;
    expect(passage!.chunkId).toBe(found[0]!.chunkId);
    expect(passage!.text).toContain('24. Next, hold key 24');
    // The overlap both chunks carry is not repeated.
    for (let n = 2; n <= 24; n++) expect(passage!.text.split(`${n}. Next, hold key ${n} `).length, `step ${n} once`).toBe(2);
    expect(passage?.text).not.toContain('Unrelated text about invoices');
    await engine.close();
  });
});
