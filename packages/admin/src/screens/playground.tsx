import { useState } from 'preact/hooks';
import { api } from '../api.js';
import type { AppContext } from '../context.js';
import { t, useLang } from '../i18n.js';
import { ErrorBox, useAction } from '../ui.js';
import { EvaluationPanel } from './evaluation.js';

interface Explained {
  results: {
    chunkId: string;
    title: string;
    headingPath: string[];
    text: string;
    score: number;
    rank: number;
    lexicalRank: number | null;
    semanticRank: number | null;
    explain?: { trigramRank: number | null; contributions: { lexical: number; semantic: number; trigram: number } };
  }[];
  tookMs: number;
  explain?: { weights: { lexical: number; semantic: number; trigram: number }; rrfK: number };
}

const fmt = (n: number) => n.toFixed(4);
const rank = (r: number | null | undefined, share?: number) => (r == null ? '—' : share !== undefined ? `${r} (+${fmt(share)})` : String(r));

/** Retrieval playground: a query → ranked chunks with each channel's rank and the fused score. */
export function PlaygroundScreen({ ctx }: { ctx: AppContext }) {
  useLang();
  const [query, setQuery] = useState('');
  const [topK, setTopK] = useState(8);
  const [found, setFound] = useState<Explained | null>(null);
  const action = useAction();

  async function run(e: Event) {
    e.preventDefault();
    const result = await action.run(() => api<Explained>('POST', `${ctx.base}/search`, { query, topK, explain: true }));
    if (result) setFound(result);
  }

  return (
    <>
      <h1>{t('play.title')}</h1>
      <form class="card row" onSubmit={run} role="search">
        <label class="grow">
          {t('play.query')}
          <input type="search" name="query" required maxLength={2000} value={query} onInput={(e) => setQuery((e.target as HTMLInputElement).value)} />
        </label>
        <label>
          {t('play.topK')}
          <input type="number" name="topK" min={1} max={50} value={topK} onInput={(e) => setTopK(Number((e.target as HTMLInputElement).value) || 8)} />
        </label>
        <button type="submit" disabled={action.busy}>
          {t('play.run')}
        </button>
      </form>
      <ErrorBox error={action.error} />
      {found ? (
        <section class="card" aria-labelledby="play-results">
          <h2 id="play-results">{t('play.title')}</h2>
          {found.explain ? (
            <p class="muted">
              {t('play.weights', { ...found.explain.weights, k: found.explain.rrfK, ms: found.tookMs })}
            </p>
          ) : null}
          {found.results.length === 0 ? (
            <p>{t('play.noResults')}</p>
          ) : (
            <table class="results">
              <thead>
                <tr>
                  <th scope="col">{t('play.rank')}</th>
                  <th scope="col">{t('play.chunk')}</th>
                  <th scope="col">{t('play.lexical')}</th>
                  <th scope="col">{t('play.semantic')}</th>
                  <th scope="col">{t('play.trigram')}</th>
                  <th scope="col">{t('play.score')}</th>
                </tr>
              </thead>
              <tbody>
                {found.results.map((r) => (
                  <tr key={r.chunkId}>
                    <td>{r.rank}</td>
                    <td>
                      <strong>{r.title}</strong>
                      {r.headingPath.length ? <span class="muted"> · {r.headingPath.join(' › ')}</span> : null}
                      <p class="snippet">{r.text.length > 280 ? `${r.text.slice(0, 280)}…` : r.text}</p>
                    </td>
                    <td data-col="lexical">{rank(r.lexicalRank, r.explain?.contributions.lexical)}</td>
                    <td data-col="semantic">{rank(r.semanticRank, r.explain?.contributions.semantic)}</td>
                    <td data-col="trigram">{rank(r.explain?.trigramRank, r.explain?.contributions.trigram)}</td>
                    <td data-col="score">{fmt(r.score)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      ) : null}
      <EvaluationPanel ctx={ctx} />
    </>
  );
}
