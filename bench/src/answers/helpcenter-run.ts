/**
 * The help-center answer benchmark: the articles of `helpcenter-en.ts` / `helpcenter-th.ts` in an
 * in-memory engine per generator (default `hash` embedder), every case of `helpcenter-cases.ts`
 * asked through `answers.answer` without a `locale` (the question's language decides). Measured on
 * the same retrieved passages in the same run:
 *
 * - the extractive generator (default options, and the variants its thresholds were chosen from:
 *   Thai grouping, relevance threshold, how close a sentence stating the asked-for kind of fact
 *   must score to be quoted first);
 * - "first sentence": the first sentence of the top-ranked chunk;
 * - "top chunk truncated": the top-ranked chunk cut to the extractive generator's budget;
 * - the OpenAI-compatible generator against the local fake server: its answers are canned, so only
 *   the prompt is judged (do the passages sent hold the facts; which language is asked for; its size).
 */
import { createEngine, ExtractiveGenerator, type Engine, type Generator, type RequestContext } from '@panya/core';
import { OpenAIGenerator } from '@panya/provider-openai';
import { startFakeOpenAI, type ChatBody } from '@panya/provider-openai/testing';
import { openSqliteStore } from '@panya/store-sqlite';
import { helpCenterCases, type CaseType, type HelpCenterCase } from './helpcenter-cases.js';
import { helpCenterEn } from './helpcenter-en.js';
import { helpCenterTh } from './helpcenter-th.js';

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
const sentences = new Intl.Segmenter('en', { granularity: 'sentence' });
const length = (text: string) => [...graphemes.segment(text)].length;
const isThai = (text: string) => /[\u0E00-\u0E7F]/u.test(text);

export interface Variant {
  name: string;
  /** Facts covered, per language, answerable cases only. */
  en: Score;
  th: Score;
  byType: Record<string, { cases: number; correct: number }>;
  misses: string[];
}

interface Score {
  answerable: number;
  factsCovered: number;
  unanswerable: number;
  refused: number;
  /** Of the answerable ones: wrongly refused. */
  refusedAnswerable: number;
  medianChars: number;
  p90Chars: number;
  maxChars: number;
}

interface Row {
  c: HelpCenterCase;
  answer: string;
  grounded: boolean;
}

function covers(c: HelpCenterCase, answer: string): boolean {
  return (c.expect ?? []).every((alternatives) => alternatives.some((a) => answer.includes(a)));
}

function quantile(values: number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

function score(name: string, rows: Row[]): Variant {
  const of = (locale: 'en' | 'th'): Score => {
    const mine = rows.filter((r) => r.c.locale === locale);
    const answerable = mine.filter((r) => !r.c.none);
    const unanswerable = mine.filter((r) => r.c.none);
    const lengths = answerable.filter((r) => r.grounded).map((r) => length(r.answer.replace(/\s*\[\d+\]/g, '')));
    return {
      answerable: answerable.length,
      factsCovered: answerable.filter((r) => r.grounded && covers(r.c, r.answer)).length,
      unanswerable: unanswerable.length,
      refused: unanswerable.filter((r) => !r.grounded).length,
      refusedAnswerable: answerable.filter((r) => !r.grounded).length,
      medianChars: quantile(lengths, 0.5),
      p90Chars: quantile(lengths, 0.9),
      maxChars: Math.max(0, ...lengths),
    };
  };
  const byType: Variant['byType'] = {};
  for (const r of rows) {
    const t = (byType[r.c.type] ??= { cases: 0, correct: 0 });
    t.cases++;
    if (r.c.none ? !r.grounded : r.grounded && covers(r.c, r.answer)) t.correct++;
  }
  const misses = rows.filter((r) => (r.c.none ? r.grounded : !(r.grounded && covers(r.c, r.answer)))).map((r) => `${r.c.id} ${r.c.query} → ${r.answer.replace(/\n/g, ' ').slice(0, 200)}`);
  return { name, en: of('en'), th: of('th'), byType, misses };
}

async function helpCenterEngine(generator?: Generator): Promise<{ engine: Engine; ctx: RequestContext }> {
  const engine = createEngine({ store: openSqliteStore({ path: ':memory:' }), ...(generator ? { generator } : {}) });
  const tenant = (await engine.tenancy.createTenant({ slug: 'cafe', plan: 'business' }))._unsafeUnwrap();
  void tenant;
  const ctx = (await engine.access.system('cafe'))._unsafeUnwrap();
  const create = [...helpCenterEn, ...helpCenterTh].map((a) => ({ title: a.title, contentMd: a.contentMd, publicSurfaces: ['help_center' as const], url: null }));
  (await engine.documents.bulk(ctx, { create }))._unsafeUnwrap();
  await engine.ingest.drain();
  return { engine, ctx };
}

async function ask(engine: Engine, ctx: RequestContext, query: string) {
  const r = (await engine.answers.answer(ctx, { query }))._unsafeUnwrap().value;
  return { answer: r.answer, grounded: r.grounded };
}

/** Markdown of a chunk as the plain text a naive quote would show. */
function plain(markdown: string): string {
  return markdown
    .split('\n')
    .filter((line) => !/^\s*(#|\|\s*-)/.test(line))
    .map((line) => line.replace(/^\s*(?:\d+\.|[-*])\s+/, '').replace(/\*\*/g, '').replace(/\|/g, ' '))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function firstSentence(text: string): string {
  for (const { segment } of sentences.segment(text)) if (segment.trim()) return segment.trim();
  return '';
}

function truncated(text: string): string {
  if (!isThai(text)) return text.split(/\s+/).slice(0, 80).join(' ');
  return [...graphemes.segment(text)].slice(0, 300).map((g) => g.segment).join('');
}

export async function runHelpCenter(log: (line: string) => void) {
  const variants: Variant[] = [];
  const extractive: [string, ExtractiveGenerator | undefined][] = [
    ['extractive (default)', undefined],
    ['extractive, Thai split at every space', new ExtractiveGenerator({ thaiGrouping: 'every-space' })],
    ['extractive, Thai runs never split', new ExtractiveGenerator({ thaiGrouping: 'whole-run' })],
    ['extractive, relevance threshold 0.3', new ExtractiveGenerator({ minRelevance: 0.3 })],
    ['extractive, relevance threshold 0.7', new ExtractiveGenerator({ minRelevance: 0.7 })],
    ['extractive, a sentence stating the asked-for kind first at any score', new ExtractiveGenerator({ kindSwap: 0 })],
    ['extractive, a sentence stating the asked-for kind first within 0.85 of the best', new ExtractiveGenerator({ kindSwap: 0.85 })],
  ];
  for (const [name, generator] of extractive) {
    const { engine, ctx } = await helpCenterEngine(generator);
    const rows: Row[] = [];
    const first: Row[] = [];
    const cut: Row[] = [];
    for (const c of helpCenterCases) {
      rows.push({ c, ...(await ask(engine, ctx, c.query)) });
      if (generator) continue;
      const top = (await engine.search.search(ctx, { query: c.query, topK: 1 }))._unsafeUnwrap().results[0];
      const text = top ? plain(top.text) : '';
      first.push({ c, answer: firstSentence(text), grounded: Boolean(top) });
      cut.push({ c, answer: truncated(text), grounded: Boolean(top) });
    }
    await engine.close();
    variants.push(score(name, rows));
    if (!generator) {
      for (const r of rows) log(`${(r.c.none ? !r.grounded : r.grounded && covers(r.c, r.answer)) ? 'ok  ' : 'MISS'} ${r.c.id}: ${r.answer.replace(/\n/g, ' ').slice(0, 220)}`);
      variants.push(score('baseline: first sentence of the top chunk', first), score('baseline: top chunk truncated', cut));
    }
  }

  // The OpenAI-compatible generator, against the local fake: what it is sent.
  const fake = await startFakeOpenAI({ answer: ['See the passages [1].'] });
  const { engine, ctx } = await helpCenterEngine(new OpenAIGenerator({ baseUrl: fake.url, model: 'fake-model', maxRetries: 0 }));
  const prompt = { en: { answerable: 0, factsInPrompt: 0, askedInQuestionLanguage: 0, cases: 0, promptChars: [] as number[] }, th: { answerable: 0, factsInPrompt: 0, askedInQuestionLanguage: 0, cases: 0, promptChars: [] as number[] } };
  for (const c of helpCenterCases) {
    fake.reset();
    await ask(engine, ctx, c.query);
    const body = fake.requests.find((r) => r.url === '/v1/chat/completions')?.body as ChatBody | undefined;
    const p = prompt[c.locale];
    p.cases++;
    if (!body) continue;
    const system = body.messages.find((m) => m.role === 'system')?.content ?? '';
    const user = body.messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n');
    p.promptChars.push(length(system) + length(user));
    if (system.includes(c.locale === 'th' ? 'Answer in Thai' : 'Answer in English')) p.askedInQuestionLanguage++;
    if (!c.none) {
      p.answerable++;
      if (covers(c, plain(user))) p.factsInPrompt++;
    }
  }
  await engine.close();
  await fake.close();
  const openai = Object.fromEntries(
    Object.entries(prompt).map(([locale, p]) => [locale, { cases: p.cases, answerable: p.answerable, factsInPrompt: p.factsInPrompt, askedInQuestionLanguage: p.askedInQuestionLanguage, medianPromptChars: quantile(p.promptChars, 0.5), maxPromptChars: Math.max(0, ...p.promptChars) }]),
  );

  const types: CaseType[] = ['how-to', 'policy', 'troubleshooting', 'yes-no', 'none'];
  const counts = Object.fromEntries(['en', 'th'].map((l) => [l, Object.fromEntries(types.map((t) => [t, helpCenterCases.filter((c) => c.locale === l && c.type === t).length]))]));
  return { cases: helpCenterCases.length, counts, variants, openai };
}
