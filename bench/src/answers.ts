/**
 * Answer quality on the labelled set in `answers/cases.ts`: the demo tenant's articles loaded
 * through `panya demo`'s code path into an in-memory engine (default `hash` embedder, extractive
 * generator). Single-turn questions go through `answers.answer`, follow-ups through `chat.chat`
 * after their earlier turns. The peer, measured in the same run on the same retrieved passages:
 * "top passage", the best-ranked chunk quoted up to the same 80-word budget.
 */
import { createEngine, type Engine, type RequestContext } from '@panya/core';
import { demoCommand } from '@panya/cli';
import { openSqliteStore } from '@panya/store-sqlite';
import { answerCases, type AnswerCase } from './answers/cases.js';
import { runHelpCenter } from './answers/helpcenter-run.js';
import { emit, log } from './lib/child.js';

interface Outcome {
  id: string;
  locale: string;
  kind: 'single' | 'follow-up';
  answer: string;
  correct: boolean;
  /** Citations numbered 1..n in order of first use. */
  numbering: boolean;
  /** The answer is written in the requested locale's script. */
  inLocale: boolean;
  peerCorrect: boolean;
}

const THAI = /[\u0E00-\u0E7F]/gu;
const LETTER = /\p{L}/gu;
const thaiShare = (text: string) => (text.match(THAI)?.length ?? 0) / Math.max(1, text.match(LETTER)?.length ?? 0);

function judge(c: AnswerCase, answer: string, grounded: boolean): boolean {
  if (c.none) return !grounded;
  if (!grounded) return false;
  const facts = (c.expect ?? []).every((alternatives) => alternatives.some((a) => answer.includes(a)));
  const clean = (c.avoid ?? []).every((a) => !answer.includes(a));
  return facts && clean;
}

function numberedInOrder(answer: string): boolean {
  const seen: number[] = [];
  for (const m of answer.matchAll(/\[(\d+)\]/g)) {
    const n = Number(m[1]);
    if (!seen.includes(n)) seen.push(n);
  }
  return seen.every((n, i) => n === i + 1);
}

async function chatTurn(engine: Engine, ctx: RequestContext, query: string, locale: 'en' | 'th', conversationId?: string) {
  const stream = (await engine.chat.chat(ctx, { query, locale, ...(conversationId ? { conversationId } : {}) }))._unsafeUnwrap();
  let answer = '';
  let grounded = false;
  let standalone = query;
  for await (const e of stream.events) {
    if (e.event === 'delta') answer += e.data.text;
    if (e.event === 'done') {
      grounded = e.data.grounded;
      standalone = e.data.query;
    }
  }
  return { conversationId: stream.conversationId, answer: answer.trim(), grounded, standalone };
}

async function main() {
  const engine = createEngine({ store: openSqliteStore({ path: ':memory:' }) });
  await demoCommand(engine, { out: () => {}, err: () => {} });
  await engine.ingest.drain();
  const ctx = (await engine.access.system('demo'))._unsafeUnwrap();

  const outcomes: Outcome[] = [];
  for (const c of answerCases) {
    let answer: string;
    let grounded: boolean;
    let searchQuery = c.query;
    if (c.before) {
      let conversationId: string | undefined;
      for (const q of c.before) conversationId = (await chatTurn(engine, ctx, q, c.locale, conversationId)).conversationId;
      const turn = await chatTurn(engine, ctx, c.query, c.locale, conversationId);
      ({ answer, grounded } = turn);
      searchQuery = turn.standalone;
    } else {
      const r = (await engine.answers.answer(ctx, { query: c.query, locale: c.locale }))._unsafeUnwrap().value;
      ({ answer, grounded } = r);
    }
    const top = (await engine.search.search(ctx, { query: searchQuery, topK: 1 }))._unsafeUnwrap().results[0];
    const peer = top ? top.text.split(/\s+/).slice(0, 80).join(' ') : '';
    // The answer's opening words (its own lead, or the first quote) are in the requested language.
    const inLocale = c.locale === 'th' ? /[\u0E00-\u0E7F]/u.test(answer.slice(0, 40)) : thaiShare(answer.slice(0, 40)) < 0.3;
    outcomes.push({
      id: c.id,
      locale: c.locale,
      kind: c.before ? 'follow-up' : 'single',
      answer,
      correct: judge(c, answer, grounded),
      numbering: numberedInOrder(answer),
      inLocale,
      peerCorrect: judge(c, peer, Boolean(top)),
    });
    log(`${judge(c, answer, grounded) ? 'ok  ' : 'MISS'} ${c.id}: ${answer.slice(0, 160).replace(/\n/g, ' ')}`);
  }
  await engine.close();

  const groups = (['en', 'th'] as const).flatMap((locale) =>
    (['single', 'follow-up'] as const).map((kind) => {
      const rows = outcomes.filter((o) => o.locale === locale && o.kind === kind);
      return { locale, kind, cases: rows.length, correct: rows.filter((o) => o.correct).length, peerCorrect: rows.filter((o) => o.peerCorrect).length };
    }),
  );
  const helpCenter = await runHelpCenter(log);
  emit({
    helpCenter,
    cases: outcomes.length,
    correct: outcomes.filter((o) => o.correct).length,
    peerCorrect: outcomes.filter((o) => o.peerCorrect).length,
    numberedInOrder: outcomes.filter((o) => o.numbering).length,
    inRequestedLocale: outcomes.filter((o) => o.inLocale).length,
    groups,
    outcomes,
  });
}

await main();
