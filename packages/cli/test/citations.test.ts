/**
 * Every `[n]` an answer or a streamed chat sends maps to a chunk that was in its evidence, with
 * both generators: the extractive one, and the OpenAI-compatible one against the local fake made
 * to cite passages that do not exist and to split markers across stream pieces.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, headingAnchor, parseHelpHost, type Engine, type Generator, type Store } from '@panya/core';
import { createPanyaApp } from '@panya/adapter-express';
import { OpenAIGenerator } from '@panya/provider-openai';
import { messyCitations, startFakeOpenAI, type FakeOpenAI } from '@panya/provider-openai/testing';
import { openPostgresStore } from '@panya/store-postgres';
import { openSqliteStore } from '@panya/store-sqlite';

const HELP = 'https://help.example.test';

const CORPUS = [
  { title: 'Refunds', published: true, contentMd: '# Refunds\n\n## How long refunds take\n\nRefunds are paid back to the original payment method within 7 business days after we receive the item.\n\n## Refund fees\n\nThere is no fee for a refund of a damaged item.' },
  { title: 'Shipping', published: true, contentMd: '# Shipping\n\n## Delivery times\n\nOrders to Bangkok arrive within 1-2 business days. Orders to other provinces arrive within 2-4 business days.\n\n## Shipping costs\n\nShipping is free for orders over 1,000 baht.' },
  { title: 'Passwords', published: false, contentMd: '# Passwords\n\n## Resetting your password\n\nOpen Settings, choose Security and press Reset password. A link arrives by e-mail within 5 minutes.' },
  { title: 'Payments', published: true, contentMd: '# Payments\n\n## Payment methods\n\nWe accept PromptPay, credit cards and bank transfer. Cash on delivery is available in Bangkok only.' },
  { title: 'การคืนเงิน', published: true, contentMd: '# การคืนเงิน\n\n## ระยะเวลา\n\nลูกค้าจะได้รับเงินคืนภายใน 7 วันทำการหลังจากบริษัทได้รับสินค้าคืน' },
  { title: 'การจัดส่ง', published: false, contentMd: '# การจัดส่ง\n\n## ค่าจัดส่ง\n\nจัดส่งฟรีเมื่อสั่งซื้อครบ 1,000 บาท ส่งถึงกรุงเทพภายใน 1-2 วันทำการ' },
];

const QUESTIONS = [
  'How long do refunds take?', 'Is there a refund fee?', 'When will my order arrive in Bangkok?', 'How much is shipping?', 'How do I reset my password?',
  'Which payment methods do you accept?', 'Can I pay cash on delivery?', 'คืนเงินกี่วัน', 'ค่าจัดส่งเท่าไหร่', 'ส่งถึงกรุงเทพกี่วัน',
  'Do you take PromptPay?', 'refund damaged item fee', 'delivery to provinces', 'password reset link e-mail', 'What is the capital of France?',
  'Is shipping free?', 'bank transfer', 'How long until my money is back?', 'เงินคืนภายในกี่วัน', 'Where do I find Security settings?',
];

/** A citation marker as any client would read one: `[3]`, `[2, 5]`. */
const MARKER = /\[\s*(\d{1,3}(?:\s*,\s*\d{1,3})*)\s*\]/g;

interface Citation {
  n: number;
  documentId: string;
  chunkId: string;
  title: string;
  headingPath: string[];
  url: string | null;
  articleUrl: string | null;
  snippet: string;
}

const pgUrl = process.env.PANYA_TEST_PG;
if (!pgUrl) console.warn('Citations on PostgreSQL skipped: set PANYA_TEST_PG=postgres://… to run it.');
const STORES: { name: string; open(): Promise<{ store: Store; drop(): Promise<void> }> }[] = [
  { name: 'sqlite', open: async () => ({ store: openSqliteStore({ path: ':memory:' }), drop: async () => {} }) },
  ...(pgUrl
    ? [
        {
          name: 'postgres',
          open: async () => {
            const schema = `panya_cite_${randomBytes(6).toString('hex')}`;
            const store = await openPostgresStore({ connectionString: pgUrl, schema });
            return {
              store,
              drop: async () => {
                const admin = await openPostgresStore({ connectionString: pgUrl, schema });
                await admin.pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
                await admin.close();
              },
            };
          },
        },
      ]
    : []),
];

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI({ answer: (_req, n) => messyCitations(n) });
});
afterAll(async () => {
  await fake.close();
});

async function serve(store: Store, generator?: Generator) {
  const engine = createEngine({ store, helpHost: parseHelpHost(HELP), ...(generator ? { generator } : {}) });
  const server: Server = createPanyaApp(engine).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const created = (await engine.tenancy.createTenant({ slug: 'acme', plan: 'business', quotas: { queriesPerDay: 100_000, perKeyPerHour: 100_000 } }))._unsafeUnwrap();
  const key = (await engine.apiKeys.create(created.tenant.id, { scopes: ['read', 'write'] }))._unsafeUnwrap().key;
  const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
  const post = async (path: string, body: object) => {
    const res = await fetch(`${base}/api${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    return { status: res.status, text: await res.text() };
  };
  const docs = new Map<string, { title: string; published: boolean }>();
  for (const doc of CORPUS) {
    const res = await post('/docs?wait=true', { title: doc.title, contentMd: doc.contentMd, publicSurfaces: doc.published ? ['help_center'] : [] });
    expect(res.status).toBe(201);
    docs.set(JSON.parse(res.text).id, doc);
  }
  return { engine, server, post, docs };
}

function sse(text: string): { event: string; data: any }[] {
  return text
    .split('\n\n')
    .map((block) => ({ event: /^event: (.*)$/m.exec(block)?.[1], data: /^data: (.*)$/m.exec(block)?.[1] }))
    .filter((e): e is { event: string; data: string } => Boolean(e.event && e.data))
    .map((e) => ({ event: e.event, data: JSON.parse(e.data) }));
}

describe.each(STORES)('citations on $name', (storeCase) => {
  let opened: Awaited<ReturnType<(typeof STORES)[number]['open']>>;
  let engine: Engine;
  let server: Server;
  afterAll(async () => {
    server?.close();
    await engine?.close();
    await opened?.drop();
  });

  const generators: [string, () => Generator | undefined][] = [
    ['extractive', () => undefined],
    ['openai-compatible', () => new OpenAIGenerator({ baseUrl: fake.url, model: 'gpt-4o-mini', apiKey: 'sk-test', maxRetries: 0 })],
  ];
  it.each(generators)('100 %s answers and chats cite only passages of their evidence, with section and article links', async (_name, generator) => {
    server?.close();
    await engine?.close();
    await opened?.drop();
    opened = await storeCase.open();
    const served = await serve(opened.store, generator());
    ({ engine, server } = served);
    const { post, docs } = served;
    let markers = 0;
    let cited = 0;

    const check = async (query: string, text: string, citations: Citation[]) => {
      const evidence = JSON.parse((await post('/search', { query, topK: 6 })).text).results.map((r: { chunkId: string }) => r.chunkId);
      const shown = new Set(citations.map((c) => c.n));
      // Numbered 1..k in order, each a chunk the answer was given.
      expect([...shown]).toEqual(citations.map((_, i) => i + 1));
      for (const match of text.matchAll(MARKER)) {
        markers++;
        for (const n of match[1]!.split(',').map((d) => Number(d.trim()))) expect(shown, `${query}: dangling [${n}] in ${JSON.stringify(text)}`).toContain(n);
      }
      expect(text).not.toMatch(/\[\s*\d*\s*,?\s*$/); // no half marker left at the end
      for (const c of citations) {
        cited++;
        expect(evidence).toContain(c.chunkId);
        const doc = docs.get(c.documentId)!;
        expect(c.title).toBe(doc.title);
        expect(c.headingPath.length).toBeGreaterThan(0);
        if (doc.published) {
          // A section below the title is linked by its anchor; the title itself is the page.
          expect(c.articleUrl).toBe(`${HELP}/acme/articles/${c.documentId}${c.headingPath.length > 1 ? `#${headingAnchor(c.headingPath.at(-1)!)}` : ''}`);
        } else expect(c.articleUrl).toBeNull();
      }
    };

    for (let i = 0; i < 70; i++) {
      const query = QUESTIONS[i % QUESTIONS.length]!;
      const res = await post('/answer', { query });
      expect(res.status).toBe(200);
      const body = JSON.parse(res.text) as { answer: string; citations: Citation[] };
      await check(query, body.answer, body.citations);
    }
    for (let i = 0; i < 30; i++) {
      const query = QUESTIONS[(i * 7) % QUESTIONS.length]!;
      const res = await post('/chat', { query });
      expect(res.status).toBe(200);
      const events = sse(res.text);
      const text = events.filter((e) => e.event === 'delta').map((e) => e.data.text as string).join('');
      await check(query, text, events.filter((e) => e.event === 'citation').map((e) => e.data));
      expect(events.at(-1)!.event).toBe('done');
    }
    // The run exercised markers and citations, not empty answers.
    expect(markers).toBeGreaterThan(50);
    expect(cited).toBeGreaterThan(50);
  });
});
