/**
 * Retrieval metrics as BEIR reports them (pytrec_eval semantics): graded relevance with linear
 * gain for nDCG, binary relevance (grade > 0) for the others. Queries without any relevant
 * document are skipped, as BEIR does.
 */
export type Qrels = Map<string, Map<string, number>>;
export type Run = Map<string, string[]>;

export interface Metrics {
  ndcgAt10: number;
  recallAt100: number;
  mrrAt10: number;
  hitAt1: number;
  queries: number;
}

function dcg(gains: number[]): number {
  return gains.reduce((sum, g, i) => sum + g / Math.log2(i + 2), 0);
}

export function evaluateRun(qrels: Qrels, run: Run): Metrics {
  let ndcg = 0;
  let recall = 0;
  let mrr = 0;
  let hit = 0;
  let n = 0;
  for (const [qid, judged] of qrels) {
    const relevant = [...judged].filter(([, g]) => g > 0);
    if (relevant.length === 0) continue;
    n++;
    const ranked = run.get(qid) ?? [];
    const gainOf = (doc: string) => judged.get(doc) ?? 0;
    const ideal = relevant.map(([, g]) => g).sort((a, b) => b - a).slice(0, 10);
    ndcg += dcg(ranked.slice(0, 10).map(gainOf)) / dcg(ideal);
    const top100 = new Set(ranked.slice(0, 100));
    recall += relevant.filter(([d]) => top100.has(d)).length / relevant.length;
    const first = ranked.slice(0, 10).findIndex((d) => gainOf(d) > 0);
    if (first >= 0) mrr += 1 / (first + 1);
    if (ranked.length > 0 && gainOf(ranked[0]!) > 0) hit++;
  }
  const avg = (x: number) => (n === 0 ? 0 : x / n);
  return { ndcgAt10: avg(ndcg), recallAt100: avg(recall), mrrAt10: avg(mrr), hitAt1: avg(hit), queries: n };
}
