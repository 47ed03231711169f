import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/runtime.js';
import { runEval } from '../src/commands/eval.js';

const root = mkdtempSync(join(tmpdir(), 'panya-eval-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A three-document dataset; `layout` decides where the judgments live. */
function dataset(name: string, layout: 'standard' | 'flat'): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'qrels'), { recursive: true });
  const docs = [
    { _id: 'd1', title: 'Refunds', text: 'Refunds are issued within fourteen days of purchase.' },
    { _id: 'd2', title: 'Shipping', text: 'Parcels to Chiang Mai arrive in three days.' },
    { _id: 'd3', title: 'Warranty', text: 'Every kettle carries a two year warranty.' },
  ];
  writeFileSync(join(dir, 'corpus.jsonl'), docs.map((d) => JSON.stringify(d)).join('\n'));
  writeFileSync(join(dir, 'queries.jsonl'), [{ _id: 'q1', text: 'kettle warranty' }, { _id: 'q2', text: 'parcels Chiang Mai' }].map((q) => JSON.stringify(q)).join('\n'));
  const qrels = 'query-id\tcorpus-id\tscore\nq1\td3\t1\nq2\td2\t1\n';
  writeFileSync(layout === 'standard' ? join(dir, 'qrels', 'test.tsv') : join(dir, 'qrels.tsv'), qrels);
  return dir;
}

describe('panya eval', () => {
  it.each(['standard', 'flat'] as const)('reads the %s BEIR layout and ranks the judged documents first', async (layout) => {
    const engine = await openEngine({ db: ':memory:' });
    try {
      const report = await runEval(engine, dataset(layout, layout), 'test', layout);
      expect(report.documents).toBe(3);
      expect(report.modes.lexical!.ndcgAt10).toBe(1);
    } finally {
      await engine.close();
    }
  });

  it('names the expected files when the layout is not BEIR', async () => {
    const engine = await openEngine({ db: ':memory:' });
    try {
      await expect(runEval(engine, root, 'test', 'none')).rejects.toThrow(/expected the BEIR layout: corpus\.jsonl, queries\.jsonl, qrels\/test\.tsv/);
    } finally {
      await engine.close();
    }
  });
});
