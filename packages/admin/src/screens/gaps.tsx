import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import type { AppContext } from '../context.js';
import { formatDate, t, useLang, type MessageKey } from '../i18n.js';
import { ErrorBox, Section, StatusBadge, useAction } from '../ui.js';

interface Gap {
  id: string;
  terms: string[];
  count: number;
  previousCount: number;
  trend: 'new' | 'up' | 'down' | 'flat';
  examples: string[];
  nearestDocument: { id: string; title: string; url: string | null } | null;
  curatedAnswer: { covered: boolean; id: string | null } | null;
  lastAskedAt: string;
}
interface Gaps { period: string; computedAt: string | null; stale: boolean; recomputing: boolean; questions: number; data: Gap[] }

const PERIODS = ['7d', '30d', '90d'] as const;

/** Where the documents screen picks up a new article's draft ("write an article" from a gap). */
export const DRAFT_KEY = 'panya.draft';

/** Content gaps: what people asked that the knowledge base answered badly, with the two ways to close each. */
export function GapsScreen({ ctx }: { ctx: AppContext }) {
  useLang();
  const [period, setPeriod] = useState<(typeof PERIODS)[number]>('30d');
  const [gaps, setGaps] = useState<Gaps | null>(null);
  const [curating, setCurating] = useState<Gap | null>(null);
  const load = useAction();

  async function read() {
    const next = await load.run(() => api<Gaps>('GET', `${ctx.base}/insights/gaps?period=${period}`));
    if (next) setGaps(next);
  }
  useEffect(() => {
    void read();
  }, [period]);
  // A recomputation was started: read again until it is done (bounded: every 2 s, 30 times).
  const [polls, setPolls] = useState(0);
  useEffect(() => {
    if (!gaps?.recomputing || polls >= 30) return;
    const timer = setTimeout(() => {
      setPolls(polls + 1);
      void read();
    }, 2000);
    return () => clearTimeout(timer);
  }, [gaps]);

  function writeArticle(gap: Gap) {
    const contentMd = `${t('gaps.draftBody')}\n\n${gap.examples.map((q) => `- ${q}`).join('\n')}\n`;
    sessionStorage.setItem(DRAFT_KEY, JSON.stringify({ title: t('gaps.draftTitle', { question: gap.examples[0] ?? gap.terms.join(' ') }), contentMd }));
    location.hash = '#/documents';
  }

  return (
    <>
      <h1>{t('gaps.title')}</h1>
      <p class="muted">{t('gaps.intro')}</p>
      <div class="row filters">
        <label class="inline">
          {t('gaps.period')}
          <select value={period} onChange={(e) => setPeriod((e.target as HTMLSelectElement).value as (typeof PERIODS)[number])}>
            {PERIODS.map((p) => (
              <option value={p} key={p}>
                {p}
              </option>
            ))}
          </select>
        </label>
        <span class="muted" aria-live="polite" data-computed={gaps?.computedAt ?? ''}>
          {gaps?.computedAt ? t('gaps.computed', { at: formatDate(gaps.computedAt) }) : t('gaps.notYet')} {gaps?.recomputing ? t('gaps.recomputing') : ''}
        </span>
      </div>
      <ErrorBox error={load.error} />
      {curating ? <CuratedForm ctx={ctx} gap={curating} onClose={() => setCurating(null)} /> : null}
      <Section title={t('gaps.title')} id="gaps-list">
        {!gaps || gaps.data.length === 0 ? (
          <p>{gaps ? t('gaps.empty') : t('loading')}</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">{t('gaps.examples')}</th>
                <th scope="col">{t('gaps.count')}</th>
                <th scope="col">{t('gaps.trend')}</th>
                <th scope="col">{t('gaps.nearest')}</th>
                <th scope="col">{t('gaps.curated')}</th>
                <th scope="col">
                  <span class="visually-hidden">{t('gaps.writeArticle')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {gaps.data.map((gap) => (
                <tr key={gap.id} data-gap={gap.id}>
                  <td>
                    <ul class="plain">
                      {gap.examples.map((q) => (
                        <li key={q}>{q}</li>
                      ))}
                    </ul>
                  </td>
                  <td>{gap.count}</td>
                  <td>
                    <StatusBadge value={gap.trend === 'up' || gap.trend === 'new' ? 'failed' : 'indexed'} label={t(`gaps.trend.${gap.trend}` as MessageKey)} />
                  </td>
                  <td>{gap.nearestDocument ? gap.nearestDocument.title : '—'}</td>
                  <td>{gap.curatedAnswer === null ? '—' : gap.curatedAnswer.covered ? t('gaps.covered') : t('gaps.notCovered')}</td>
                  <td>
                    <div class="row">
                      {ctx.can('write') ? (
                        <button type="button" class="small" onClick={() => writeArticle(gap)} aria-label={`${t('gaps.writeArticle')}: ${gap.examples[0] ?? ''}`}>
                          {t('gaps.writeArticle')}
                        </button>
                      ) : null}
                      {ctx.can('write') && !gap.curatedAnswer?.covered ? (
                        <button type="button" class="secondary small" onClick={() => setCurating(gap)} aria-label={`${t('gaps.addCurated')}: ${gap.examples[0] ?? ''}`}>
                          {t('gaps.addCurated')}
                        </button>
                      ) : null}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
    </>
  );
}

/** A curated answer for a gap, prefilled with its most recent question (`POST …/curated-answers`). */
function CuratedForm({ ctx, gap, onClose }: { ctx: AppContext; gap: Gap; onClose: () => void }) {
  useLang();
  const [question, setQuestion] = useState(gap.examples[0] ?? '');
  const [answer, setAnswer] = useState('');
  const [saved, setSaved] = useState(false);
  const action = useAction();

  async function save(e: Event) {
    e.preventDefault();
    const done = await action.run(() => api('POST', `${ctx.base}/curated-answers`, { question, answer }));
    if (done !== undefined) setSaved(true);
  }

  return (
    <form class="card stack" onSubmit={save} aria-labelledby="curated-form">
      <h2 id="curated-form">{t('gaps.addCurated')}</h2>
      <label>
        {t('gaps.question')}
        <input name="question" required maxLength={1000} value={question} onInput={(e) => setQuestion((e.target as HTMLInputElement).value)} />
      </label>
      <label>
        {t('gaps.answer')}
        <textarea name="answer" rows={6} required value={answer} onInput={(e) => setAnswer((e.target as HTMLTextAreaElement).value)} />
      </label>
      <ErrorBox error={action.error} />
      {saved ? <p role="status">{t('gaps.curatedSaved')}</p> : null}
      <div class="row">
        <button type="submit" disabled={action.busy}>
          {t('save')}
        </button>
        <button type="button" class="secondary" onClick={onClose}>
          {t('cancel')}
        </button>
      </div>
    </form>
  );
}
