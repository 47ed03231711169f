import type { ServerResponse } from 'node:http';
import { NO_ANSWER, countWordTokens, type GenerateRequest, type GeneratorEvent } from '@panya/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OpenAIGenerator } from '../src/index.js';
import { chatChunk as chunk, sendCompletion as completion, sendError, startFakeOpenAI, streamChat, type ChatBody, type FakeOpenAI, type FakeOpenAIRequest } from '../src/testing/index.js';

type Recorded = FakeOpenAIRequest & { body: ChatBody };
type Handler = (req: Recorded, res: ServerResponse, n: number) => void | Promise<void>;

const PIECES = ['Orders to other provinces ', 'take 3–5 business days', ' [2].'];

const streamAnswer = (res: ServerResponse, pieces = PIECES, opts: { usage?: boolean; done?: boolean } = {}) => streamChat(res, pieces, opts);
const apiError = (res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) => sendError(res, status, message, { type: 'server_error', headers });

let fake: FakeOpenAI;
let baseUrl: string;
let requests: Recorded[];
const handle = (handler: Handler) => fake.handle((req, res, n) => handler(req as Recorded, res, n));

beforeAll(async () => {
  fake = await startFakeOpenAI({ answer: PIECES });
  baseUrl = fake.url;
  requests = fake.requests as Recorded[];
});

afterAll(async () => {
  await fake.close();
});

beforeEach(() => {
  fake.reset();
});

const make = (extra: Partial<ConstructorParameters<typeof OpenAIGenerator>[0]> = {}) =>
  new OpenAIGenerator({ apiKey: 'sk-test', baseUrl, model: 'gpt-4o-mini', ...extra });

const REQUEST: GenerateRequest = {
  query: 'How long does delivery to the provinces take?',
  locale: 'en',
  context: [
    { n: 1, chunkId: 'c1', documentId: 'd1', title: 'Returns policy', headingPath: ['Returns'], text: 'You can return items within 30 days.' },
    { n: 2, chunkId: 'c2', documentId: 'd2', title: 'Shipping', headingPath: ['Delivery', 'Provinces'], text: 'Deliveries to other provinces take 3–5 business days.' },
  ],
  history: [
    { role: 'user', content: 'Do you deliver outside Bangkok?' },
    { role: 'assistant', content: 'Yes, we deliver nationwide [2].' },
  ],
};

async function collect(iterable: AsyncIterable<GeneratorEvent>) {
  const events: GeneratorEvent[] = [];
  for await (const e of iterable) events.push(e);
  return { events, text: events.map((e) => (e.type === 'delta' ? e.text : '')).join('') };
}

describe('OpenAIGenerator.generate', () => {
  it('streams the answer as deltas and reports the usage of the final chunk', async () => {
    const gen = make();
    expect(gen.id).toBe('openai:gpt-4o-mini');
    const { events, text } = await collect(gen.generate(REQUEST));
    expect(text).toBe(PIECES.join(''));
    expect(events.filter((e) => e.type === 'delta').map((e) => (e.type === 'delta' ? e.text : ''))).toEqual(PIECES);
    expect(events.at(-1)).toEqual({ type: 'done', usage: { inputTokens: 321, outputTokens: 17 } });
  });

  it('sends a grounded, streamed chat request with history and numbered passages', async () => {
    await collect(make({ maxTokens: 500 }).generate(REQUEST));
    expect(requests).toHaveLength(1);
    const { url, headers, body } = requests[0]!;
    expect(url).toBe('/v1/chat/completions');
    expect(headers.authorization).toBe('Bearer sk-test');
    expect(body).toMatchObject({ model: 'gpt-4o-mini', stream: true, stream_options: { include_usage: true }, temperature: 0.1, max_tokens: 500 });

    const [system, ...rest] = body.messages;
    expect(system!.role).toBe('system');
    expect(system!.content).toMatch(/ONLY the numbered passages/);
    expect(system!.content).toMatch(/never invent a number/i);
    expect(system!.content).toContain(NO_ANSWER.en);
    expect(system!.content).toMatch(/Answer in English/);

    // Old citation numbers are dropped from earlier answers: they referred to other passages.
    expect(rest.slice(0, 2)).toEqual([
      { role: 'user', content: 'Do you deliver outside Bangkok?' },
      { role: 'assistant', content: 'Yes, we deliver nationwide.' },
    ]);
    const user = rest[2]!;
    expect(rest).toHaveLength(3);
    expect(user.role).toBe('user');
    expect(user.content).toContain('[1] Returns policy — Returns\nYou can return items within 30 days.');
    expect(user.content).toContain('[2] Shipping — Delivery > Provinces\nDeliveries to other provinces take 3–5 business days.');
    expect(user.content.indexOf('[1]')).toBeLessThan(user.content.indexOf('[2]'));
    expect(user.content).toMatch(/Question: How long does delivery to the provinces take\?$/);
  });

  it('asks for Thai and the Thai no-answer sentence when the locale is th', async () => {
    await collect(make().generate({ ...REQUEST, locale: 'th', history: [] }));
    const system = requests[0]!.body.messages[0]!.content;
    expect(system).toContain(NO_ANSWER.th);
    expect(system).not.toContain(NO_ANSWER.en);
    expect(system).toMatch(/Answer in Thai/);
    expect(requests[0]!.body.messages).toHaveLength(2);
    expect(requests[0]!.headers.authorization).toBe('Bearer sk-test');
  });

  it('puts a workspace persona\'s name, tone and instructions in the system prompt, before the grounding rules', async () => {
    await collect(make().generate({ ...REQUEST, persona: { name: 'Nok', tone: 'warm and polite', instructions: 'Address the customer as khun.' } }));
    const system = requests[0]!.body.messages[0]!.content as string;
    expect(system).toContain('You speak as "Nok".');
    expect(system).toContain('Tone: warm and polite.');
    expect(system).toContain('Address the customer as khun.');
    expect(system.indexOf('Address the customer')).toBeLessThan(system.indexOf('ONLY the numbered passages'));
    expect(system).toMatch(/never override the rules/);
    await collect(make().generate(REQUEST));
    expect(requests[1]!.body.messages[0]!.content).not.toContain('You speak as');
  });

  it('estimates usage when the server reports none and omits [DONE]', async () => {
    handle((_req, res) => streamAnswer(res, PIECES, { usage: false, done: false }));
    const { events, text } = await collect(make({ apiKey: undefined }).generate(REQUEST));
    const done = events.at(-1)!;
    if (done.type !== 'done') throw new Error('expected done last');
    expect(done.usage.outputTokens).toBe(countWordTokens(text));
    expect(done.usage.inputTokens).toBeGreaterThan(countWordTokens(REQUEST.query));
    expect(requests[0]!.headers.authorization).toBeUndefined();
  });

  it('retries a 429 before the stream starts', async () => {
    handle((_req, res, n) => (n === 1 ? apiError(res, 429, 'Rate limit reached', { 'retry-after': '0' }) : streamAnswer(res)));
    const { text, events } = await collect(make().generate(REQUEST));
    expect(requests).toHaveLength(2);
    expect(text).toBe(PIECES.join(''));
    expect(events.filter((e) => e.type === 'done')).toHaveLength(1);
  });

  it('gives up with the API message after maxRetries', async () => {
    handle((_req, res) => apiError(res, 503, 'The engine is currently overloaded'));
    await expect(collect(make({ maxRetries: 1 }).generate(REQUEST))).rejects.toThrow(/HTTP 503.*overloaded.*gave up after 2 attempts/);
    expect(requests).toHaveLength(2);
    // Core turns it into 503 upstream_unavailable: worth retrying.
    await expect(collect(make({ maxRetries: 0 }).generate(REQUEST))).rejects.toMatchObject({ name: 'UpstreamError', provider: 'openai:gpt-4o-mini', transient: true });
  });

  it('does not retry a client error', async () => {
    handle((_req, res) => apiError(res, 400, "This model's maximum context length is 128000 tokens."));
    await expect(collect(make().generate(REQUEST))).rejects.toThrow(/HTTP 400.*maximum context length/);
    expect(requests).toHaveLength(1);
    await expect(collect(make().generate(REQUEST))).rejects.toMatchObject({ name: 'UpstreamError', transient: false });
  });

  it('fails, without retrying, when the server breaks off after the stream began', async () => {
    handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk({ role: 'assistant', content: '' }) + chunk({ content: 'Orders to other ' }));
      setImmediate(() => res.socket!.destroy());
    });
    const seen: GeneratorEvent[] = [];
    const run = async () => {
      for await (const e of make().generate(REQUEST)) seen.push(e);
    };
    await expect(run()).rejects.toThrow(/broke off/);
    expect(seen).toEqual([{ type: 'delta', text: 'Orders to other ' }]);
    expect(requests).toHaveLength(1);
  });

  it('fails on an error event inside a 200 stream, without retrying', async () => {
    handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk({ content: 'Orders ' }));
      res.end(`data: ${JSON.stringify({ error: { message: 'The server had an error while processing your request.', type: 'server_error' } })}\n\n`);
    });
    await expect(collect(make().generate(REQUEST))).rejects.toThrow(/server had an error while processing/);
    expect(requests).toHaveLength(1);
  });

  it('closes the HTTP connection when the caller aborts mid-stream', async () => {
    handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk({ content: 'Orders to other ' }));
      // and never ends: only the client can close this
    });
    const controller = new AbortController();
    const seen: GeneratorEvent[] = [];
    for await (const e of make().generate({ ...REQUEST, signal: controller.signal })) {
      seen.push(e);
      controller.abort();
    }
    expect(seen).toEqual([{ type: 'delta', text: 'Orders to other ' }]);
    await requests[0]!.closedEarly;
  });

  it('closes the HTTP connection when the consumer stops reading', async () => {
    handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk({ content: 'Orders to other ' }));
    });
    for await (const e of make().generate(REQUEST)) {
      expect(e.type).toBe('delta');
      break;
    }
    await requests[0]!.closedEarly;
  });

  it('times out a server that never answers', async () => {
    handle(() => undefined);
    await expect(collect(make({ timeoutMs: 100, maxRetries: 0 }).generate(REQUEST))).rejects.toThrow(/timed out/);
  });
});

describe('OpenAIGenerator.condense', () => {
  it('asks for a standalone query in the same language and returns the trimmed text', async () => {
    handle((_req, res) => completion(res, '  How long does delivery to the provinces take?\n'));
    const out = await make().condense('and for provinces?', [
      { role: 'user', content: 'How long does shipping take to Bangkok?' },
      { role: 'assistant', content: 'Delivery within Bangkok takes 1–2 business days [2].' },
    ]);
    expect(out).toBe('How long does delivery to the provinces take?');
    const { body } = requests[0]!;
    expect(body.stream).toBeUndefined();
    expect(body.model).toBe('gpt-4o-mini');
    expect(body.messages[0]!.role).toBe('system');
    expect(body.messages[0]!.content).toMatch(/standalone/);
    expect(body.messages[0]!.content).toMatch(/language of the follow-up/);
    const user = body.messages[1]!.content;
    expect(user).toContain('User: How long does shipping take to Bangkok?');
    expect(user).toContain('Assistant: Delivery within Bangkok takes 1–2 business days [2].');
    expect(user).toMatch(/Follow-up question: and for provinces\?$/);
  });

  it('keeps the query when there is no history to resolve it against', async () => {
    expect(await make().condense('แล้วต่างจังหวัดล่ะ', [])).toBe('แล้วต่างจังหวัดล่ะ');
    expect(requests).toHaveLength(0);
  });

  it('retries a 500 on a non-streaming call', async () => {
    handle((_req, res, n) => (n === 1 ? apiError(res, 500, 'boom') : completion(res, 'ค่าส่งต่างจังหวัดเท่าไหร่')));
    expect(await make().condense('แล้วต่างจังหวัดล่ะ', [{ role: 'user', content: 'ค่าส่งในกรุงเทพเท่าไหร่' }])).toBe('ค่าส่งต่างจังหวัดเท่าไหร่');
    expect(requests).toHaveLength(2);
  });
});

describe('OpenAIGenerator.contextualize', () => {
  it('asks for a short situating context and returns the trimmed prefix with usage', async () => {
    handle((_req, res) => completion(res, '\nThis chunk is from the Shipping policy, section on delivery times to provinces. ', { prompt_tokens: 812, completion_tokens: 19 }));
    const result = await make().contextualize({
      documentTitle: 'Shipping policy',
      documentText: '# Shipping\n## Bangkok\nDelivery within Bangkok takes 1–2 business days.\n## Provinces\nDeliveries to other provinces take 3–5 business days.',
      chunkText: 'Deliveries to other provinces take 3–5 business days.',
    });
    expect(result).toEqual({
      prefix: 'This chunk is from the Shipping policy, section on delivery times to provinces.',
      usage: { inputTokens: 812, outputTokens: 19 },
    });
    const { body } = requests[0]!;
    expect(body.stream).toBeUndefined();
    expect(body.messages[0]!.content).toMatch(/1–2 sentences/);
    expect(body.messages[0]!.content).toMatch(/situate the chunk within the document/);
    const user = body.messages[1]!.content;
    expect(user).toContain('<document title="Shipping policy">');
    expect(user).toContain('## Provinces');
    expect(user).toContain('<chunk>\nDeliveries to other provinces take 3–5 business days.\n</chunk>');
  });

  it('cuts an over-long document but keeps the part around the chunk', async () => {
    handle((_req, res) => completion(res, 'Context.'));
    const filler = (tag: string) => Array.from({ length: 400 }, (_, i) => `${tag}${i}`).join(' ');
    const chunkText = 'The warranty covers battery defects for 24 months.';
    await make({ maxDocumentChars: 3000 }).contextualize({
      documentTitle: 'Warranty',
      documentText: `Warranty terms. ${filler('a')}\n${filler('b')}\n${chunkText}\n${filler('c')}`,
      chunkText,
    });
    const user = requests[0]!.body.messages[1]!.content;
    expect(user).toContain('Warranty terms.');
    expect(user.split('<chunk>')[0]).toContain(chunkText);
    expect(user.length).toBeLessThan(3000 + 2 * chunkText.length + 200);
  });
});
