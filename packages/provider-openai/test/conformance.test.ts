import { describeEmbedderConformance, describeGeneratorConformance } from '@panya/core/testing';
import { afterAll, beforeAll } from 'vitest';
import { OpenAIEmbedder, OpenAIGenerator } from '../src/index.js';
import { startFakeOpenAI, type FakeOpenAI } from '../src/testing/index.js';

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI({ dimension: 8 });
});
afterAll(async () => {
  await fake.close();
});

describeEmbedderConformance('openai-compatible (fake server)', () => new OpenAIEmbedder({ baseUrl: fake.url, apiKey: 'sk-test', model: 'test-embed', dimension: 8, maxBatch: 4 }), { reportsUsage: true });
describeEmbedderConformance('openai-compatible, default maxBatch (fake server)', () => new OpenAIEmbedder({ baseUrl: fake.url, model: 'text-embedding-3-small', dimension: 8 }), { reportsUsage: true });
describeGeneratorConformance('openai-compatible (fake server)', () => new OpenAIGenerator({ baseUrl: fake.url, apiKey: 'sk-test', model: 'gpt-4o-mini', maxRetries: 0 }));
