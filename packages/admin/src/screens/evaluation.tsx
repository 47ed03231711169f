import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import type { AppContext } from '../context.js';
import { t, useLang } from '../i18n.js';
import { ErrorBox, useAction } from '../ui.js';

interface EvalSet {
  id: string;
  name: string;
  questions: unknown[];
}
type MetricName = 'hitAt1' | 'hitAt5' | 'mrr' | 'ndcgAt10' | 'citationAccuracy';
interface Change {
  questionId: string;
  question: string;
  before: number | null;
  after: number | null;
}
interface EvalRun {
  id: string;
  setId: string;
  status: 'running' | 'done' | 'failed';
  metrics: (Record<MetricName, number | null> & { questions: number }) | null;
  error: string | null;
  createdAt: string;
  diff: { previousRunId: string; metrics: Record<MetricName, number | null>; wins: Change[]; losses: Change[]; unchanged: number } | null;
}

const METRICS: [MetricName, () => string][] = [
  ['hitAt1', () => 'Hit@1'],
  ['hitAt5', () => 'Hit@5'],
  ['mrr', () => 'MRR'],
  ['ndcgAt10', () => 'nDCG@10'],
  ['citationAccuracy', () => t('eval.citations')],
];
const num = (x: number | null | undefined) => (x == null ? '—' : x.toFixed(4));
const signed = (x: number | null | undefined) => (x == null ? '—' : `${x > 0 ? '+' : ''}${x.toFixed(4)}`);
const rankOf = (r: number | null) => (r === null ? '—' : String(r));
/** How often a running evaluation is looked at again. */
const POLL_MS = 1_000;

/** The playground's evaluation: run a workspace's evaluation set and see the run beside the previous one. */
export function EvaluationPanel({ ctx }: { ctx: AppContext }) {
  useLang();
  const [sets, setSets] = useState<EvalSet[] | null>(null);
  const [setId, setSetId] = useState('');
  const [run, setRun] = useState<EvalRun | null>(null);
  const action = useAction();

  async function latest(id: string) {
    const runs = await api<{ data: { id: string }[] }>('GET', `${ctx.base}/eval/runs?setId=${encodeURIComponent(id)}`);
    setRun(runs.data[0] ? await api<EvalRun>('GET', `${ctx.base}/eval/runs/${runs.data[0].id}`) : null);
  }

  useEffect(() => {
    void action.run(async () => {
      const found = (await api<{ data: EvalSet[] }>('GET', `${ctx.base}/eval/sets`)).data;
      setSets(found);
      if (found[0]) {
        setSetId(found[0].id);
        await latest(found[0].id);
      }
    });
  }, [ctx.base]);

  // A large set runs in the background: look again until it ends.
  useEffect(() => {
    if (run?.status !== 'running') return;
    const timer = setTimeout(() => void action.run(async () => setRun(await api<EvalRun>('GET', `${ctx.base}/eval/runs/${run.id}`))), POLL_MS);
    return () => clearTimeout(timer);
  }, [run]);

  async function start(e: Event) {
    e.preventDefault();
    const started = await action.run(() => api<EvalRun>('POST', `${ctx.base}/eval/runs`, { setId }));
    if (started) setRun(started);
  }

  if (sets === null) return <ErrorBox error={action.error} />;
  return (
    <section class="card" aria-labelledby="eval-title">
      <h2 id="eval-title">{t('eval.title')}</h2>
      {sets.length === 0 ? (
        <p class="muted">{t('eval.none')}</p>
      ) : (
        <form class="row" onSubmit={start}>
          <label class="grow">
            {t('eval.set')}
            <select
              value={setId}
              onChange={(e) => {
                const id = (e.target as HTMLSelectElement).value;
                setSetId(id);
                void action.run(() => latest(id));
              }}
            >
              {sets.map((s) => (
                <option key={s.id} value={s.id}>
                  {t('eval.setOption', { name: s.name, n: s.questions.length })}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={action.busy || run?.status === 'running'}>
            {t('eval.run')}
          </button>
        </form>
      )}
      <ErrorBox error={action.error} />
      {run ? <RunView run={run} /> : null}
    </section>
  );
}

function RunView({ run }: { run: EvalRun }) {
  if (run.status === 'running') return <p role="status">{t('eval.running')}</p>;
  if (run.status === 'failed' || !run.metrics) return <p role="alert">{run.error ?? t('eval.failed')}</p>;
  const diff = run.diff;
  return (
    <>
      <p class="muted">{t('eval.summary', { n: run.metrics.questions, at: new Date(run.createdAt).toLocaleString() })}</p>
      <table class="results" aria-label={t('eval.metrics')}>
        <thead>
          <tr>
            <th scope="col">{t('eval.metric')}</th>
            <th scope="col">{t('eval.value')}</th>
            <th scope="col">{t('eval.change')}</th>
          </tr>
        </thead>
        <tbody>
          {METRICS.map(([name, label]) => (
            <tr key={name} data-metric={name}>
              <th scope="row">{label()}</th>
              <td data-col="value">{num(run.metrics![name])}</td>
              <td data-col="change">{diff ? signed(diff.metrics[name]) : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {diff ? (
        <>
          <p>{t('eval.diff', { wins: diff.wins.length, losses: diff.losses.length, same: diff.unchanged })}</p>
          <Changes title={t('eval.wins')} changes={diff.wins} kind="wins" />
          <Changes title={t('eval.losses')} changes={diff.losses} kind="losses" />
        </>
      ) : (
        <p class="muted">{t('eval.first')}</p>
      )}
    </>
  );
}

function Changes({ title, changes, kind }: { title: string; changes: Change[]; kind: string }) {
  if (changes.length === 0) return null;
  return (
    <>
      <h3>{title}</h3>
      <ul data-changes={kind}>
        {changes.map((c) => (
          <li key={c.questionId}>
            {c.question} <span class="muted">{t('eval.rankMove', { before: rankOf(c.before), after: rankOf(c.after) })}</span>
          </li>
        ))}
      </ul>
    </>
  );
}
