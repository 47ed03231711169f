import { failedGates, parseGate, type Engine, type EvalRunView } from '@panya/core';
import type { Io } from '../runtime.js';
import type { SearchWeights } from '@panya/core';
import { CommandError, fail } from './tenant.js';

export interface WorkspaceEvalOptions {
  tenant: string;
  workspace: string;
  /** The evaluation set; default the workspace's newest. */
  set?: string;
  weights?: SearchWeights;
  citations?: boolean;
  /** `hitAt1=0.8,mrr=0.7`: exits non-zero when the run falls below any. */
  failBelow?: string;
  json?: boolean;
}

const pct = (x: number | null) => (x === null ? '—' : x.toFixed(4));
const delta = (x: number | null) => (x === null ? '' : ` (${x >= 0 ? '+' : ''}${x.toFixed(4)})`);

export function formatRun(run: EvalRunView): string {
  const m = run.metrics!;
  const d = run.diff?.metrics;
  const lines = [
    `Run ${run.id} of set ${run.setId}: ${m.questions} questions${run.diff ? `, compared with ${run.diff.previousRunId}` : ''}`,
    '| metric | value |',
    '|---|---|',
    `| Hit@1 | ${pct(m.hitAt1)}${delta(d?.hitAt1 ?? null)} |`,
    `| Hit@5 | ${pct(m.hitAt5)}${delta(d?.hitAt5 ?? null)} |`,
    `| MRR | ${pct(m.mrr)}${delta(d?.mrr ?? null)} |`,
    `| nDCG@10 | ${pct(m.ndcgAt10)}${delta(d?.ndcgAt10 ?? null)} |`,
    `| citation accuracy | ${pct(m.citationAccuracy)}${delta(d?.citationAccuracy ?? null)} |`,
  ];
  if (run.diff) {
    lines.push(`${run.diff.wins.length} better, ${run.diff.losses.length} worse, ${run.diff.unchanged} unchanged`);
    for (const w of run.diff.wins) lines.push(`  + ${w.question} (rank ${w.before ?? '—'} → ${w.after ?? '—'})`);
    for (const l of run.diff.losses) lines.push(`  - ${l.question} (rank ${l.before ?? '—'} → ${l.after ?? '—'})`);
  }
  return lines.join('\n');
}

/**
 * `panya eval --workspace <slug>`: runs a workspace's evaluation set, stores the run, prints its
 * metrics and what changed since the previous run; with `--fail-below`, a tenant's CI gate.
 */
export async function workspaceEvalCommand(engine: Engine, io: Io, opts: WorkspaceEvalOptions): Promise<EvalRunView> {
  let gate: ReturnType<typeof parseGate> = {};
  try {
    gate = opts.failBelow ? parseGate(opts.failBelow) : {};
  } catch (error) {
    throw new CommandError(`--fail-below: ${(error as Error).message}`);
  }
  const ctx = await engine.access.system(opts.tenant, opts.workspace);
  if (ctx.isErr()) fail(ctx.error);
  let setId = opts.set;
  if (!setId) {
    const sets = await engine.evals.listSets(ctx.value);
    if (sets.isErr()) fail(sets.error);
    setId = sets.value[0]?.id;
    if (!setId) throw new CommandError(`Workspace "${opts.workspace}" has no evaluation set: create one with POST /api/eval/sets.`);
  }
  const weights = opts.weights;
  const started = await engine.evals.startRun(ctx.value, { setId, citations: opts.citations ?? true, ...(weights ? { weights } : {}) });
  if (started.isErr()) fail(started.error, '--set');
  await engine.evals.finished(started.value.id);
  const run = await engine.evals.getRun(ctx.value, started.value.id);
  if (run.isErr()) fail(run.error);
  if (run.value.status !== 'done') throw new CommandError(`The evaluation run ${run.value.id} failed: ${run.value.error ?? 'unknown error'}`);
  io.out(opts.json ? JSON.stringify(run.value, null, 2) : formatRun(run.value));
  const failed = failedGates(run.value.metrics!, gate);
  if (failed.length > 0) throw new CommandError(`Below the gate: ${failed.map((f) => `${f.metric} ${pct(f.value)} < ${f.threshold}`).join(', ')}.`);
  return run.value;
}
