import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { defaultSearchWeights, evaluateRun, type Engine, type Metrics, type Qrels, type Run, type SearchWeights } from '@panya/core';
import { progress } from '../progress.js';
import type { Io } from '../runtime.js';
import { drainWithProgress, type ProgressIo } from './reindex.js';
import { CommandError, fail } from './tenant.js';

const RUN_DEPTH = 100;
const LOAD_BATCH = 500;

export const EVAL_MODES: Record<string, SearchWeights | null> = {
  lexical: { lexical: 1, trigram: 0, semantic: 0 },
  semantic: { lexical: 0, trigram: 0, semantic: 1 },
  hybrid: null, // the engine's defaults
};

async function* jsonLines(path: string): AsyncGenerator<Record<string, unknown>> {
  for await (const line of createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity })) {
    if (line.trim()) yield JSON.parse(line);
  }
}

async function readQrels(path: string): Promise<Qrels> {
  const qrels: Qrels = new Map();
  for await (const line of createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity })) {
    const [qid, docId, grade] = line.split('\t');
    if (!qid || !docId || qid === 'query-id' || grade === undefined) continue;
    if (!qrels.has(qid)) qrels.set(qid, new Map());
    qrels.get(qid)!.set(docId, Number(grade));
  }
  return qrels;
}

export interface EvalReport {
  dataset: string;
  split: string;
  embedder: string;
  documents: number;
  chunks: number;
  indexSeconds: number;
  modes: Record<string, Metrics & { medianQueryMs: number }>;
}

/**
 * Loads a BEIR-format folder into the given (empty, temporary) engine, runs every judged query
 * in lexical-only, semantic-only and hybrid mode, and scores documents by their best chunk.
 */
export async function runEval(engine: Engine, dir: string, split: 'test' | 'train', name: string, hybrid?: SearchWeights, shown?: { io: Io } & ProgressIo): Promise<EvalReport> {
  // The standard BEIR layout (`qrels/test.tsv`, one `queries.jsonl`), or the flat one (`qrels.tsv`, `qrels_train.tsv`, `queries_train.jsonl`).
  const first = (names: string[]) => names.map((n) => join(dir, n)).find((path) => existsSync(path)) ?? join(dir, names[0]!);
  const files = {
    corpus: join(dir, 'corpus.jsonl'),
    queries: first(split === 'train' ? ['queries_train.jsonl', 'queries.jsonl'] : ['queries.jsonl']),
    qrels: first([`qrels/${split}.tsv`, split === 'train' ? 'qrels_train.tsv' : 'qrels.tsv']),
  };
  for (const path of Object.values(files)) if (!existsSync(path)) throw new CommandError(`Missing ${path} (expected the BEIR layout: corpus.jsonl, queries.jsonl, qrels/${split}.tsv).`);

  const created = await engine.tenancy.createTenant({ slug: 'eval', plan: 'enterprise' });
  if (created.isErr()) fail(created.error);
  const ctx = await engine.access.system('eval');
  if (ctx.isErr()) fail(ctx.error);

  const corpusIdOf = new Map<string, string>();
  let batch: { id: string; title: string; contentMd: string }[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const result = await engine.documents.bulk(ctx.value, { create: batch.map(({ title, contentMd }) => ({ title, contentMd })) });
    if (result.isErr()) fail(result.error);
    result.value.forEach((r, i) => corpusIdOf.set(r.id, batch[i]!.id));
    batch = [];
  };
  for await (const doc of jsonLines(files.corpus)) {
    const text = String(doc.text ?? '');
    batch.push({ id: String(doc._id), title: String(doc.title ?? '').trim() || text.slice(0, 80) || String(doc._id), contentMd: text });
    if (batch.length >= LOAD_BATCH) await flush();
  }
  await flush();
  const started = performance.now();
  if (shown) await drainWithProgress(engine, shown.io, 'Indexing', ctx.value.scope, shown);
  else await engine.ingest.drain();
  const indexSeconds = (performance.now() - started) / 1000;

  const qrels = await readQrels(files.qrels);
  const queries: { id: string; text: string }[] = [];
  for await (const q of jsonLines(files.queries)) if (qrels.has(String(q._id))) queries.push({ id: String(q._id), text: String(q.text) });

  const modes: EvalReport['modes'] = {};
  const chunkDoc = new Map<string, string>();
  for (const [mode, preset] of Object.entries(EVAL_MODES)) {
    const weights = mode === 'hybrid' && hybrid ? hybrid : preset;
    const run: Run = new Map();
    const times: number[] = [];
    const bar = shown ? progress(shown.io, `Querying (${mode})`, queries.length, { ...shown, unit: 'queries' }) : null;
    for (const q of queries) {
      bar?.update(run.size);
      const t0 = performance.now();
      const hits = await engine.search.retrieve(ctx.value.scope, q.text, RUN_DEPTH, ...(weights ? [weights] : []));
      times.push(performance.now() - t0);
      const missing = hits.filter((h) => !chunkDoc.has(h.chunkId)).map((h) => h.chunkId);
      for (const c of await engine.search.chunks(ctx.value.scope, missing)) chunkDoc.set(c.id, c.documentId);
      const ranked: string[] = [];
      for (const h of hits) {
        const doc = corpusIdOf.get(chunkDoc.get(h.chunkId) ?? '');
        if (doc && !ranked.includes(doc)) ranked.push(doc);
        if (ranked.length >= RUN_DEPTH) break;
      }
      run.set(q.id, ranked);
    }
    bar?.update(run.size);
    bar?.stop();
    times.sort((a, b) => a - b);
    modes[mode] = { ...evaluateRun(qrels, run), medianQueryMs: Math.round((times[Math.floor(times.length / 2)] ?? 0) * 100) / 100 };
  }
  return {
    dataset: name,
    split,
    embedder: engine.embedder.id,
    documents: corpusIdOf.size,
    chunks: await engine.search.countChunks(ctx.value.scope),
    indexSeconds: Math.round(indexSeconds * 10) / 10,
    modes,
  };
}

export function formatEval(report: EvalReport): string {
  const f = (x: number) => x.toFixed(4);
  const lines = [
    `${report.dataset} (${report.split}) — ${report.documents} documents, ${report.chunks} chunks, embedder ${report.embedder}, indexed in ${report.indexSeconds}s`,
    '| mode | nDCG@10 | Recall@100 | MRR@10 | Hit@1 | queries | median ms |',
    '|---|---|---|---|---|---|---|',
    ...Object.entries(report.modes).map(([mode, m]) => `| ${mode} | ${f(m.ndcgAt10)} | ${f(m.recallAt100)} | ${f(m.mrrAt10)} | ${f(m.hitAt1)} | ${m.queries} | ${m.medianQueryMs} |`),
  ];
  return lines.join('\n');
}

/** `lexical=1,semantic=0.05,trigram=0.5` → hybrid weights (unnamed channels keep the engine's defaults). */
export function parseWeights(spec: string, defaults: SearchWeights): SearchWeights {
  const weights = { ...defaults };
  for (const part of spec.split(',')) {
    const [name, value] = part.split('=').map((s) => s.trim());
    const n = Number(value);
    if (!name || !(name in weights) || !Number.isFinite(n) || n < 0) throw new CommandError(`Bad weight "${part}": use lexical=1,semantic=0.05,trigram=0.5.`);
    weights[name as keyof SearchWeights] = n;
  }
  return weights;
}

export async function evalCommand(engine: Engine, io: Io, dir: string, opts: { split: 'test' | 'train'; json?: boolean; name: string; weights?: string } & Partial<ProgressIo>) {
  const hybrid = opts.weights ? parseWeights(opts.weights, defaultSearchWeights(engine.embedder)) : undefined;
  const shown = { io, tty: opts.tty ?? false, ...(opts.everyMs !== undefined ? { everyMs: opts.everyMs } : {}) };
  const report = await runEval(engine, dir, opts.split, opts.name, hybrid, shown);
  io.out(opts.json ? JSON.stringify(report, null, 2) : formatEval(report));
  return report;
}
