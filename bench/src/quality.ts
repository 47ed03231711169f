/**
 * Retrieval quality side by side on the BEIR-format datasets in ../shared/eval (TEST split
 * only; nothing tuned): Panya's `runEval` (the code behind `panya eval`, fresh in-memory engine,
 * default `hash` embedder) next to MiniSearch, Lunr and Orama set up as their docs show
 * (defaults), and each again with an Intl.Segmenter word tokenizer (for Thai). Same metrics
 * (`evaluateRun` from @panya/core), documents ranked to depth 100.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { create, insertMultiple, search as oramaSearch } from '@orama/orama';
import { createEngine, evaluateRun, type Metrics, type Qrels, type Run } from '@panya/core';
import { openSqliteStore } from '@panya/store-sqlite';
import lunr from 'lunr';
import MiniSearch from 'minisearch';
// Exactly what `panya eval` runs.
import { runEval } from '@panya/cli';
import { emit, log } from './lib/child.js';
import { median, round } from './lib/stats.js';

// The datasets live in shared/ beside the repository checkout.
const EVAL_DIR = process.env.PANYA_EVAL_DIR ?? fileURLToPath(new URL('../../../shared/eval', import.meta.url));
const DATASETS = (process.env.BENCH_DATASETS ?? 'scifact,xquad-th,xquad-en').split(',');
const DEPTH = 100;

interface Doc {
  id: string;
  title: string;
  text: string;
}
const jsonl = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);

function load(dir: string) {
  const docs: Doc[] = jsonl(join(dir, 'corpus.jsonl')).map((d) => ({ id: String(d._id), title: String(d.title ?? ''), text: String(d.text ?? '') }));
  const qrels: Qrels = new Map();
  for (const line of readFileSync(join(dir, 'qrels.tsv'), 'utf8').split('\n')) {
    const [qid, docId, grade] = line.split('\t');
    if (!qid || !docId || qid === 'query-id' || grade === undefined) continue;
    if (!qrels.has(qid)) qrels.set(qid, new Map());
    qrels.get(qid)!.set(docId, Number(grade));
  }
  const queries = jsonl(join(dir, 'queries.jsonl'))
    .map((q) => ({ id: String(q._id), text: String(q.text) }))
    .filter((q) => qrels.has(q.id));
  return { docs, qrels, queries };
}

// One word segmenter for the "+ Intl.Segmenter" variants (ICU dictionary segmentation for Thai).
const segmenter = new Intl.Segmenter('th', { granularity: 'word' });
const segWords = (text: string): string[] => {
  const out: string[] = [];
  for (const s of segmenter.segment(text)) if (s.isWordLike) out.push(s.segment.toLowerCase());
  return out;
};

interface Library {
  name: string;
  build(docs: Doc[]): Promise<(q: string) => Promise<string[]> | string[]>;
}

const miniSearch = (segment: boolean): Library => ({
  name: segment ? 'MiniSearch + Intl.Segmenter' : 'MiniSearch (defaults)',
  async build(docs) {
    const ms = new MiniSearch<Doc>({ fields: ['title', 'text'], ...(segment ? { tokenize: segWords } : {}) });
    ms.addAll(docs);
    return (q) => ms.search(q).slice(0, DEPTH).map((r) => String(r.id));
  },
});

/** Lunr's query-string syntax (field:, ~, ^, +, -, *) can reject user text; escape and retry then. */
const lunrEscape = (q: string) => q.replace(/[:~^+\-*\\]/g, ' ');
const lunrLib = (segment: boolean): Library => ({
  name: segment ? 'Lunr + Intl.Segmenter' : 'Lunr (defaults)',
  async build(docs) {
    const idx = lunr(function () {
      this.ref('id');
      this.field('title');
      this.field('text');
      if (segment) {
        // Custom tokenizer; the default trimmer strips \W (all Thai letters), so it goes.
        this.tokenizer = ((obj: unknown, metadata?: object) => {
          if (obj === null || obj === undefined) return [];
          const text = String(obj);
          const tokens: lunr.Token[] = [];
          for (const s of segmenter.segment(text)) {
            if (!s.isWordLike) continue;
            tokens.push(new lunr.Token(s.segment.toLowerCase(), { ...(metadata ?? {}), position: [s.index, s.segment.length], index: tokens.length }));
          }
          return tokens;
        }) as unknown as typeof lunr.tokenizer;
        this.pipeline.remove(lunr.trimmer);
      }
      for (const d of docs) this.add(d);
    });
    if (segment) return (q) => idx.query((query) => { for (const t of segWords(q)) query.term(t, {}); }).slice(0, DEPTH).map((r) => r.ref);
    return (q) => {
      try {
        return idx.search(q).slice(0, DEPTH).map((r) => r.ref);
      } catch {
        return idx.search(lunrEscape(q)).slice(0, DEPTH).map((r) => r.ref);
      }
    };
  },
});

const oramaLib = (segment: boolean): Library => ({
  name: segment ? 'Orama + Intl.Segmenter' : 'Orama (defaults)',
  async build(docs) {
    const db = create({
      schema: { title: 'string', text: 'string' } as const,
      ...(segment ? { components: { tokenizer: { language: 'english', normalizationCache: new Map(), tokenize: (raw: string) => [...new Set(segWords(raw))] } } } : {}),
    });
    await insertMultiple(db, docs);
    return async (q) => {
      const res = await oramaSearch(db, { term: q, limit: DEPTH });
      return res.hits.map((h) => h.id);
    };
  },
});

const LIBRARIES = [miniSearch(false), miniSearch(true), lunrLib(false), lunrLib(true), oramaLib(false), oramaLib(true)];

interface Row extends Metrics {
  system: string;
  medianQueryMs: number;
  indexSeconds: number;
  queriesWithoutHits: number;
}
const f4 = (m: Metrics) => ({ ndcgAt10: round(m.ndcgAt10, 4), recallAt100: round(m.recallAt100, 4), mrrAt10: round(m.mrrAt10, 4), hitAt1: round(m.hitAt1, 4), queries: m.queries });

const datasets = [];
for (const name of DATASETS) {
  const dir = join(EVAL_DIR, name);
  const { docs, qrels, queries } = load(dir);
  log(`  quality ${name}: ${docs.length} docs, ${queries.length} judged test queries`);
  const rows: Row[] = [];

  const engine = createEngine({ store: openSqliteStore({ path: ':memory:' }) });
  const report = await runEval(engine, dir, 'test', name);
  await engine.close();
  for (const [mode, m] of Object.entries(report.modes)) {
    rows.push({ system: `Panya ${mode} (${report.embedder.split('-')[0]} embedder)`, ...f4(m), medianQueryMs: m.medianQueryMs, indexSeconds: report.indexSeconds, queriesWithoutHits: NaN });
  }

  for (const lib of LIBRARIES) {
    const t0 = performance.now();
    const searchFn = await lib.build(docs);
    const indexSeconds = (performance.now() - t0) / 1000;
    const run: Run = new Map();
    const times: number[] = [];
    let empty = 0;
    for (const q of queries) {
      const s = performance.now();
      const ranked = await searchFn(q.text);
      times.push(performance.now() - s);
      if (ranked.length === 0) empty++;
      run.set(q.id, ranked);
    }
    rows.push({ system: lib.name, ...f4(evaluateRun(qrels, run)), medianQueryMs: round(median(times), 2), indexSeconds: round(indexSeconds, 1), queriesWithoutHits: empty });
  }
  for (const r of rows) log(`    ${r.system.padEnd(34)} nDCG@10 ${r.ndcgAt10.toFixed(4)}  R@100 ${r.recallAt100.toFixed(4)}  MRR@10 ${r.mrrAt10.toFixed(4)}  Hit@1 ${r.hitAt1.toFixed(4)}`);
  datasets.push({ dataset: name, split: 'test', documents: docs.length, queries: queries.length, panyaChunks: report.chunks, rows });
}
emit({ benchmark: 'quality', depth: DEPTH, datasets });
